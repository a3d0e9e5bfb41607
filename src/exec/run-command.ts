/**
 * Runs one command to completion for the `shell` / `shell_command` tools and for lifecycle hooks:
 * spawns it in its own process group with stdin on /dev/null (or fed the given text and closed),
 * captures stdout, stderr and their interleaving, and
 * always resolves (never throws) so the caller can turn every outcome into model-readable text.
 * Timeouts and aborts kill the whole group; a grandchild that inherits the pipes cannot keep the
 * call waiting once the direct child has exited.
 */
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { OutputCapture } from "./output-capture.js";
import { leaderExited, watchProcessGroup } from "./group-watchdog.js";
import { beforeCommandSpawn } from "./before-spawn.js";
import { errorCode } from "../util/errors.js";

export interface RunCommandRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Sees every raw chunk, even when the in-memory copy is bounded. */
  onOutput?: (stream: "stdout" | "stderr", chunk: Buffer) => void;
  /** In-memory cap per captured text (code units); defaults to MAX_CAPTURE_CHARS. */
  maxCaptureChars?: number;
  /** Written to the command's stdin, which is then closed (a hook reads its event there); absent: /dev/null. */
  stdin?: string;
}

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved in arrival order. */
  aggregatedOutput: string;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
}

/** `timeout(1)` reports an expired command with 124; the reference's exec does the same. */
export const EXIT_CODE_TIMEOUT = 124;
/** Shell convention: the command was found but could not be run (bad cwd, not executable). */
export const EXIT_CODE_CANNOT_EXECUTE = 126;
/** Shell convention: the program does not exist. */
export const EXIT_CODE_NOT_FOUND = 127;
/** A process killed by signal N reports 128 + N, as shells do. */
export const EXIT_CODE_SIGNAL_BASE = 128;

/** How long to keep reading after the direct child exits; grandchildren may hold the pipes. */
export const PIPE_DRAIN_GRACE_MS = 150;

/** Sends SIGKILL to a whole process group; tolerates groups that are already gone. */
export function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group may already be empty; fall back to the leader alone just in case.
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Nothing left to kill.
    }
  }
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15 };

/** Exit status as a shell would report it: the code, or 128 + signal number. */
export function exitCodeFromStatus(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  if (signal !== null) return EXIT_CODE_SIGNAL_BASE + (SIGNAL_NUMBERS[signal] ?? 0);
  return -1;
}

function spawnFailure(exitCode: number, message: string, startedAt: number): CommandResult {
  const stderr = `${message}\n`;
  return {
    exitCode,
    stdout: "",
    stderr,
    aggregatedOutput: stderr,
    durationMs: performance.now() - startedAt,
    timedOut: false,
    aborted: false,
  };
}

function describeSpawnError(program: string, err: NodeJS.ErrnoException): { exitCode: number; message: string } {
  if (err.code === "ENOENT") {
    return { exitCode: EXIT_CODE_NOT_FOUND, message: `codex-ts: ${program}: command not found (ENOENT)` };
  }
  if (err.code === "EACCES" || err.code === "EPERM") {
    return { exitCode: EXIT_CODE_CANNOT_EXECUTE, message: `codex-ts: ${program}: permission denied (${err.code})` };
  }
  return { exitCode: EXIT_CODE_CANNOT_EXECUTE, message: `codex-ts: ${program}: cannot execute: ${err.message}` };
}

async function checkCwd(cwd: string): Promise<string | null> {
  try {
    const info = await stat(cwd);
    return info.isDirectory() ? null : `codex-ts: working directory is not a directory: ${cwd}`;
  } catch (err) {
    const code = errorCode(err) ?? "error";
    return `codex-ts: working directory is not accessible: ${cwd} (${code})`;
  }
}

export async function runCommand(req: RunCommandRequest): Promise<CommandResult> {
  const startedAt = performance.now();
  const program = req.argv[0];
  if (program === undefined || program === "") {
    return spawnFailure(EXIT_CODE_NOT_FOUND, "codex-ts: empty command line", startedAt);
  }
  const cwdProblem = await checkCwd(req.cwd);
  if (cwdProblem !== null) return spawnFailure(EXIT_CODE_CANNOT_EXECUTE, cwdProblem, startedAt);

  if (req.signal?.aborted) {
    return { ...spawnFailure(EXIT_CODE_SIGNAL_BASE + 9, "codex-ts: command aborted before it started", startedAt), aborted: true };
  }

  const capture = new OutputCapture(req.maxCaptureChars);

  return new Promise<CommandResult>((resolve) => {
    let settled = false;
    let timedOut = false;
    let aborted = false;
    let exitStatus: number | null = null;
    let openStreams = 2;
    let timer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;

    beforeCommandSpawn();
    const options = {
      cwd: req.cwd,
      env: req.env,
      detached: true, // own process group, so one kill reaches every descendant
    };
    // stdin is /dev/null unless there is something to feed: tools like rg wait on an open stdin.
    const child =
      req.stdin === undefined
        ? spawn(program, req.argv.slice(1), { ...options, stdio: ["ignore", "pipe", "pipe"] })
        : spawn(program, req.argv.slice(1), { ...options, stdio: ["pipe", "pipe", "pipe"] });
    watchProcessGroup(child.pid);
    if (req.stdin !== undefined && child.stdin) {
      // A command that exits without reading its input must not crash us (EPIPE).
      child.stdin.on("error", () => undefined);
      child.stdin.end(req.stdin);
    }

    const onAbort = (): void => {
      if (exitStatus !== null || settled) return;
      aborted = true;
      killProcessGroup(child.pid);
    };

    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      req.signal?.removeEventListener("abort", onAbort);
      capture.end();
      for (const stream of ["stdout", "stderr"] as const) child[stream].destroy();
      resolve({
        exitCode: timedOut ? EXIT_CODE_TIMEOUT : (exitStatus ?? -1),
        ...capture.result(),
        durationMs: performance.now() - startedAt,
        timedOut,
        aborted,
      });
    };

    for (const stream of ["stdout", "stderr"] as const) {
      child[stream].on("data", (chunk: Buffer) => {
        if (settled) return;
        req.onOutput?.(stream, chunk);
        capture.write(stream, chunk);
      });
      child[stream].on("close", () => {
        openStreams--;
        if (openStreams === 0 && exitStatus !== null) finish();
      });
    }

    child.on("error", (err: NodeJS.ErrnoException) => {
      if (settled) return;
      if (child.pid === undefined) {
        // The process never started: report it like a shell would.
        settled = true;
        clearTimeout(timer);
        req.signal?.removeEventListener("abort", onAbort);
        const { exitCode, message } = describeSpawnError(program, err);
        resolve(spawnFailure(exitCode, message, startedAt));
      }
    });

    child.on("exit", (code, signal) => {
      exitStatus = exitCodeFromStatus(code, signal);
      clearTimeout(timer);
      leaderExited(child.pid);
      // Kill leftovers only when we were asked to stop; a normal exit may leave daemons the
      // user wanted, which end with codex-ts (group-watchdog.ts). Either way, stop waiting for
      // the pipes after a short grace.
      if (timedOut || aborted) killProcessGroup(child.pid);
      if (openStreams === 0) finish();
      else graceTimer = setTimeout(finish, PIPE_DRAIN_GRACE_MS);
    });

    if (req.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        if (exitStatus !== null) return;
        timedOut = true;
        killProcessGroup(child.pid);
      }, Math.max(0, req.timeoutMs));
    }
    req.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
