/**
 * Long-running command sessions behind the `exec_command` and `write_stdin` tools. A command runs
 * until it exits or its yield time passes; if it is still running, it stays in a table under a
 * numeric session id and later calls write to its stdin and read what it printed since the last
 * read. Processes come from an ExecProcessSpawner: plain pipes by default, a pseudo-terminal when
 * the call asks for `tty`.
 */
import { randomInt } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
import { HeadTailText } from "./head-tail.js";
import { spawnPipeProcess, type ExecProcess, type ExecProcessSpawner, type OutputStream } from "./pipe-process.js";
import { spawnPtyProcess } from "./pty-process.js";
import { startWatchdog } from "./group-watchdog.js";
import { approxTokenCount, formattedTruncateText } from "./truncate.js";
import type { UnifiedExecResponseFields } from "./format.js";
import { sleep } from "../util/sleep.js";
import { errorMessage } from "../util/errors.js";

export const MIN_YIELD_TIME_MS = 250;
export const MAX_YIELD_TIME_MS = 30_000;
export const DEFAULT_EXEC_YIELD_TIME_MS = 10_000;
export const DEFAULT_WRITE_STDIN_YIELD_TIME_MS = 250;
/** An empty write_stdin is a poll: it waits at least this long... */
export const MIN_EMPTY_YIELD_TIME_MS = 5_000;
/** ...and at most this long (config `background_terminal_max_timeout` in the reference). */
export const DEFAULT_MAX_POLL_YIELD_TIME_MS = 300_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
/** Unread output kept per session between reads (head and tail survive). */
export const UNIFIED_EXEC_OUTPUT_MAX_CHARS = 1024 * 1024;
export const MAX_UNIFIED_EXEC_PROCESSES = 64;
/** From this many live sessions on, the model is told to clean up. */
export const WARNING_UNIFIED_EXEC_PROCESSES = 60;
/** Recently used sessions that pruning never picks. */
const PROTECTED_RECENT_SESSIONS = 8;
/** After the process exits, how long a read keeps waiting for the last output to arrive. */
const POST_EXIT_OUTPUT_WAIT_MS = 50;
/** Pause after writing to stdin so the program can react before we read. */
const AFTER_WRITE_PAUSE_MS = 100;

/** Set for every session so programs behave non-interactively and print plain text. */
export const UNIFIED_EXEC_ENV: Readonly<Record<string, string>> = {
  NO_COLOR: "1",
  TERM: "dumb",
  LANG: "C.UTF-8",
  LC_CTYPE: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  COLORTERM: "",
  PAGER: "cat",
  GIT_PAGER: "cat",
  GH_PAGER: "cat",
  CODEX_CI: "1",
};

export interface UnifiedExecStartRequest {
  /** The final command line, already wrapped (shell, sandbox) by the caller; argv[0] is the program. */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Run in a pseudo-terminal (the PTY spawner) instead of plain pipes. */
  tty?: boolean;
  yieldTimeMs?: number;
  maxOutputTokens?: number;
  /** Raw output for UI streaming, for the whole life of the process. */
  onOutput?: (stream: OutputStream, chunk: Buffer) => void;
  /** Ends the wait early (the process keeps running). */
  signal?: AbortSignal;
}

export interface WriteStdinRequest {
  sessionId: number;
  /** Text for stdin; empty means just poll for output. */
  chars?: string;
  yieldTimeMs?: number;
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

export interface UnifiedExecResult extends UnifiedExecResponseFields {
  /** Six lowercase hex characters identifying this chunk of output. */
  chunkId: string;
  wallTimeSeconds: number;
  /** Set once the process has exited (it is then gone from the table). */
  exitCode: number | null;
  /** Set while the process keeps running. */
  sessionId: number | null;
  /** Token estimate of the output before truncation. */
  originalTokenCount: number;
  /** Output since the previous read, already truncated to maxOutputTokens. */
  output: string;
  /** A warning to record for the model (too many open sessions), when there is one. */
  warning?: string;
}

export type UnifiedExecErrorKind = "unknown_process" | "create_failed" | "write_failed";

/** Failures the handler reports to the model as `exec_command failed: …` / `write_stdin failed: …`. */
export class UnifiedExecError extends Error {
  constructor(
    readonly kind: UnifiedExecErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "UnifiedExecError";
  }
}

export interface UnifiedExecManagerOptions {
  /** Starts non-tty sessions; plain pipes by default. */
  spawner?: ExecProcessSpawner;
  /** Starts `tty: true` sessions; node-pty by default. */
  ptySpawner?: ExecProcessSpawner;
  maxPollYieldTimeMs?: number;
}

interface Session {
  id: number;
  process: ExecProcess | null;
  pending: HeadTailText;
  waiters: Set<() => void>;
  lastUsed: number;
}

const clamp = (value: number, low: number, high: number): number => Math.min(Math.max(value, low), high);

export function generateChunkId(): string {
  return randomInt(0, 0x1000000).toString(16).padStart(6, "0");
}

export function processLimitWarning(open: number): string {
  return (
    `Warning: The maximum number of unified exec processes you can keep open is ${WARNING_UNIFIED_EXEC_PROCESSES} ` +
    `and you currently have ${open} processes open. Reuse older processes or close them to prevent automatic pruning of old processes`
  );
}

function wake(session: Session): void {
  const waiters = [...session.waiters];
  session.waiters.clear();
  for (const resolve of waiters) resolve();
}

/** Resolves on new output or a state change, after `ms`, or when `signal` fires. */
function waitForChange(session: Session, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      session.waiters.delete(done);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    session.waiters.add(done);
    signal?.addEventListener("abort", done, { once: true });
  });
}


