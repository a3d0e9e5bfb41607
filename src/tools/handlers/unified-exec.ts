/**
 * exec_command / write_stdin: commands that may outlive one tool call. exec_command starts a
 * process and waits up to yield_time_ms; if it is still running the model gets a session id
 * and continues it with write_stdin (sending input, or polling with empty input). The
 * exec_command_end event is emitted by whichever call sees the process exit.
 */
import { formatFreeformOutput, formatUnifiedExecResponse } from "../../exec/format.js";
import { UNIFIED_EXEC_ENV, UnifiedExecError, type UnifiedExecManager, type UnifiedExecResult } from "../../exec/unified-exec.js";
import { resolveWorkdir } from "../turn-context.js";
import { ToolError, parseArguments, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";
import { OutputCapture } from "../../exec/output-capture.js";
import { interceptApplyPatch } from "./apply-patch.js";
import { commandEnv, emitBegin, emitEnd, emitRefusal, outputDeltaEmitter, spawnArgvFor } from "./command-events.js";
import { argumentsOf, bashIdentity, rewriteCommand } from "./shell.js";
import { orchestrateCommand, type CommandLaunch, type CommandRequest, type SandboxPermissions } from "../command-orchestrator.js";
import { shellArgv } from "../shell-argv.js";

interface ExecCommandArgs {
  cmd?: unknown;
  workdir?: string | null;
  shell?: string;
  login?: boolean;
  tty?: boolean;
  yield_time_ms?: number;
  max_output_tokens?: number;
  sandbox_permissions?: SandboxPermissions;
  justification?: string;
  prefix_rule?: string[];
}

interface WriteStdinArgs {
  session_id?: unknown;
  chars?: string;
  yield_time_ms?: number;
  max_output_tokens?: number;
}

/** A command started by exec_command, remembered until its end event is sent. */
interface RunningCall {
  argv: string[];
  cwd: string;
  startedAt: number;
  output: OutputCapture;
}

const running = new WeakMap<UnifiedExecManager, Map<number, RunningCall>>();

function callsOf(manager: UnifiedExecManager): Map<number, RunningCall> {
  let calls = running.get(manager);
  if (!calls) running.set(manager, (calls = new Map()));
  return calls;
}

export const execCommandHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation) {
    const args = parseArguments<ExecCommandArgs>(invocation);
    if (typeof args.cmd !== "string" || args.cmd.trim() === "") {
      throw new ToolError("failed to parse function arguments: `cmd` must be a non-empty string");
    }
    const manager = invocation.turn.services.unifiedExec;
    const shell = args.shell ?? invocation.turn.services.userShell;
    const argv = shellArgv(shell, args.cmd, args.login !== false);
    const patched = await interceptApplyPatch(invocation, argv, args.workdir, formatFreeformOutput);
    if (patched) return patched;
    const cwd = resolveWorkdir(invocation.turn, args.workdir);
    const tty = args.tty === true;
    // The snapshot holds the terminal's TERM, LANG, PAGER…; the no-pager, no-colour ones must win.
    const spawnArgv = await spawnArgvFor(invocation, argv, cwd, Object.keys(UNIFIED_EXEC_ENV));
    const request: CommandRequest = {
      argv,
      ...(spawnArgv ? { spawnArgv } : {}),
      cwd,
      env: commandEnv(invocation),
      permissions: args.sandbox_permissions ?? "use_default",
      tty,
      ...(args.justification ? { justification: args.justification } : {}),
      ...(Array.isArray(args.prefix_rule) ? { prefixRule: args.prefix_rule } : {}),
    };
    const emitDelta = outputDeltaEmitter(invocation);
    let call: RunningCall | null = null;
    // Each attempt (a rerun outside the sandbox is a second one) is a process of its own.
    const attempt = async (launch: CommandLaunch): Promise<UnifiedExecResult> => {
      if (!call) emitBegin(invocation, argv, cwd);
      const current: RunningCall = { argv, cwd, startedAt: Date.now(), output: new OutputCapture() };
      call = current;
      return guard("exec_command", () =>
        manager.start({
          argv: launch.argv,
          cwd,
          env: launch.env,
          tty,
          yieldTimeMs: args.yield_time_ms,
          maxOutputTokens: args.max_output_tokens ?? invocation.turn.model.truncationTokens,
          signal: invocation.signal,
          onOutput: (stream, chunk) => {
            current.output.write(stream, chunk);
            emitDelta(stream, chunk);
          },
        }),
      );
    };
    const outcome = await orchestrateCommand(invocation, request, "cannot", attempt, (r) => ({
      exitCode: r.exitCode,
      timedOut: false,
      output: r.output,
    }));
    if (outcome.kind === "refused") {
      if (call) emitRefusal(invocation, argv, cwd, outcome.message);
      return { text: outcome.message, success: false, ran: false };
    }
    const result = outcome.result;
    const started = call as RunningCall | null;
    if (result.sessionId !== null && started) callsOf(manager).set(result.sessionId, started);
    // PostToolUse hears about a command once it exited (as the reference's); a running one is polled with write_stdin.
    return { ...finish(invocation, started ?? undefined, result), ran: result.exitCode !== null };
  },
  hookIdentity: (invocation) => bashIdentity(typeof argumentsOf(invocation).cmd === "string" ? String(argumentsOf(invocation).cmd) : ""),
  withHookInput: (invocation, input) => rewriteCommand(invocation, input, (args, cmd) => ({ ...args, cmd })),
};

export const writeStdinHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation) {
    const args = parseArguments<WriteStdinArgs>(invocation);
    if (typeof args.session_id !== "number") {
      throw new ToolError("failed to parse function arguments: `session_id` must be a number");
    }
    const sessionId = args.session_id;
    const manager = invocation.turn.services.unifiedExec;
    const result = await guard("write_stdin", () =>
      manager.writeStdin({
        sessionId,
        chars: args.chars ?? "",
        yieldTimeMs: args.yield_time_ms,
        maxOutputTokens: args.max_output_tokens ?? invocation.turn.model.truncationTokens,
        signal: invocation.signal,
      }),
    );
    const call = callsOf(manager).get(sessionId);
    if (call && result.sessionId === null) callsOf(manager).delete(sessionId);
    return finish(invocation, call, result);
  },
};

function finish(invocation: ToolInvocation, call: RunningCall | undefined, result: UnifiedExecResult): ToolOutput {
  const text = formatUnifiedExecResponse(result);
  if (call && result.exitCode !== null) {
    call.output.end();
    emitEnd(invocation, {
      argv: call.argv,
      cwd: call.cwd,
      exitCode: result.exitCode,
      ...call.output.result(),
      durationMs: Date.now() - call.startedAt,
      formattedOutput: text,
    });
  }
  return {
    text: result.warning ? `${text}\n${result.warning}` : text,
    success: result.exitCode === null || result.exitCode === 0,
    ran: true,
    hookResponse: result.output,
  };
}

async function guard(tool: string, run: () => Promise<UnifiedExecResult>): Promise<UnifiedExecResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof UnifiedExecError) throw new ToolError(`${tool} failed: ${err.message}`);
    throw err;
  }
}
