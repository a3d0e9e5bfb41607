/**
 * The one path every command the model runs takes, whatever the tool:
 *
 *   policy check ─▶ [ask the user] ─▶ run in the sandbox ─▶ looks denied? ─▶ [ask] ─▶ run unsandboxed
 *
 * - `untrusted`: commands not known to be safe are asked about first.
 * - `on-request`: the model may ask to run outside the sandbox (`require_escalated` with a
 *   justification); the user decides.
 * - `on-failure`, `on-request`, `untrusted`: a sandboxed command that fails the way sandbox
 *   refusals look is offered to the user for a rerun outside the sandbox.
 * - `never`: nobody is asked; whatever happened goes back to the model.
 * Each question goes to the PermissionRequest hooks first (tool-hooks.ts): a hook that allows or
 * denies answers it, and the user is asked only when none decided. A hook that runs only once the
 * user trusted it (or that the user's managed config installs) answers for the user, as in 0.169.
 * "Approved for the session" covers the same command in the same directory from then on.
 *
 * Nothing runs outside the sandbox (under a confining policy) unless the user said yes to
 * exactly that: the escalation request, "run it without a sandbox?" when none can be set up, or
 * "retry without sandbox?" after a refusal; or said yes to one of them for the session. A rule
 * that allows the command, or a yes to running it at all, only skips the question of whether
 * it may run, which it then does inside the sandbox.
 *
 * "Outside the sandbox" still hides what the permission profile denies: such a command runs with
 * full access but with the denied paths masked (launcher.ts), and when that cannot be done on
 * this machine it does not run. Denied paths are not the user's to approve one command at a time.
 */
import type { ReviewDecision } from "../protocol/policy.js";
import { commandApprovalKey } from "../approval/approval-store.js";
import { isApproval } from "../approval/ask-user.js";
import { ruleOn } from "../approval/exec-policy/command-ruling.js";
import { looksLikeSandboxDenial } from "../approval/sandbox-denial.js";
import type { FileSystemGuard } from "../sandbox/fs-guard.js";
import { SandboxUnavailableError, sandboxCommand, type SandboxType } from "../sandbox/launcher.js";
import { isKnownSafeCommand } from "../safety/known-safe.js";
import { commandMightBeDangerous } from "../safety/dangerous-command.js";
import { shellJoin } from "../util/shell-quote.js";
import type { ToolInvocation } from "./types.js";
import { askApproval, type ApprovalAnswer } from "./tool-hooks.js";

export type SandboxPermissions = "use_default" | "require_escalated";

export interface CommandRequest {
  /** The command as the model asked for it (before any sandbox wrapping). */
  argv: string[];
  /** What is spawned instead of `argv` (the shell-snapshot wrapper); rules, approvals and events see `argv`. */
  spawnArgv?: string[];
  cwd: string;
  env: Record<string, string>;
  permissions: SandboxPermissions;
  justification?: string;
  /** PTY sessions keep their controlling terminal inside the sandbox. */
  tty?: boolean;
  /** The model's `prefix_rule`: a prefix it proposes the user allow from now on. */
  prefixRule?: string[];
}

/** How to start the command: the argv and env to spawn, and what confines it. */
export interface CommandLaunch {
  argv: string[];
  env: Record<string, string>;
  sandbox: SandboxType;
}

/** What the orchestrator needs to know about a finished attempt. */
export interface AttemptView {
  /** null while the process is still running (a long-lived exec_command session). */
  exitCode: number | null;
  timedOut: boolean;
  output: string;
}

export type Orchestrated<R> = { kind: "ran"; result: R; launch: CommandLaunch } | { kind: "refused"; message: string };

export const REJECTED_BY_USER = "exec command rejected by user";
export const FORBIDDEN_BY_RULES = "command forbidden by an exec policy rule";
export const PROMPT_RULE_UNDER_NEVER = "an exec policy rule requires approval for this command, and approval policy `never` cannot ask";
export const FORCED_REMOVAL_UNDER_NEVER = "rm with a force option (-f, --force) is never run without asking, and approval policy `never` cannot ask; delete without the force option";
export const RETRY_WITHOUT_SANDBOX = "command failed; retry without sandbox?";
export const PLANNING_STAYS_READ_ONLY = "plan mode: commands run read-only and cannot leave the sandbox; read and explore now, and make changes once the user leaves plan mode";

