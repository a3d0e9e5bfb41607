/**
 * What each hook reads on stdin: one JSON object per event, with the reference's field names,
 * values and order (docs/hooks.md lists them), so a hook written for Codex 0.169 reads the same
 * input here.
 */
import type { HookEventName } from "../protocol/hook-events.js";
import type { AskForApproval } from "../protocol/policy.js";

/** The session a hook runs for. */
export interface HookSession {
  sessionId: string;
  /** The thread's rollout file; null when nothing is recorded (`--ephemeral`). */
  transcriptPath(): string | null;
}

/** A sub-agent's own turns carry who it is. */
export interface SubagentIdentity {
  agentId: string;
  agentType: string;
}

/** What a sub-agent's session knows of its parent, for its SubagentStop. */
export interface SubagentContext extends SubagentIdentity {
  /** The parent thread's rollout (SubagentStop's `transcript_path`; the sub-agent's own is `agent_transcript_path`). */
  parentTranscriptPath: string | null;
}

/** The turn a hook runs in. */
export interface HookTurnInfo {
  turnId: string;
  cwd: string;
  model: string;
  approvalPolicy: AskForApproval;
  /** Set when the turn is a sub-agent's. */
  subagent?: SubagentContext;
}

export type SessionStartSource = "startup" | "resume" | "clear" | "compact" | "fork";
export type CompactionTrigger = "manual" | "auto";

/** A tool call as hooks see it: `Bash` for every shell tool, MCP tools by their qualified name. */
export interface HookToolCall {
  toolName: string;
  toolInput: unknown;
  toolUseId: string;
  /** Other names a matcher may select it by (apply_patch answers to `Edit` and `Write` too). */
  matcherAliases?: readonly string[];
}

type Payload = Record<string, unknown>;

/** The reference sends `bypassPermissions` when nobody is asked (approval `never`), else `default`. */
export function permissionMode(policy: AskForApproval): string {
  return policy === "never" ? "bypassPermissions" : "default";
}

/** The fields every turn event starts with; a sub-agent's turn adds who it is after `turn_id`. */
function turnBase(session: HookSession, turn: HookTurnInfo, event: HookEventName, withMode: boolean): Payload {
  return {
    session_id: session.sessionId,
    turn_id: turn.turnId,
    ...(turn.subagent ? { agent_id: turn.subagent.agentId, agent_type: turn.subagent.agentType } : {}),
    transcript_path: session.transcriptPath(),
    cwd: turn.cwd,
    hook_event_name: event,
    model: turn.model,
    ...(withMode ? { permission_mode: permissionMode(turn.approvalPolicy) } : {}),
  };
}

export function sessionStartPayload(session: HookSession, turn: HookTurnInfo, source: SessionStartSource): Payload {
  return {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath(),
    cwd: turn.cwd,
    hook_event_name: "SessionStart",
    model: turn.model,
    permission_mode: permissionMode(turn.approvalPolicy),
    source,
  };
}

export function userPromptPayload(session: HookSession, turn: HookTurnInfo, prompt: string): Payload {
  return { ...turnBase(session, turn, "UserPromptSubmit", true), prompt };
}

export function preToolUsePayload(session: HookSession, turn: HookTurnInfo, call: HookToolCall): Payload {
  return { ...turnBase(session, turn, "PreToolUse", true), tool_name: call.toolName, tool_input: call.toolInput, tool_use_id: call.toolUseId };
}

export function permissionRequestPayload(session: HookSession, turn: HookTurnInfo, call: HookToolCall): Payload {
  return { ...turnBase(session, turn, "PermissionRequest", true), tool_name: call.toolName, tool_input: call.toolInput };
}

export function postToolUsePayload(session: HookSession, turn: HookTurnInfo, call: HookToolCall, response: unknown): Payload {
  return {
    ...turnBase(session, turn, "PostToolUse", true),
    tool_name: call.toolName,
    tool_input: call.toolInput,
    tool_response: response,
    tool_use_id: call.toolUseId,
  };
}

export function compactPayload(session: HookSession, turn: HookTurnInfo, event: "PreCompact" | "PostCompact", trigger: CompactionTrigger): Payload {
  return { ...turnBase(session, turn, event, false), trigger };
}

export interface StopFacts {
  stopHookActive: boolean;
  lastAssistantMessage: string | null;
}

export function stopPayload(session: HookSession, turn: HookTurnInfo, facts: StopFacts): Payload {
  return {
    ...turnBase(session, { ...turn, subagent: undefined }, "Stop", true),
    stop_hook_active: facts.stopHookActive,
    last_assistant_message: facts.lastAssistantMessage,
  };
}

export function subagentStartPayload(session: HookSession, turn: HookTurnInfo, agent: SubagentIdentity): Payload {
  return {
    ...turnBase(session, { ...turn, subagent: undefined }, "SubagentStart", true),
    agent_id: agent.agentId,
    agent_type: agent.agentType,
  };
}

/** A sub-agent's stop, asked in the sub-agent's session: `transcript_path` is the parent's rollout, `agent_transcript_path` its own. */
export interface SubagentStopFacts extends StopFacts {
  agent: SubagentContext;
}

export function subagentStopPayload(session: HookSession, turn: HookTurnInfo, facts: SubagentStopFacts): Payload {
  return {
    session_id: session.sessionId,
    turn_id: turn.turnId,
    transcript_path: facts.agent.parentTranscriptPath,
    agent_transcript_path: session.transcriptPath(),
    cwd: turn.cwd,
    hook_event_name: "SubagentStop",
    model: turn.model,
    permission_mode: permissionMode(turn.approvalPolicy),
    stop_hook_active: facts.stopHookActive,
    agent_id: facts.agent.agentId,
    agent_type: facts.agent.agentType,
    last_assistant_message: facts.lastAssistantMessage,
  };
}

export function interruptPayload(session: HookSession, turn: HookTurnInfo): Payload {
  return turnBase(session, turn, "Interrupt", true);
}

/** SessionEnd's `reason` is always "other" in the reference's 0.169 schema. */
export function sessionEndPayload(session: HookSession, cwd: string): Payload {
  return { session_id: session.sessionId, transcript_path: session.transcriptPath(), cwd, hook_event_name: "SessionEnd", reason: "other" };
}
