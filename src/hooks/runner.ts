/**
 * Running one hook command: `$SHELL -lc <command>` (as the reference does, so a hook finds what
 * the user's login shell puts on PATH), outside the sandbox, in the turn's working directory,
 * with the session's command environment (shell_environment_policy: no credentials added), the
 * event's JSON on stdin, a timeout that ends the whole process group, and stdout / stderr capped.
 * It always resolves: a hook that cannot start, crashes or hangs is reported, never thrown.
 */
import { runCommand } from "../exec/run-command.js";

/** At most this much of a hook's stdout (and of its stderr) is read; more is an error. */
export const HOOK_OUTPUT_CAP_BYTES = 256 * 1024;

export interface HookProcess {
  command: string;
  timeoutSec: number;
  cwd: string;
  env: Record<string, string>;
  /** The shell that runs the command (`-lc`). */
  shell: string;
  /** The event's payload. */
  input: string;
}

export interface HookProcessResult {
  /** null when it did not finish on its own (see `error`). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why there is no usable result: a timeout, output past the cap, a failure to start. */
  error: string | null;
  /** Unix seconds. */
  startedAt: number;
  completedAt: number;
  durationMs: number;
}

export async function runHookProcess(hook: HookProcess): Promise<HookProcessResult> {
  const startedAt = Math.floor(Date.now() / 1000);
  const sizes = { stdout: 0, stderr: 0 };
  const result = await runCommand({
    argv: [hook.shell, "-lc", hook.command],
    cwd: hook.cwd,
    env: hook.env,
    stdin: hook.input,
    timeoutMs: hook.timeoutSec * 1000,
    maxCaptureChars: HOOK_OUTPUT_CAP_BYTES,
    onOutput: (stream, chunk) => (sizes[stream] += chunk.length),
  });
  const done = { startedAt, completedAt: Math.floor(Date.now() / 1000), durationMs: Math.round(result.durationMs) };
  const fail = (error: string): HookProcessResult => ({ exitCode: null, stdout: "", stderr: "", error, ...done });
  if (result.timedOut) return fail(`hook timed out after ${hook.timeoutSec}s`);
  if (sizes.stdout > HOOK_OUTPUT_CAP_BYTES) return fail(`hook wrote more than ${HOOK_OUTPUT_CAP_BYTES / 1024} KiB to stdout`);
  if (result.exitCode < 0) return fail(`hook could not be run: ${result.stderr.trim()}`);
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, error: null, ...done };
}