const POLICY_DEBUG_NAMES = { untrusted: "UnlessTrusted", "on-failure": "OnFailure", "on-request": "OnRequest", never: "Never" } as const;

export async function orchestrateCommand<R>(
  invocation: ToolInvocation,
  request: CommandRequest,
  toolWording: "should not" | "cannot",
  attempt: (launch: CommandLaunch) => Promise<R>,
  view: (result: R) => AttemptView,
): Promise<Orchestrated<R>> {
  const { turn } = invocation;
  const policy = turn.approvalPolicy;
  const escalated = request.permissions === "require_escalated";
  if (escalated && turn.planning === true) return refused(PLANNING_STAYS_READ_ONLY);
  if (escalated && policy !== "on-request") {
    const name = POLICY_DEBUG_NAMES[policy];
    return refused(`approval policy is ${name}; reject command — you ${toolWording} ask for escalated permissions if the approval policy is ${name}`);
  }

  // The user's command rules speak first: forbidden refuses, prompt always asks, allow does not ask.
  const ruling = await ruleOn(turn.services.execPolicy, request.argv);
  const because = ruling?.justification ? `: ${ruling.justification}` : "";
  if (ruling?.decision === "forbidden") return refused(`${FORBIDDEN_BY_RULES}${because}`);
  // Nobody can be asked under `never`, so a rule that wants the user asked cannot let it run.
  if (ruling?.decision === "prompt" && policy === "never") return refused(`${PROMPT_RULE_UNDER_NEVER}${because}`);
  // Where no rule speaks, a forced removal is asked about under every policy and refused where
  // nobody can be asked, whatever the sandbox (as Codex 0.169 does, even with it bypassed).
  const dangerous = ruling === null && (await commandMightBeDangerous(request.argv));
  if (dangerous && policy === "never") return refused(`${commandLine(request.argv)}: ${FORCED_REMOVAL_UNDER_NEVER}`);

  const store = turn.services.approvalStore;
  const key = commandApprovalKey(request.argv, request.cwd, request.permissions);
  // Running outside the sandbox is its own question, whatever allowed the command itself: an
  // answer "for the session" to it is kept under the escalated key.
  const unsandboxedKey = commandApprovalKey(request.argv, request.cwd, "require_escalated");
  let mayRunUnsandboxed = ruling?.decision !== "prompt" && store.covers("exec", [unsandboxedKey]);
  const sandboxed = turn.sandboxPolicy.type !== "danger-full-access";

  if (escalated) {
    // The request itself is to run outside the sandbox: only the user can grant it.
    if (!mayRunUnsandboxed) {
      const answer = await ask(invocation, request, request.justification);
      if (!isApproval(answer.decision)) return refused(answer.message ?? REJECTED_BY_USER);
      if (answer.decision === "approved_for_session") store.remember("exec", [unsandboxedKey]);
      mayRunUnsandboxed = true;
    } else {
      reportDecision(invocation, "approved", "config");
    }
  } else {
    const allowed = ruling?.decision === "allow" || (ruling?.decision !== "prompt" && store.covers("exec", [key]));
    const needsApproval = ruling?.decision === "prompt" || dangerous || (policy === "untrusted" && !(await isKnownSafeCommand(request.argv, { sandboxed })));
    if (needsApproval && !allowed) {
      const answer = await ask(invocation, request, undefined);
      if (!isApproval(answer.decision)) return refused(answer.message ?? REJECTED_BY_USER);
      if (answer.decision === "approved_for_session") store.remember("exec", [key]);
    } else {
      // Nobody was asked: the policy, a rule or an earlier "for the session" decided.
      reportDecision(invocation, "approved", "config");
    }
  }

  const spawnArgv = request.spawnArgv ?? request.argv;
  const guard = turn.services.fileSystemGuard;
  const runOutside = async (): Promise<Orchestrated<R>> => {
    const outside = await outsideLaunch(request, spawnArgv, guard);
    if (typeof outside === "string") return refused(outside);
    return { kind: "ran", result: await attempt(outside), launch: outside };
  };
  // An approved escalation runs outside the sandbox, as does everything under full access.
  if (!sandboxed || escalated) return runOutside();

  /** Asks before the command runs unconfined, unless the user already said yes to that; a string: why it was refused. */
  const mayLeaveSandbox = async (question: string): Promise<true | string> => {
    if (mayRunUnsandboxed) return true;
    const answer = await ask(invocation, request, `${question}${stillHidden(guard)}`);
    if (!isApproval(answer.decision)) return answer.message ?? REJECTED_BY_USER;
    if (answer.decision === "approved_for_session") store.remember("exec", [unsandboxedKey]);
    return (mayRunUnsandboxed = true);
  };

  let launch: CommandLaunch;
  try {
    launch = await sandboxCommand({ policy: turn.sandboxPolicy, cwd: request.cwd, argv: spawnArgv, env: request.env, tty: request.tty, guard });
  } catch (err) {
    if (!(err instanceof SandboxUnavailableError)) throw err;
    // Never unconfined without the user's say-so, whatever allowed the command: ask, or tell
    // the model why nothing ran when nobody can be asked.
    if (policy === "never" || turn.planning === true) return refused(err.message);
    const leave = await mayLeaveSandbox(`${err.message} Run it without a sandbox?`);
    return leave === true ? runOutside() : refused(leave);
  }

  const result = await attempt(launch);
  const outcome = view(result);
  if (policy === "never" || turn.planning === true || outcome.exitCode === null || !looksDenied(outcome)) return { kind: "ran", result, launch };
  const leave = await mayLeaveSandbox(RETRY_WITHOUT_SANDBOX);
  return leave === true ? runOutside() : refused(leave);
}