export class UnifiedExecManager {
  private readonly sessions = new Map<number, Session>();
  /** Sessions whose first exec_command call has not returned yet. */
  private readonly starting = new Set<Session>();
  /** Starting sessions that terminateAll already killed; they must not enter the table. */
  private readonly terminated = new WeakSet<Session>();
  private readonly spawner: ExecProcessSpawner;
  private readonly ptySpawner: ExecProcessSpawner;
  private readonly maxPollYieldTimeMs: number;

  constructor(options: UnifiedExecManagerOptions = {}) {
    this.spawner = options.spawner ?? spawnPipeProcess;
    this.ptySpawner = options.ptySpawner ?? spawnPtyProcess;
    this.maxPollYieldTimeMs = Math.max(options.maxPollYieldTimeMs ?? DEFAULT_MAX_POLL_YIELD_TIME_MS, MIN_EMPTY_YIELD_TIME_MS);
    // A session's commands end with codex-ts: have the watchdog running before the first one,
    // since starting a process can take seconds on a loaded machine.
    startWatchdog();
  }

  /** Ids of the sessions that are still open. */
  get sessionIds(): number[] {
    return [...this.sessions.keys()];
  }

  async start(req: UnifiedExecStartRequest): Promise<UnifiedExecResult> {
    const spawner = req.tty === true ? this.ptySpawner : this.spawner;
    const session: Session = {
      id: this.allocateId(),
      process: null,
      pending: new HeadTailText(UNIFIED_EXEC_OUTPUT_MAX_CHARS / 2, UNIFIED_EXEC_OUTPUT_MAX_CHARS / 2),
      waiters: new Set(),
      lastUsed: performance.now(),
    };
    const decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
    this.starting.add(session);
    try {
      session.process = await spawner({
        argv: req.argv,
        cwd: req.cwd,
        env: { ...req.env, ...UNIFIED_EXEC_ENV },
        onOutput: (stream, chunk) => {
          req.onOutput?.(stream, chunk);
          session.pending.push(decoders[stream].write(chunk));
          wake(session);
        },
        onStateChange: (outputClosed) => {
          if (outputClosed) {
            session.pending.push(decoders.stdout.end() + decoders.stderr.end());
          }
          wake(session);
        },
      });
    } catch (err) {
      this.starting.delete(session);
      throw new UnifiedExecError("create_failed", `Failed to create unified exec process: ${errorMessage(err)}`);
    }

    const startedAt = performance.now();
    const yieldMs = clamp(req.yieldTimeMs ?? DEFAULT_EXEC_YIELD_TIME_MS, MIN_YIELD_TIME_MS, MAX_YIELD_TIME_MS);
    const text = await this.collect(session, startedAt + yieldMs, req.signal);
    const wallTimeSeconds = (performance.now() - startedAt) / 1000;
    this.starting.delete(session);

    const result = this.buildResult(session, text, wallTimeSeconds, req.maxOutputTokens);
    if (result.sessionId !== null) {
      if (this.terminated.has(session)) {
        // terminateAll ran while we were waiting; the process is being killed.
        this.terminated.delete(session);
      } else {
        const open = this.store(session);
        if (open >= WARNING_UNIFIED_EXEC_PROCESSES) result.warning = processLimitWarning(open);
      }
    }
    return result;
  }

