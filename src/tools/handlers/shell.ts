/**
 * The classic shell tools: `shell` (argv array, JSON output) and `shell_command` (a script run
 * by the user's shell, plain-text output). Both run to completion with a timeout.
 */
import { runCommand } from "../../exec/run-command.js";
import { formatFreeformOutput, formatShellJsonOutput } from "../../exec/format.js";
import { resolveWorkdir } from "../turn-context.js";
import { ToolError, parseArguments, type HookIdentity, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";
import { shellJoin } from "../../util/shell-quote.js";
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
  // Hooks see `bash -lc <script>` as the script, any other argv as one command line.
  hookIdentity: (invocation) => bashIdentity(argvCommand(argumentsOf(invocation).command)),
  withHookInput: (invocation, input) =>
    rewriteCommand(invocation, input, (args, command) => {
      const argv = Array.isArray(args.command) ? (args.command as unknown[]) : [];
      const wrapped = argv.length === 3 && SCRIPT_FLAGS.includes(String(argv[1])) ? [String(argv[0]), String(argv[1]), command] : ["bash", "-lc", command];
      return { ...args, command: wrapped };
    }),
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
  hookIdentity: (invocation) => bashIdentity(stringOr(argumentsOf(invocation).command)),
  withHookInput: (invocation, input) => rewriteCommand(invocation, input, (args, command) => ({ ...args, command })),
};

const SCRIPT_FLAGS = ["-lc", "-c"];

/** A shell tool's call as hooks see it: `Bash` with `{command}`, as the reference names every shell call. */
export function bashIdentity(command: string): HookIdentity {
  return { toolName: "Bash", toolInput: { command } };
}

/**
 * A shell tool's arguments with the command a hook's `updatedInput` gives (`{command: "…"}`), or
 * why that input cannot be used.
 */
export function rewriteCommand(
  invocation: ToolInvocation,
  input: unknown,
  apply: (args: Record<string, unknown>, command: string) => Record<string, unknown>,
): ToolInvocation | string {
  const command = typeof input === "object" && input !== null ? (input as { command?: unknown }).command : undefined;
  if (typeof command !== "string" || command.trim() === "") return "a shell command's updatedInput must be {\"command\": \"…\"}";
  return { ...invocation, payload: { kind: "function", arguments: JSON.stringify(apply(argumentsOf(invocation), command)) } };
}

/** A function call's arguments as an object ({} when they are not one); the handler reports bad ones. */
export function argumentsOf(invocation: ToolInvocation): Record<string, unknown> {
  if (invocation.payload.kind !== "function") return {};
  try {
    const parsed: unknown = JSON.parse(invocation.payload.arguments || "{}");
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function argvCommand(command: unknown): string {
  if (!Array.isArray(command)) return stringOr(command);
  const argv = command.map(String);
  return argv.length === 3 && SCRIPT_FLAGS.includes(argv[1] ?? "") ? (argv[2] ?? "") : shellJoin(argv);
}

function stringOr(value: unknown): string {
  return typeof value === "string" ? value : "";
}

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
    return { text: outcome.message, success: false, ran: false };
  }
  const result = outcome.result;
  const text = format(result, { kind: "tokens", limit: invocation.turn.model.truncationTokens });
  emitEnd(invocation, { argv, cwd, ...result, formattedOutput: text });
  return { text, success: result.exitCode === 0, ran: true, hookResponse: result.aggregatedOutput };
}
