/**
 * The classic shell tools: `shell` (argv array, JSON output) and `shell_command` (a script run
 * by the user's shell, plain-text output). Both run to completion with a timeout.
 */
import { basename } from "node:path";
import { runCommand } from "../../exec/run-command.js";
import { formatFreeformOutput, formatShellJsonOutput } from "../../exec/format.js";
import { resolveWorkdir } from "../../core/turn-context.js";
import { ToolError, parseArguments, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";
import { interceptApplyPatch, type PatchOutputFormat } from "./apply-patch.js";
import { checkCommandAllowed, commandEnv, emitBegin, emitEnd, outputDeltaEmitter, type SandboxPermissions } from "./command-events.js";

/** Commands without a timeout_ms stop after this long, so a hung command cannot hang the turn. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

interface ShellArgs {
  command?: unknown;
  workdir?: string | null;
  timeout_ms?: number | null;
  sandbox_permissions?: SandboxPermissions;
  justification?: string;
}

interface ShellCommandArgs extends Omit<ShellArgs, "command"> {
  command?: unknown;
  login?: boolean;
}

export const shellHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation) {
    const args = parseArguments<ShellArgs>(invocation);
    if (!Array.isArray(args.command) || args.command.length === 0 || args.command.some((a) => typeof a !== "string")) {
      throw new ToolError("failed to parse function arguments: `command` must be a non-empty array of strings");
    }
    return runToCompletion(invocation, args.command as string[], args, formatShellJsonOutput);
  },
};

export const shellCommandHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation) {
    const args = parseArguments<ShellCommandArgs>(invocation);
    if (typeof args.command !== "string" || args.command.trim() === "") {
      throw new ToolError("failed to parse function arguments: `command` must be a non-empty string");
    }
    const shell = invocation.turn.services.userShell;
    const argv = [shell, args.login === false || basename(shell) === "sh" ? "-c" : "-lc", args.command];
    return runToCompletion(invocation, argv, args, formatFreeformOutput);
  },
};

async function runToCompletion(
  invocation: ToolInvocation,
  argv: string[],
  args: Omit<ShellArgs, "command">,
  format: PatchOutputFormat,
): Promise<ToolOutput> {
  const patched = await interceptApplyPatch(invocation, argv, args.workdir, format);
  if (patched) return patched;
  checkCommandAllowed(invocation, args.sandbox_permissions, "should not");
  const cwd = resolveWorkdir(invocation.turn, args.workdir);
  emitBegin(invocation, argv, cwd);
  const result = await runCommand({
    argv,
    cwd,
    env: commandEnv(invocation),
    timeoutMs: args.timeout_ms ?? DEFAULT_COMMAND_TIMEOUT_MS,
    signal: invocation.signal,
    onOutput: outputDeltaEmitter(invocation),
  });
  const text = format(result, { kind: "tokens", limit: invocation.turn.model.truncationTokens });
  emitEnd(invocation, { argv, cwd, ...result, formattedOutput: text });
  return { text, success: result.exitCode === 0 };
}
