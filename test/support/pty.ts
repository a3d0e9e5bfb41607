/**
 * Runs the real CLI in a pseudo-terminal (node-pty) and reads what a user would see through a
 * headless terminal emulator (@xterm/headless): the visible screen, the scrollback, and every
 * byte the program wrote (to check the escape sequences it sends on exit).
 */
import pty from "@lydell/node-pty";
import xtermHeadless from "@xterm/headless";
import { CLI_PATH, makeWorkspace, testEnv, type Workspace } from "./cli.js";

const { Terminal } = xtermHeadless;

export interface PtyOptions {
  cwd: string;
  home: string;
  cols?: number;
  rows?: number;
  env?: Record<string, string | undefined>;
  /** Another program to run instead of the CLI (the benchmarks run the reference this way). */
  command?: string;
}

export class PtySession {
  readonly term: InstanceType<typeof Terminal>;
  private readonly proc: pty.IPty;
  /** Every byte the program wrote, as text. */
  output = "";
  exitCode: number | null = null;
  private readonly exited: Promise<number>;
  private pending: Promise<void> = Promise.resolve();

  constructor(args: string[], opts: PtyOptions) {
    const cols = opts.cols ?? 100;
    const rows = opts.rows ?? 30;
    this.term = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
    const [file, argv] = opts.command ? [opts.command, args] : [process.execPath, [CLI_PATH, ...args]];
    this.proc = pty.spawn(file, argv, {
      name: "xterm-256color",
      cols,
      rows,
      cwd: opts.cwd,
      env: testEnv(opts.home, { TERM: "xterm-256color", ...opts.env }) as Record<string, string>,
    });
    this.proc.onData((data) => {
      this.output += data;
      this.pending = this.pending.then(() => new Promise<void>((resolve) => this.term.write(data, resolve)));
    });
    this.exited = new Promise((resolve) =>
      this.proc.onExit(({ exitCode }) => {
        this.exitCode = exitCode;
        resolve(exitCode);
      }),
    );
  }

  /** The program's process id (for memory readings). */
  get pid(): number {
    return this.proc.pid;
  }

  /** Types text (or escape sequences) as keystrokes. */
  write(data: string): void {
    this.proc.write(data);
  }

  /** Types each character separately, as a person would. */
  async type(text: string, delayMs = 5): Promise<void> {
    for (const ch of text) {
      this.proc.write(ch);
      await sleep(delayMs);
    }
  }

  /** Pastes text the way a terminal with bracketed paste does. */
  paste(text: string): void {
    this.proc.write(`\x1b[200~${text}\x1b[201~`);
  }

  resize(cols: number, rows: number): void {
    this.proc.resize(cols, rows);
    this.term.resize(cols, rows);
  }

  /** The visible screen, one string per row, trailing spaces trimmed. */
  async screen(): Promise<string[]> {
    await this.pending;
    const buf = this.term.buffer.active;
    const rows: string[] = [];
    for (let i = 0; i < this.term.rows; i++) rows.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? "");
    return rows;
  }

  /** Scrollback and screen together, as text. */
  async transcript(): Promise<string> {
    await this.pending;
    const buf = this.term.buffer.active;
    const rows: string[] = [];
    for (let i = 0; i < buf.length; i++) rows.push(buf.getLine(i)?.translateToString(true) ?? "");
    return rows.join("\n");
  }

  /** Waits until the screen (or, with `inTranscript`, anything written) matches. */
  async waitFor(pattern: string | RegExp, opts: { timeoutMs?: number; inTranscript?: boolean } = {}): Promise<string> {
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    for (;;) {
      const text = opts.inTranscript ? await this.transcript() : (await this.screen()).join("\n");
      if (typeof pattern === "string" ? text.includes(pattern) : pattern.test(text)) return text;
      if (this.exitCode !== null || Date.now() > deadline) {
        throw new Error(`timed out waiting for ${String(pattern)}\n--- screen ---\n${(await this.screen()).join("\n")}\n--- exit: ${this.exitCode}`);
      }
      await sleep(30);
    }
  }

  /**
   * Waits until `check` holds (polled): what a test waits for instead of a fixed pause. Throws
   * naming `what`, with the screen, when it does not hold within `timeoutMs`.
   */
  async until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.pending;
      if (await check()) return;
      if (this.exitCode !== null || Date.now() > deadline) {
        throw new Error(`timed out waiting until ${what}\n--- screen ---\n${(await this.screen()).join("\n")}\n--- exit: ${this.exitCode}`);
      }
      await sleep(10);
    }
  }

  /** Resolves with the exit code; kills the program after `timeoutMs`. */
  async exit(timeoutMs = 10_000): Promise<number> {
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    await this.pending;
    return code;
  }

  kill(signal = "SIGKILL"): void {
    if (this.exitCode === null) this.proc.kill(signal);
  }
}

/**
 * `codex-ts --remote` driving the app-server at 127.0.0.1:`port` in the server's `folder`. The UI
 * runs from a fresh, empty folder and home of its own (or `local`, to share one between two UIs),
 * so whatever it shows came from the server.
 */
export function remoteUi(port: number, folder: string, options: { args?: string[]; cols?: number; rows?: number; local?: Pick<Workspace, "dir" | "home"> } = {}): PtySession {
  const local = options.local ?? makeWorkspace();
  const args = ["--remote", `ws://127.0.0.1:${port}`, "-C", folder, ...(options.args ?? [])];
  return new PtySession(args, { cwd: local.dir, home: local.home, cols: options.cols ?? 120, rows: options.rows ?? 40 });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Keys as a terminal sends them. */
export const KEY = {
  enter: "\r",
  escape: "\x1b",
  ctrlC: "\x03",
  ctrlD: "\x04",
  ctrlJ: "\n",
  up: "\x1b[A",
  down: "\x1b[B",
  backspace: "\x7f",
  tab: "\t",
} as const;
