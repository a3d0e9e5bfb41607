/**
 * The one-time trust question for a project that carries its own `.codex/` settings.
 *
 * A project's `.codex/config.toml` (and its rules) load only once the user trusts the project;
 * until then exec just warns. The TUI asks instead, once: the answer is saved into the user's
 * `$CODEX_HOME/config.toml` as the reference saves it, `[projects."<abs path>"]` with
 * `trust_level = "trusted"` or `"untrusted"`, so the question never comes back either way.
 *
 * API:
 * - `trustQuestionFor(config)`: null when nothing needs asking (the user already decided, or the
 *   project has no `.codex/` folder of its own); else `{ projectPath, folders }`: the path the
 *   answer is saved under (the git repository root, else the project root) and the folders found.
 * - `saveTrustDecision(codexHome, projectPath, level)`: edits config.toml in place (comments
 *   and layout kept; `config/toml-edit.ts`), creating it when absent; returns the file's path.
 *   After "trusted" the caller reloads the config so the project's settings apply.
 * - `TrustPrompt`: the component. `1`/`y` or Enter on the first row trusts, `2`/`n` or Enter on
 *   the second does not, Up/Down move, Esc leaves the question for next time (nothing saved,
 *   the project's settings stay unloaded); `onDecide(level | null)` reports the choice.
 */
import type { Component } from "@mariozechner/pi-tui";
import { matchesKey, wrapTextWithAnsi } from "../pi-tui.js";
import { mkdir } from "node:fs/promises";
import { readTextFile } from "../../util/bounded-read.js";
import { join } from "node:path";
import type { Config } from "../../config/load-config.js";
import { projectSettingsFolders, type TrustLevel } from "../../config/project-config.js";
import { setTableValue } from "../../config/toml-edit.js";
import { PRIVATE_DIR_MODE, writeFileAtomic } from "../../util/atomic-write.js";
import { theme } from "./theme.js";

export interface TrustQuestion {
  projectPath: string;
  folders: string[];
}

export function trustQuestionFor(config: Pick<Config, "cwd" | "codexHome" | "projectRootMarkers" | "projectTrustLevel">): TrustQuestion | null {
  if (config.projectTrustLevel !== null) return null;
  const { folders, trustKey } = projectSettingsFolders(config.cwd, config.codexHome, config.projectRootMarkers);
  return folders.length === 0 ? null : { projectPath: trustKey, folders };
}

export async function saveTrustDecision(codexHome: string, projectPath: string, level: TrustLevel): Promise<string> {
  const file = join(codexHome, "config.toml");
  let text = "";
  try {
    text = readTextFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const edited = setTableValue(text, ["projects", projectPath], "trust_level", level);
  await mkdir(codexHome, { recursive: true, mode: PRIVATE_DIR_MODE });
  // A crash never leaves half a config.
  writeFileAtomic(file, edited, 0o600);
  return file;
}

const CHOICES: { level: TrustLevel; label: string }[] = [
  { level: "trusted", label: "Yes, trust this project and load its settings" },
  { level: "untrusted", label: "No, ignore its settings" },
];

export class TrustPrompt implements Component {
  private selected = 0;

  constructor(
    private readonly question: TrustQuestion,
    private readonly onDecide: (level: TrustLevel | null) => void,
  ) {}

  handleInput(data: string): void {
    if (matchesKey(data, "up") || matchesKey(data, "down")) this.selected = 1 - this.selected;
    else if (data === "1" || data === "y" || data === "Y") this.onDecide("trusted");
    else if (data === "2" || data === "n" || data === "N") this.onDecide("untrusted");
    else if (matchesKey(data, "enter")) this.onDecide((CHOICES[this.selected] as (typeof CHOICES)[number]).level);
    else if (matchesKey(data, "escape")) this.onDecide(null);
  }

  invalidate(): void {}

  render(width: number): string[] {
    const t = theme();
    const w = Math.max(20, width);
    const wrap = (text: string): string[] => wrapTextWithAnsi(text, w);
    const lines = [
      ...wrap(t.bold(`Trust ${this.question.projectPath}?`)),
      "",
      ...wrap(
        "This project has its own Codex settings (.codex/), which can change the model's instructions, " +
          "the commands it may run and the settings used here. Load them only if you trust where this project came from.",
      ),
      ...this.question.folders.map((f) => t.fg("muted", `  ${f}`)),
      "",
    ];
    CHOICES.forEach((choice, i) => {
      const chosen = i === this.selected;
      const row = `${chosen ? "›" : " "} ${i + 1}. ${choice.label}`;
      lines.push(...wrap(chosen ? t.fg("accent", row) : row));
    });
    lines.push("", ...wrap(t.fg("muted", "Enter to confirm · Esc to decide later (the settings stay off)")));
    return lines;
  }
}
