/**
 * What every command-running tool shares: the environment a command gets and the begin /
 * output-delta / end events keyed by call id. (Policy, approvals and the sandbox live in
 * ../command-orchestrator.ts.)
 */
import { createCommandEnv } from "../../exec/env.js";
import type { EventMsg } from "../../protocol/events.js";
import { shellJoin } from "../../util/shell-quote.js";
import type { ToolInvocation } from "../types.js";

export function commandEnv(invocation: ToolInvocation): Record<string, string> {
  return createCommandEnv(invocation.turn.shellEnvironmentPolicy, process.env);
}

/**
 * What to spawn for a command: with a shell snapshot, a login-shell command becomes a plain
 * shell that sources it (see exec/snapshot-wrapper.ts). The policy's `set` values, and `forced`
 * (variables the tool itself sets for every command), keep the command's value.
 */
export async function spawnArgvFor(invocation: ToolInvocation, argv: string[], cwd: string, forced: readonly string[] = []): Promise<string[] | undefined> {
  const snapshot = invocation.turn.services.shellSnapshot;
  if (!snapshot) return undefined;
  const keep = [...Object.keys(invocation.turn.shellEnvironmentPolicy.set ?? {}), ...forced];
  const spawnArgv = await snapshot.spawnArgv(argv, cwd, keep, invocation.signal);
  return spawnArgv === argv ? undefined : spawnArgv;
}

export function emitBegin(invocation: ToolInvocation, argv: string[], cwd: string): void {
  invocation.emit({
    type: "exec_command_begin",
    call_id: invocation.callId,
    command: argv,
    cwd,
    parsed_cmd: [{ type: "unknown", cmd: shellJoin(argv) }],
  });
}

export function outputDeltaEmitter(invocation: ToolInvocation): (stream: "stdout" | "stderr", chunk: Buffer) => void {
  return (stream, chunk) =>
    invocation.emit({ type: "exec_command_output_delta", call_id: invocation.callId, stream, chunk: chunk.toString("base64") });
}

export interface EndFields {
  argv: string[];
  cwd: string;
  exitCode: number;
  stdout: string;
  stderr: string;
  aggregatedOutput: string;
  durationMs: number;
  formattedOutput: string;
}

export function emitEnd(invocation: ToolInvocation, f: EndFields): void {
  const msg: EventMsg = {
    type: "exec_command_end",
    call_id: invocation.callId,
    command: f.argv,
    cwd: f.cwd,
    stdout: f.stdout,
    stderr: f.stderr,
    aggregated_output: f.aggregatedOutput,
    exit_code: f.exitCode,
    duration: { secs: Math.floor(f.durationMs / 1000), nanos: Math.round((f.durationMs % 1000) * 1e6) },
    formatted_output: f.formattedOutput,
  };
  invocation.emit(msg);
}

/** Closes a begun command the user then refused to rerun, so no begin is left dangling. */
export function emitRefusal(invocation: ToolInvocation, argv: string[], cwd: string, message: string): void {
  emitEnd(invocation, { argv, cwd, exitCode: 1, stdout: "", stderr: message, aggregatedOutput: message, durationMs: 0, formattedOutput: message });
}
