/**
 * The classic shell tools: `shell` (argv array, JSON output) and `shell_command` (a script run
 * by the user's shell, plain-text output). Both run to completion with a timeout.
 */
import { runCommand } from "../../exec/run-command.js";
import { formatFreeformOutput, formatShellJsonOutput } from "../../exec/format.js";
import { resolveWorkdir } from "../turn-context.js";
import { ToolError, parseArguments, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";
import { interceptApplyPatch, type PatchOutputFormat } from "./apply-patch.js";
import { commandEnv, emitBegin, emitEnd, emitRefusal, outputDeltaEmitter, spawnArgvFor } from "./command-events.js";
import { orchestrateCommand, type CommandLaunch, type CommandRequest, type SandboxPermissions } from "../command-orchestrator.js";
import { shellArgv } from "../shell-argv.js";

/** Commands without a timeout_ms stop after this long, so a hung command cannot hang the turn. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

interface ShellArgs {
  command?: unknown;
  workdir?: string | null;
  timeout_ms?: number | null;
  sandbox_permissions?: SandboxPermissions;
  justification?: string;
  prefix_rule?: string[];
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
    const argv = shellArgv(shell, args.command, args.login !== false);
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
  const cwd = resolveWorkdir(invocation.turn, args.workdir);
  const spawnArgv = await spawnArgvFor(invocation, argv, cwd);
  const request: CommandRequest = {
    argv,
    ...(spawnArgv ? { spawnArgv } : {}),
    cwd,
    env: commandEnv(invocation),
    permissions: args.sandbox_permissions ?? "use_default",
    ...(args.justification ? { justification: args.justification } : {}),
    ...(Array.isArray(args.prefix_rule) ? { prefixRule: args.prefix_rule } : {}),
  };
  // Begin is announced when the command first starts: after any approval, never for a refusal.
  let begun = false;
  const run = (launch: CommandLaunch) => {
    if (!begun) emitBegin(invocation, argv, cwd);
    begun = true;
    return runCommand({
      argv: launch.argv,
      cwd,
      env: launch.env,
      timeoutMs: args.timeout_ms ?? DEFAULT_COMMAND_TIMEOUT_MS,
      signal: invocation.signal,
      onOutput: outputDeltaEmitter(invocation),
    });
  };
  const outcome = await orchestrateCommand(invocation, request, "should not", run, (r) => ({
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    output: r.aggregatedOutput,
  }));
  if (outcome.kind === "refused") {
    if (begun) emitRefusal(invocation, argv, cwd, outcome.message);
    return { text: outcome.message, success: false };
  }
  const result = outcome.result;
  const text = format(result, { kind: "tokens", limit: invocation.turn.model.truncationTokens });
  emitEnd(invocation, { argv, cwd, ...result, formattedOutput: text });
  return { text, success: result.exitCode === 0 };
}
