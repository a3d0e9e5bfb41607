/**
 * The process seam for unified exec. A long-running session talks to an `ExecProcess`; this file
 * provides the plain-pipes implementation (stdin, stdout and stderr as pipes, own process group).
 * A PTY-backed implementation can later satisfy the same interface and be handed to
 * UnifiedExecManager as its spawner, with everything above this layer unchanged.
 */
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { exitCodeFromStatus, killProcessGroup, PIPE_DRAIN_GRACE_MS } from "./run-command.js";
import { leaderExited, watchProcessGroup } from "./group-watchdog.js";
import { beforeCommandSpawn } from "./before-spawn.js";
import { errorCode } from "../util/errors.js";

export type OutputStream = "stdout" | "stderr";

export interface ExecProcessSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Every raw output chunk, from the first byte on. A PTY reports everything as stdout. */
  onOutput: (stream: OutputStream, chunk: Buffer) => void;
  /** Called when the process exits and again when its output is closed for good. */
  onStateChange: (outputClosed: boolean) => void;
  /** A PTY's size in character cells (PTY_COLS x PTY_ROWS when absent); pipes have none. */
  size?: { cols: number; rows: number };
}

export interface ExecProcess {
  readonly pid: number | undefined;
  /** Exit code (128 + N for signal N) once the process has exited, else null. */
  readonly exitCode: number | null;
  readonly hasExited: boolean;
  /** True once no more output can arrive: pipes closed, or the drain grace after exit passed. */
  readonly outputClosed: boolean;
  /** Writes to the process's stdin; rejects when stdin is closed. */
  write(data: string | Buffer): Promise<void>;
  /** Ends the process's input (end of file; a PTY gets its EOF character). */
  closeStdin(): void;
  /** A PTY's new size in character cells; pipes have no size and ignore it. */
  resize(cols: number, rows: number): void;
  /** Kills the whole process group. */
  terminate(): void;
}

/** Starts a process; rejects with a readable message when it cannot be started. */
export type ExecProcessSpawner = (spec: ExecProcessSpec) => Promise<ExecProcess>;

class PipeProcess implements ExecProcess {
  exitCode: number | null = null;
  hasExited = false;
  outputClosed = false;
  private openStreams = 2;
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly child: ReturnType<typeof spawnChild>,
    private readonly spec: ExecProcessSpec,
  ) {
    for (const stream of ["stdout", "stderr"] as const) {
      child[stream].on("data", (chunk: Buffer) => {
        if (!this.outputClosed) spec.onOutput(stream, chunk);
      });
      child[stream].on("close", () => {
        this.openStreams--;
        if (this.openStreams === 0) this.closeOutput();
      });
    }
    // Writes to a process that stopped reading must not crash us; write() reports them.
    child.stdin.on("error", () => undefined);
    child.on("exit", (code, signal) => {
      leaderExited(child.pid);
      this.exitCode = exitCodeFromStatus(code, signal);
      this.hasExited = true;
      spec.onStateChange(this.outputClosed);
      // A background grandchild may keep the pipes open forever; stop listening after a grace.
      if (!this.outputClosed) this.graceTimer = setTimeout(() => this.closeOutput(), PIPE_DRAIN_GRACE_MS);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private closeOutput(): void {
    if (this.outputClosed) return;
    clearTimeout(this.graceTimer);
    this.outputClosed = true;
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    this.spec.onStateChange(this.outputClosed);
  }

  write(data: string | Buffer): Promise<void> {
    const stdin = this.child.stdin;
    if (this.hasExited || stdin.destroyed || !stdin.writable) return Promise.reject(new Error("stdin is closed"));
    return new Promise((resolve, reject) => {
      stdin.write(data, (err) => (err ? reject(err) : resolve()));
    });
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  resize(): void {
    // Pipes have no terminal size.
  }

  terminate(): void {
    if (!this.hasExited) killProcessGroup(this.child.pid);
    this.child.stdin.destroy();
  }
}

function spawnChild(spec: ExecProcessSpec) {
  const [program = "", ...args] = spec.argv;
  return spawn(program, args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
}

/** The default spawner: plain pipes, one process group per session. */
export const spawnPipeProcess: ExecProcessSpawner = async (spec) => {
  if (spec.argv.length === 0 || spec.argv[0] === "") throw new Error("missing command line");
  try {
    if (!(await stat(spec.cwd)).isDirectory()) throw new Error(`working directory is not a directory: ${spec.cwd}`);
  } catch (err) {
    const code = errorCode(err);
    if (code === undefined) throw err;
    throw new Error(`working directory is not accessible: ${spec.cwd} (${code})`);
  }
  beforeCommandSpawn();
  const child = spawnChild(spec);
  watchProcessGroup(child.pid);
  const proc = new PipeProcess(child, spec);
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", (err: NodeJS.ErrnoException) => {
      if (child.pid === undefined) reject(new Error(`${spec.argv[0]}: ${err.code ?? err.message}`));
    });
  });
  return proc;
};
