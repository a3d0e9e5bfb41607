/**
 * Ctrl+G: edit the prompt in the user's own editor.
 *
 * API:
 * - `editorCommand(env)`: `$VISUAL`, else `$EDITOR`, split into words as a shell would
 *   (`code --wait`, `"/opt/My Editor/bin/edit" -w`); null when neither is set.
 * - `editExternally(text, { terminal, env })`: writes `text` to a fresh temporary file, hands
 *   the terminal over (`terminal.suspend()`), runs the editor on the file with the terminal as
 *   its stdin/stdout/stderr, takes the terminal back (`terminal.resume()`, on every path), reads
 *   the file and removes it. Resolves to the edited text; throws `EditorError` with a sentence
 *   for the user when no editor is set, it cannot be started, or it fails (the composer keeps
 *   the original text then).
 *
 * The handover contract: `suspend` must leave the terminal as a shell would (raw mode off,
 * bracketed paste and keyboard modes off, cursor shown, the app's input listener detached) and
 * `resume` must undo that and repaint; both may be async. Editors add a final newline; one is
 * taken off again when the original text had none, so a round trip without edits is a no-op.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { splitShellWords } from "../../util/shell-words.js";
import { errorMessage } from "../../util/errors.js";

export interface TerminalHandover {
  suspend(): void | Promise<void>;
  resume(): void | Promise<void>;
}

export interface EditOptions {
  terminal: TerminalHandover;
  env?: NodeJS.ProcessEnv;
  /** Where the temporary folder goes (default: the system's). */
  tmpDir?: string;
}

export class EditorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditorError";
  }
}

export function editorCommand(env: NodeJS.ProcessEnv = process.env): string[] | null {
  for (const name of ["VISUAL", "EDITOR"]) {
    const value = env[name]?.trim();
    if (!value) continue;
    const words = splitShellWords(value);
    if (words === null || words.length === 0) throw new EditorError(`cannot read $${name} (${value}) as a command: check its quoting`);
    return words;
  }
  return null;
}

function runEditor(argv: string[], file: string, env: NodeJS.ProcessEnv): Promise<void> {
  const [program, ...args] = argv as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args, file], { stdio: "inherit", env });
    child.on("error", (err: NodeJS.ErrnoException) => {
      reject(new EditorError(err.code === "ENOENT" ? `editor \`${program}\` not found` : `could not start editor \`${program}\`: ${err.message}`));
    });
    child.on("exit", (code, signal) => {
      if (code === 0) resolve();
      else {
        const how = signal !== null ? `was stopped by ${signal}` : `exited with status ${code ?? "unknown"}`;
        reject(new EditorError(`editor \`${argv.join(" ")}\` ${how}; the prompt is unchanged`));
      }
    });
  });
}

export async function editExternally(text: string, options: EditOptions): Promise<string> {
  const env = options.env ?? process.env;
  const argv = editorCommand(env);
  if (argv === null) throw new EditorError("no editor set: export VISUAL or EDITOR (for example `export EDITOR=vim` or `export VISUAL=\"code --wait\"`)");
  const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), "codex-ts-prompt-"));
  const file = join(dir, "prompt.md");
  try {
    await writeFile(file, text, { mode: 0o600 });
    await options.terminal.suspend();
    try {
      await runEditor(argv, file, env);
    } finally {
      await options.terminal.resume();
    }
    let edited: string;
    try {
      edited = await readFile(file, "utf8");
    } catch (err) {
      throw new EditorError(`could not read the edited prompt back: ${errorMessage(err)}`);
    }
    if (!text.endsWith("\n") && edited.endsWith("\n")) edited = edited.slice(0, edited.endsWith("\r\n") ? -2 : -1);
    return edited;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
