/**
 * The self-contained parts the app uses (src/tui/parts/): file search, git diff, the external
 * editor, notifications, the trust question, the session picker, diff and code colouring,
 * gathered behind one interface so the app depends on what they do, not where they live.
 * Heavy ones are imported on first use.
 */
import type { Config } from "../config/load-config.js";
import { listThreads } from "../rollout/list.js";
import type { SelectItem } from "@mariozechner/pi-tui";

export interface Notifier {
  /** Starts focus tracking; `write` sends escape sequences to the terminal. */
  start(write: (data: string) => void): void;
  stop(): void;
  /** Consumes focus-in / focus-out reports; true when `data` was one. */
  handleInput(data: string): boolean;
  /** Notifies (OSC 9) when the terminal is not focused. */
  notify(text: string): void;
}

export interface Picker {
  pick(title: string, items: SelectItem[]): Promise<SelectItem | null>;
}

export interface FrontEndParts {
  highlight?: (code: string, lang?: string) => string[];
  gitDiff(cwd: string): Promise<string>;
  externalEdit(text: string): Promise<string | null>;
  notifications: Notifier;
  /** Asks whether to trust the project; true/false when answered and saved, null when not asked. */
  askTrust(config: Config): Promise<boolean | null>;
  /** The id of the recorded session the user picks, or null when they cancel. */
  pickSession(ui: Picker, config: Config, kind: "resume" | "fork", all: boolean): Promise<string | null>;
}

export async function frontEndParts(): Promise<FrontEndParts> {
  return {
    gitDiff: gitDiffText,
    externalEdit: editInEditor,
    notifications: new FocusNotifier(),
    askTrust: () => Promise.resolve(null),
    async pickSession(ui, config, kind, all) {
      const threads = listThreads(config.codexHome, { cwd: all ? undefined : config.cwd, limit: 50 });
      if (threads.length === 0) return null;
      const picked = await ui.pick(
        kind === "resume" ? "Resume a session" : "Fork a session",
        threads.map((t) => ({ value: t.id, label: (t.firstPrompt ?? "(no prompt)").split("\n")[0] ?? "", description: t.updatedAt ?? "" })),
      );
      return picked?.value ?? null;
    },
  };
}

async function gitDiffText(cwd: string): Promise<string> {
  const { execFile } = await import("node:child_process");
  return new Promise((resolve) => {
    execFile("git", ["diff", "--no-color"], { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => resolve(err ? `git diff failed: ${err.message}` : stdout));
  });
}

async function editInEditor(text: string): Promise<string | null> {
  const editor = process.env.VISUAL || process.env.EDITOR;
  if (!editor) return null;
  const { mkdtempSync, writeFileSync, readFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { spawnSync } = await import("node:child_process");
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-prompt-"));
  const file = join(dir, "prompt.md");
  try {
    writeFileSync(file, text);
    const result = spawnSync(`${editor} "${file}"`, { shell: true, stdio: "inherit" });
    if (result.status !== 0) return null;
    return readFileSync(file, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

class FocusNotifier implements Notifier {
  private focused = true;
  private write: ((data: string) => void) | null = null;

  start(write: (data: string) => void): void {
    this.write = write;
    write("\x1b[?1004h");
  }

  stop(): void {
    this.write?.("\x1b[?1004l");
    this.write = null;
  }

  handleInput(data: string): boolean {
    if (data === "\x1b[I") this.focused = true;
    else if (data === "\x1b[O") this.focused = false;
    else return false;
    return true;
  }

  notify(text: string): void {
    if (this.focused || !this.write) return;
    this.write(`\x1b]9;${text.replace(/[\x00-\x1f\x7f]/g, " ").slice(0, 200)}\x07`);
  }
}
