/**
 * PreToolUse and PostToolUse around every tool call the router runs, and PermissionRequest before
 * an approval question: the hooks see the call as the reference names it (shell tools as `Bash`,
 * apply_patch with its patch, MCP tools by their qualified name), may block it, rewrite its
 * input, answer the approval, add context for the model, or replace the output the model reads.
 * Without hooks for these events nothing here costs more than a lookup.
 */
import type { EventMsg } from "../protocol/events.js";
import type { ReviewDecision } from "../protocol/policy.js";
import { askUser, type ApprovalRequest } from "../approval/ask-user.js";
import { nobodyCanAnswer } from "../approval/questions.js";
import type { HookToolCall } from "../hooks/payloads.js";
import type { HookTurn, SessionHooks } from "../hooks/session-hooks.js";
import type { TurnContext } from "./turn-context.js";
import type { HookIdentity, ToolHandler, ToolInvocation, ToolOutput } from "./types.js";

/** The turn as hooks see it, its events going out on `emit`. */
export function hookTurn(turn: TurnContext, emit: (msg: EventMsg) => void): HookTurn {
  return {
    turnId: turn.turnId,
    cwd: turn.cwd,
    model: turn.model.slug,
    approvalPolicy: turn.approvalPolicy,
    emit,
    ...(turn.subagent ? { subagent: turn.subagent } : {}),
  };
}

export interface BeforeTool {
  /** The invocation to run (rewritten by a hook's `updatedInput`, or as it came). */
  invocation: ToolInvocation;
  /** Set when a hook blocked the call: what the model reads instead. */
  blocked: string | null;
  identity: HookIdentity;
}

/** Runs PreToolUse; null when no hook could care (the call runs as it is). */
export async function beforeTool(handler: ToolHandler, invocation: ToolInvocation, note: (text: string) => void): Promise<BeforeTool | null> {
  const hooks = hooksOf(invocation);
  if (!hooks || !(hooks.has("PreToolUse") || hooks.has("PostToolUse"))) return null;
  const identity = handler.hookIdentity?.(invocation) ?? defaultIdentity(invocation);
  if (!hooks.has("PreToolUse")) return { invocation, blocked: null, identity };
  const outcome = await hooks.preToolUse(hookTurn(invocation.turn, invocation.emit), hookCall(identity, invocation));
  for (const text of outcome.contexts) note(text);
  if (outcome.blockedMessage !== null) return { invocation, blocked: outcome.blockedMessage, identity };
  if (outcome.updatedInput === undefined) return { invocation, blocked: null, identity };
  const rewritten = handler.withHookInput?.(invocation, outcome.updatedInput) ?? defaultRewrite(invocation, outcome.updatedInput);
  if (typeof rewritten === "string") {
    invocation.emit({ type: "warning", message: `A PreToolUse hook's updatedInput was not used: ${rewritten}` });
    return { invocation, blocked: null, identity };
  }
  return { invocation: rewritten, blocked: null, identity: handler.hookIdentity?.(rewritten) ?? defaultIdentity(rewritten) };
}

/** Runs PostToolUse for a call that ran; the output the model reads, replaced when a hook says so. */
export async function afterTool(
  handler: ToolHandler,
  invocation: ToolInvocation,
  identity: HookIdentity,
  output: ToolOutput,
  note: (text: string) => void,
): Promise<ToolOutput> {
  const hooks = hooksOf(invocation);
  if (!hooks?.has("PostToolUse")) return output;
  // A call refused before it ran (an approval said no) or still running has no result to report.
  if (!(output.ran ?? output.success)) return output;
  const response = output.hookResponse ?? output.contentItems ?? output.text;
  const outcome = await hooks.postToolUse(hookTurn(invocation.turn, invocation.emit), hookCall(identity, invocation), response, { mcpTool: identity.mcp === true });
  for (const text of outcome.contexts) note(text);
  if (outcome.replacement === undefined) return output;
  return handler.hookReplacement?.(outcome.replacement) ?? replacementOutput(outcome.replacement, output.success);
}

function hooksOf(invocation: ToolInvocation): SessionHooks | undefined {
  return invocation.turn.services.hooks;
}

function hookCall(identity: HookIdentity, invocation: ToolInvocation): HookToolCall {
  return {
    toolName: identity.toolName,
    toolInput: identity.toolInput,
    toolUseId: invocation.callId,
    ...(identity.matcherAliases ? { matcherAliases: identity.matcherAliases } : {}),
  };
}

/** A call by its own name; a function call's input is its arguments (as text when they are not JSON). */
function defaultIdentity(invocation: ToolInvocation): HookIdentity {
  if (invocation.payload.kind === "custom") return { toolName: invocation.name, toolInput: { input: invocation.payload.input } };
  const raw = invocation.payload.arguments;
  try {
    return { toolName: invocation.name, toolInput: raw.trim() === "" ? {} : (JSON.parse(raw) as unknown) };
  } catch {
    return { toolName: invocation.name, toolInput: raw };
  }
}

function defaultRewrite(invocation: ToolInvocation, input: unknown): ToolInvocation | string {
  if (invocation.payload.kind !== "function") return `${invocation.name} takes free-form input, which a hook cannot rewrite`;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return `${invocation.name} takes an object of arguments`;
  return { ...invocation, payload: { kind: "function", arguments: JSON.stringify(input) } };
}

function replacementOutput(value: unknown, success: boolean): ToolOutput {
  return { text: typeof value === "string" ? value : JSON.stringify(value), success };
}

/** An approval's answer, and the reason the model is told when a PermissionRequest hook denied it. */
export interface ApprovalAnswer {
  decision: ReviewDecision;
  /** A hook's denial message; null when the user (or nobody) decided. */
  message: string | null;
  decidedBy: "hook" | "user";
}

/**
 * Asks for an approval: PermissionRequest hooks first (any deny wins, else an allow approves
 * once), the user when no hook decided. Under approval `never` nobody is asked and no hook runs.
 */
export async function askApproval(invocation: ToolInvocation, request: ApprovalRequest, identity: HookIdentity): Promise<ApprovalAnswer> {
  const { turn } = invocation;
  const hooks = turn.services.hooks;
  if (hooks?.has("PermissionRequest") && !nobodyCanAnswer(turn.approvalPolicy)) {
    const verdict = await hooks.permissionRequest(hookTurn(turn, invocation.emit), hookCall(identity, invocation));
    if (verdict?.kind === "allow") return { decision: "approved", message: null, decidedBy: "hook" };
    if (verdict?.kind === "deny") return { decision: "denied", message: verdict.message, decidedBy: "hook" };
  }
  const decision = await askUser(turn.services.questions, { emit: invocation.emit, approvalPolicy: turn.approvalPolicy }, request);
  return { decision, message: null, decidedBy: "user" };
}
