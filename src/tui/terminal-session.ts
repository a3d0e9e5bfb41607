/**
 * Taking the terminal over and giving it back. pi-tui's ProcessTerminal switches raw mode,
 * bracketed paste and the keyboard protocols (kitty, else xterm modifyOtherKeys) on and off;
 * this adds the cursor, the optional alternate screen, and a restore that runs exactly once
 * whichever way the process ends: a normal exit, an uncaught error, SIGTERM or SIGHUP.
 */
import { ProcessTerminal } from "./pi-tui.js";

/** Every mode we may have switched on, switched off again (safe to send when some were never on). */
export const RESET_MODES =
  "\x1b[?2026l" + // synchronized output
  "\x1b[?2004l" + // bracketed paste
  "\x1b[?1004l" + // focus reporting
  "\x1b[<u" + // kitty keyboard protocol (pop)
  "\x1b[>4;0m" + // xterm modifyOtherKeys
  "\x1b[0m" + // text attributes
  "\x1b[?25h"; // cursor visible

export interface TerminalSessionOptions {
  alternateScreen: boolean;
  onInput(data: string): void;
  onResize(): void;
}

export class TerminalSession {
  readonly terminal = new ProcessTerminal();
  private restored = false;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.restore();
    // The conventional status of a process ended by a signal.
    process.exit(128 + (signal === "SIGHUP" ? 1 : 15));
  };
  private readonly onCrash = (err: unknown): void => {
    this.restore();
    process.stderr.write(`codex-ts: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  };
  private readonly onExit = (): void => this.restore();

  constructor(private readonly options: TerminalSessionOptions) {}

  get columns(): number {
    return this.terminal.columns;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  write(data: string): void {
    process.stdout.write(data);
  }

  start(): void {
    process.on("SIGTERM", this.onSignal);
    process.on("SIGHUP", this.onSignal);
    process.on("uncaughtException", this.onCrash);
    process.on("unhandledRejection", this.onCrash);
    process.on("exit", this.onExit);
    if (this.options.alternateScreen) this.write("\x1b[?1049h\x1b[H\x1b[2J");
    this.write("\x1b[?25l");
    this.terminal.start(this.options.onInput, this.options.onResize);
  }

  /** Gives the terminal back as it was found; later calls do nothing. */
  restore(): void {
    if (this.restored) return;
    this.restored = true;
    try {
      this.terminal.stop();
    } catch {
      // stdin may already be gone (SIGHUP); the escape sequences below still go out.
    }
    this.write(RESET_MODES + (this.options.alternateScreen ? "\x1b[?1049l" : ""));
    process.off("SIGTERM", this.onSignal);
    process.off("SIGHUP", this.onSignal);
    process.off("uncaughtException", this.onCrash);
    process.off("unhandledRejection", this.onCrash);
    process.off("exit", this.onExit);
  }

  /** Hands the terminal to a child program (the external editor): as a shell would leave it. */
  suspend(): void {
    this.terminal.stop();
    this.write(RESET_MODES);
  }

  /** Takes the terminal back after suspend(). */
  resume(): void {
    this.write("\x1b[?25l");
    this.terminal.start(this.options.onInput, this.options.onResize);
  }
}