  async writeStdin(req: WriteStdinRequest): Promise<UnifiedExecResult> {
    const session = this.sessions.get(req.sessionId);
    if (session === undefined || session.process === null) {
      throw new UnifiedExecError("unknown_process", `Unknown process id ${req.sessionId}`);
    }
    session.lastUsed = performance.now();
    const chars = req.chars ?? "";
    if (chars !== "") {
      try {
        await session.process.write(chars);
      } catch {
        throw new UnifiedExecError("write_failed", "failed to write to stdin");
      }
      await sleep(AFTER_WRITE_PAUSE_MS);
    }
    const requested = req.yieldTimeMs ?? DEFAULT_WRITE_STDIN_YIELD_TIME_MS;
    const yieldMs =
      chars === ""
        ? clamp(requested, MIN_EMPTY_YIELD_TIME_MS, this.maxPollYieldTimeMs)
        : clamp(requested, MIN_YIELD_TIME_MS, MAX_YIELD_TIME_MS);
    const startedAt = performance.now();
    const text = await this.collect(session, startedAt + yieldMs, req.signal);
    const wallTimeSeconds = (performance.now() - startedAt) / 1000;
    const result = this.buildResult(session, text, wallTimeSeconds, req.maxOutputTokens);
    if (result.sessionId === null) this.sessions.delete(session.id);
    return result;
  }

  /** Kills one session's process group and forgets it; false when the id is unknown. */
  terminate(sessionId: number): boolean {
    const session = this.sessions.get(sessionId);
    if (session === undefined) return false;
    this.sessions.delete(sessionId);
    session.process?.terminate();
    return true;
  }

  /** Kills every live process group (interrupt, shutdown) and empties the table. */
  terminateAll(): void {
    for (const session of this.sessions.values()) session.process?.terminate();
    this.sessions.clear();
    for (const session of this.starting) {
      session.process?.terminate();
      this.terminated.add(session);
    }
  }

  private allocateId(): number {
    for (;;) {
      // Random like the reference, so ids from an earlier run are not mistaken for live ones.
      const id = randomInt(1000, 100_000);
      if (!this.sessions.has(id) && ![...this.starting].some((s) => s.id === id)) return id;
    }
  }

  /** Gathers output until the deadline, or until the process has exited and its output ended. */
  private async collect(session: Session, deadline: number, signal?: AbortSignal): Promise<string> {
    const collected = new HeadTailText(UNIFIED_EXEC_OUTPUT_MAX_CHARS / 2, UNIFIED_EXEC_OUTPUT_MAX_CHARS / 2);
    let postExitDeadline: number | null = null;
    const proc = session.process;
    if (proc === null) return "";
    for (;;) {
      const fresh = session.pending.drain();
      if (fresh !== "") {
        collected.push(fresh);
        if (performance.now() >= deadline) break;
        continue;
      }
      if (proc.hasExited && proc.outputClosed) break;
      if (signal?.aborted) break;
      const now = performance.now();
      const remaining = deadline - now;
      if (remaining <= 0) break;
      if (proc.hasExited) {
        postExitDeadline ??= now + Math.min(remaining, POST_EXIT_OUTPUT_WAIT_MS);
        const left = postExitDeadline - now;
        if (left <= 0) break;
        await waitForChange(session, left, signal);
        continue;
      }
      await waitForChange(session, remaining, signal);
    }
    return collected.toString();
  }

  private buildResult(session: Session, text: string, wallTimeSeconds: number, maxOutputTokens?: number): UnifiedExecResult {
    const maxTokens = maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    const exited = session.process?.hasExited ?? true;
    return {
      chunkId: generateChunkId(),
      wallTimeSeconds,
      exitCode: exited ? (session.process?.exitCode ?? -1) : null,
      sessionId: exited ? null : session.id,
      originalTokenCount: approxTokenCount(text),
      output: formattedTruncateText(text, { kind: "tokens", limit: maxTokens }),
    };
  }

  /** Adds a running session, pruning an old one when the table is full; returns the new size. */
  private store(session: Session): number {
    if (this.sessions.size >= MAX_UNIFIED_EXEC_PROCESSES) this.pruneOne();
    this.sessions.set(session.id, session);
    return this.sessions.size;
  }

  /** Drops the least recently used session outside the protected recent few, exited ones first. */
  private pruneOne(): void {
    const byRecency = [...this.sessions.values()].sort((a, b) => b.lastUsed - a.lastUsed);
    const candidates = byRecency.slice(PROTECTED_RECENT_SESSIONS).reverse(); // oldest first
    const victim = candidates.find((s) => s.process?.hasExited) ?? candidates[0];
    if (victim === undefined) return;
    this.sessions.delete(victim.id);
    victim.process?.terminate();
  }
}