/** Said in a question about running outside the sandbox when denied paths would stay hidden anyway. */
function stillHidden(guard: FileSystemGuard | undefined): string {
  return guard !== undefined && guard.view().hidden.length > 0 ? " (paths the permission profile denies stay hidden)" : "";
}

/**
 * How a command runs outside the sandbox: as it is, or, when the permission profile denies
 * something that exists, with full access minus the denied paths. A string says why it cannot run.
 */
async function outsideLaunch(request: CommandRequest, argv: string[], guard: FileSystemGuard | undefined): Promise<CommandLaunch | string> {
  if (guard === undefined) return { argv, env: request.env, sandbox: "none" };
  try {
    const wrapped = await sandboxCommand({ policy: { type: "danger-full-access" }, cwd: request.cwd, argv, env: request.env, tty: request.tty, guard });
    return { argv: wrapped.argv, env: wrapped.env, sandbox: wrapped.sandbox };
  } catch (err) {
    if (!(err instanceof SandboxUnavailableError)) throw err;
    return `${err.message} The permission profile denies paths that a command outside the sandbox could read, so it was not run; choose a profile without denied paths to run it.`;
  }
}

function looksDenied(outcome: AttemptView): boolean {
  return looksLikeSandboxDenial({ exitCode: outcome.exitCode ?? 0, timedOut: outcome.timedOut, output: outcome.output });
}

/** Asks about the command: PermissionRequest hooks first (their denial's message refuses it), then the user. */
async function ask(invocation: ToolInvocation, request: CommandRequest, reason: string | undefined): Promise<ApprovalAnswer> {
  const { turn } = invocation;
  const command = commandLine(request.argv);
  const identity = { toolName: "Bash", toolInput: { command, ...(request.justification ? { description: request.justification } : {}) } };
  const answer = await askApproval(invocation, {
    type: "exec_approval_request",
    call_id: invocation.callId,
    turn_id: turn.turnId,
    command: request.argv,
    cwd: request.cwd,
    ...(reason ? { reason } : {}),
    ...(request.prefixRule && request.prefixRule.length > 0 ? { proposed_execpolicy_amendment: request.prefixRule } : {}),
    parsed_cmd: [{ type: "unknown", cmd: shellJoin(request.argv) }],
  }, identity);
  reportDecision(invocation, answer.decision, answer.decidedBy === "hook" ? "config" : "user");
  return answer;
}

/** The command as hooks read it: a shell's `-c` / `-lc` script, or the argv as one line. */
function commandLine(argv: readonly string[]): string {
  return argv.length === 3 && (argv[1] === "-lc" || argv[1] === "-c") ? (argv[2] ?? "") : shellJoin(argv);
}

function reportDecision(invocation: ToolInvocation, decision: ReviewDecision, source: "config" | "user"): void {
  invocation.turn.services.telemetry.toolDecision({ toolName: invocation.name, callId: invocation.callId, decision, source });
}

function refused(message: string): { kind: "refused"; message: string } {
  return { kind: "refused", message };
}
