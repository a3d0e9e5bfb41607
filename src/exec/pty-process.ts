/**
 * The pseudo-terminal implementation of the unified exec process seam (`exec_command` with
 * `tty: true`). The command runs with a PTY slave as stdin, stdout and stderr, so programs that
 * check isatty, prompt with `read -p` or run a REPL behave interactively across write_stdin calls.
 * Everything the terminal prints arrives as `stdout`. The child is a session leader (its pid is
 * its process group id), so terminating kills the whole group, like the pipe version.
 *
 * node-pty is a native module; it is loaded on the first PTY spawn only, and a load failure
 * becomes a rejected spawn with a readable message instead of a crash.
 */
import { constants, readSync } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import type { IPty, IPtyForkOptions } from "@lydell/node-pty";
import type { ExecProcess, ExecProcessSpawner, ExecProcessSpec } from "./pipe-process.js";
import { EXIT_CODE_SIGNAL_BASE, killProcessGroup, PIPE_DRAIN_GRACE_MS } from "./run-command.js";
import { errorCode, errorMessage } from "../util/errors.js";
import { leaderExited, watchProcessGroup } from "./group-watchdog.js";
import { beforeCommandSpawn } from "./before-spawn.js";

/** Terminal size for every session; the reference's default as well. */
export const PTY_COLS = 80;
export const PTY_ROWS = 24;

/** The part of node-pty this module uses. */
export interface PtyModule {
  spawn(file: string, args: string[], options: IPtyForkOptions): IPty;
}

export type PtyModuleLoader = () => Promise<PtyModule>;

/** Used when the child's environment has no PATH (what execvp falls back to, roughly). */
const FALLBACK_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * The runtime object is an event emitter over the master side's socket, and keeps the master fd;
 * its typings only expose onData/onExit.
 */
interface PtyInternals {
  on?: (event: "error" | "end", listener: (err?: Error) => void) => void;
  _fd?: number;
}

/**
 * Reads what is left on the terminal's master side once the socket reported end of output.
 * libuv ends a stream when the other side hung up right after a short read, but a pseudo-terminal
 * hands the last bytes the child wrote to the master asynchronously, so they can still be in
 * flight at that moment; a direct read waits for them (the kernel flushes before reporting EIO).
 * The fd is non-blocking and the slave side is gone, so this cannot block.
 */
function readLeftover(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, buffer);
    } catch {
      break; // EIO once drained (or EAGAIN, EBADF): nothing more to take.
    }
    if (read <= 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
  return Buffer.concat(chunks);
}

class PtyProcess implements ExecProcess {
  exitCode: number | null = null;
  hasExited = false;
  outputClosed = false;
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly term: IPty,
    private readonly spec: ExecProcessSpec,
  ) {
    // node-pty rethrows unexpected read errors unless someone else listens; report them as the
    // end of output instead (the exit event still follows).
    const internals = term as unknown as PtyInternals;
    internals.on?.("error", () => undefined);
    term.onData((data) => {
      if (!this.outputClosed) spec.onOutput("stdout", Buffer.from(data, "utf8"));
    });
    internals.on?.("end", () => {
      if (internals._fd === undefined || this.outputClosed) return;
      const leftover = readLeftover(internals._fd);
      if (leftover.length > 0) spec.onOutput("stdout", leftover);
    });
    term.onExit(({ exitCode, signal }) => {
      leaderExited(term.pid);
      this.exitCode = signal !== undefined && signal > 0 ? EXIT_CODE_SIGNAL_BASE + signal : exitCode;
      this.hasExited = true;
      spec.onStateChange(this.outputClosed);
      // node-pty already waits briefly for the terminal to drain before reporting the exit;
      // keep listening a little longer for stragglers, then declare the output closed.
      this.graceTimer = setTimeout(() => this.closeOutput(), PIPE_DRAIN_GRACE_MS);
    });
  }

  get pid(): number | undefined {
    return this.term.pid;
  }

  private closeOutput(): void {
    if (this.outputClosed) return;
    clearTimeout(this.graceTimer);
    this.outputClosed = true;
    this.spec.onStateChange(this.outputClosed);
  }

  write(data: string | Buffer): Promise<void> {
    if (this.hasExited) return Promise.reject(new Error("stdin is closed"));
    try {
      this.term.write(typeof data === "string" ? data : data.toString("utf8"));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return Promise.resolve();
  }

  closeStdin(): void {
    // A terminal has no end of input of its own: its EOF character (Ctrl-D) ends a read.
    if (!this.hasExited) this.term.write("\x04");
  }

  resize(cols: number, rows: number): void {
    if (!this.hasExited) this.term.resize(cols, rows);
  }

  terminate(): void {
    // After the exit the pid may belong to someone else; the kernel hung up the session anyway.
    if (this.hasExited) return;
    killProcessGroup(this.term.pid);
    try {
      this.term.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

async function checkCwd(cwd: string): Promise<void> {
  try {
    if (!(await stat(cwd)).isDirectory()) throw new Error(`working directory is not a directory: ${cwd}`);
  } catch (err) {
    const code = errorCode(err);
    if (code === undefined) throw err;
    throw new Error(`working directory is not accessible: ${cwd} (${code})`);
  }
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Rejects a program that execvp would not find. node-pty only reports that from inside the child
 * (a message on the terminal and exit code 1), which reads like the command's own failure.
 */
async function checkProgram(program: string, cwd: string, env: Record<string, string>): Promise<void> {
  if (program.includes("/")) {
    if (await isExecutableFile(path.resolve(cwd, program))) return;
  } else {
    for (const dir of (env.PATH ?? FALLBACK_PATH).split(":")) {
      if (await isExecutableFile(path.resolve(cwd, dir, program))) return;
    }
  }
  throw new Error(`${program}: ENOENT`);
}

async function importNodePty(): Promise<PtyModule> {
  const mod = await import("@lydell/node-pty");
  return mod;
}

/** Builds a PTY spawner around a node-pty loader; the loader runs once, on the first spawn. */
export function createPtySpawner(load: PtyModuleLoader = importNodePty): ExecProcessSpawner {
  let loading: Promise<PtyModule> | undefined;
  const loadOnce = async (): Promise<PtyModule> => {
    loading ??= load();
    try {
      return await loading;
    } catch (err) {
      loading = undefined;
      const reason = errorMessage(err);
      throw new Error(`pseudo-terminal support is unavailable (could not load node-pty: ${reason})`);
    }
  };

  return async (spec) => {
    const [program = "", ...args] = spec.argv;
    if (program === "") throw new Error("missing command line");
    const pty = await loadOnce();
    await checkCwd(spec.cwd);
    await checkProgram(program, spec.cwd, spec.env);
    beforeCommandSpawn();
    let term: IPty;
    try {
      term = pty.spawn(program, args, { cols: spec.size?.cols ?? PTY_COLS, rows: spec.size?.rows ?? PTY_ROWS, cwd: spec.cwd, env: spec.env });
    } catch (err) {
      throw new Error(`${program}: ${errorMessage(err)}`);
    }
    watchProcessGroup(term.pid);
    return new PtyProcess(term, spec);
  };
}

/** Runs the command in a pseudo-terminal (PTY_COLS x PTY_ROWS unless the spec sizes it), in its own session. */
export const spawnPtyProcess: ExecProcessSpawner = createPtySpawner();
