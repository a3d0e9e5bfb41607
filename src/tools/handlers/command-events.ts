/**
 * What every command-running tool shares: the policy gate (until the sandbox exists, only
 * danger-full-access may run commands, and escalation requests need on-request approvals),
 * the environment a command gets, and the begin / output-delta / end events keyed by call id.
 */
import { createCommandEnv } from "../../exec/env.js";
import type { EventMsg } from "../../protocol/events.js";
import type { AskForApproval } from "../../protocol/policy.js";
import { shellJoin } from "../../cli/shell-quote.js";
import { ToolError, type ToolInvocation } from "../types.js";

export type SandboxPermissions = "use_default" | "require_escalated";

const POLICY_DEBUG_NAMES: Record<AskForApproval, string> = {
  untrusted: "UnlessTrusted",
  "on-failure": "OnFailure",
  "on-request": "OnRequest",
  never: "Never",
};

/**
 * Refuses a command the current policies do not let us run, with a message the model can act
 * on. `toolWording` differs between the shell tools and exec_command, as in the reference.
 */
export function checkCommandAllowed(
  invocation: ToolInvocation,
  permissions: SandboxPermissions | undefined,
  toolWording: "should not" | "cannot",
): void {
  const policy = invocation.turn.approvalPolicy;
  if (permissions === "require_escalated" && policy !== "on-request") {
    const name = POLICY_DEBUG_NAMES[policy];
    throw new ToolError(
      `approval policy is ${name}; reject command — you ${toolWording} ask for escalated permissions if the approval policy is ${name}`,
    );
  }
  const sandbox = invocation.turn.sandboxPolicy.type;
  if (sandbox !== "danger-full-access") {
    throw new ToolError(
      `command not run: the ${sandbox} sandbox cannot be enforced by this codex-ts build, so it only runs commands ` +
        "when the user chooses --sandbox danger-full-access. Tell the user what you wanted to run and why.",
    );
  }
}

export function commandEnv(invocation: ToolInvocation): Record<string, string> {
  return createCommandEnv(invocation.turn.shellEnvironmentPolicy, process.env);
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
