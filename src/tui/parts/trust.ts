/**
 * The one-time trust question for the folder the UI opens in, as the reference asks it.
 *
 * Trust decides how the agent works there: in a folder the user trusts it edits files and runs
 * commands inside the folder without asking (workspace-write, asking on request); in one the
 * user does not trust it asks before anything not known to be safe; in one nobody decided about
 * it only reads. A project's own `.codex/config.toml` (and its rules) load only once trusted.
 * The answer is saved into the user's `$CODEX_HOME/config.toml` as the reference saves it,
 * `[projects."<abs path>"]` with `trust_level = "trusted"` or `"untrusted"`, so the question never
 * comes back either way.
 *
 * API:
 * - `trustQuestionFor(config, permissionsChosen)`: null when nothing needs asking (the user
 *   already decided, or chose the approval policy or sandbox explicitly and the project has no
 *   `.codex/` folder whose settings wait for trust); else `{ projectPath, folders, repository }`:
 *   the path the answer is saved under (the git repository root, else the project root), the
 *   project's `.codex/` folders, and whether it is a git repository.
 * - `saveTrustDecision(codexHome, projectPath, level)`: edits config.toml in place (comments
 *   and layout kept; `config/toml-edit.ts`), creating it when absent; returns the file's path.
 *   After "trusted" the caller reloads the config so the project's settings apply.
 * - `TrustPrompt`: the component. `1`/`y` or Enter on the first row trusts, `2`/`n` or Enter on
 *   the second does not, Up/Down move (a git repository starts on "trust", any other folder on
 *   "do not"), Esc leaves the question for next time (nothing saved, the folder stays
 *   read-only and its settings unloaded); `onDecide(level | null)` reports the choice.
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
import { errorCode } from "../../util/errors.js";

export interface TrustQuestion {
  projectPath: string;
  folders: string[];
  repository: boolean;
}

export function trustQuestionFor(config: Pick<Config, "cwd" | "codexHome" | "projectRootMarkers" | "projectTrustLevel">, permissionsChosen: boolean): TrustQuestion | null {
  if (config.projectTrustLevel !== null) return null;
  const { folders, trustKey, repository } = projectSettingsFolders(config.cwd, config.codexHome, config.projectRootMarkers);
  if (permissionsChosen && folders.length === 0) return null;
  return { projectPath: trustKey, folders, repository };
}

export async function saveTrustDecision(codexHome: string, projectPath: string, level: TrustLevel): Promise<string> {
  const file = join(codexHome, "config.toml");
  let text = "";
  try {
    text = readTextFile(file);
  } catch (err) {
    if (errorCode(err) !== "ENOENT") throw err;
  }
  const edited = setTableValue(text, ["projects", projectPath], "trust_level", level);
  await mkdir(codexHome, { recursive: true, mode: PRIVATE_DIR_MODE });
  // A crash never leaves half a config.
  writeFileAtomic(file, edited, 0o600);
  return file;
}

const CHOICES: { level: TrustLevel; label: string }[] = [
  { level: "trusted", label: "Yes, trust this folder" },
  { level: "untrusted", label: "No, ask before anything that is not known to be safe" },
];

export class TrustPrompt implements Component {
  private selected: number;

  constructor(
    private readonly question: TrustQuestion,
    private readonly onDecide: (level: TrustLevel | null) => void,
  ) {
    this.selected = question.repository ? 0 : 1;
  }

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
    const settings = this.question.folders.length > 0;
    const lines = [
      ...wrap(t.bold(`Trust ${this.question.projectPath}?`)),
      "",
      ...wrap(
        "In a folder you trust, the agent edits files and runs commands inside it without asking each time " +
          "(it still asks before going outside it). Otherwise it asks before anything that is not known to be safe.",
      ),
      ...(this.question.repository ? [] : ["", ...wrap(t.fg("warning", "This folder is not a git repository: its changes cannot be undone with git."))]),
      ...(settings
        ? [
            "",
            ...wrap("This project also has settings of its own, which load only if you trust it; they can change the agent's instructions and the commands it may run:"),
            ...this.question.folders.map((f) => t.fg("muted", `  ${f}`)),
          ]
        : []),
      "",
    ];
    CHOICES.forEach((choice, i) => {
      const chosen = i === this.selected;
      const row = `${chosen ? "›" : " "} ${i + 1}. ${choice.label}`;
      lines.push(...wrap(chosen ? t.fg("accent", row) : row));
    });
    lines.push("", ...wrap(t.fg("muted", "Enter to confirm · Esc to decide later (the agent only reads until then)")));
    return lines;
  }
}
