/**
 * A parent's sub-agent tool calls and the protocol's `collabAgentToolCall` items, both ways.
 * The server shapes items as the reference's app-server does: the item's id is the call's, a
 * begin event starts it with the agents it is about (none yet for a spawn), its end event
 * completes it with each agent's status; a call that reached no agent, or found one errored or
 * unknown, is `failed`. Unlike `exec --json`, resume_agent keeps its own tool name here
 * (`resumeAgent`). The remote UI turns items back into the core's collab events; items carry no
 * nicknames, so those events name agents by id.
 */
import type { CollabAgentState, CollabAgentStatus, CollabAgentTool, ThreadItem } from "./v2.js";
import { effortFromV2, effortToV2 } from "./convert.js";
import { agentStatusMessage, agentStatusName, isFailedStatus, type AgentRef, type AgentStatus, type CollabEventMsg } from "../protocol/collab.js";

export type CollabItem = Extract<ThreadItem, { type: "collabAgentToolCall" }>;
type ToolCallEvent = Exclude<CollabEventMsg, { type: "sub_agent_status" }>;
type BeginEvent = Extract<ToolCallEvent, { type: `${string}_begin` }>;
type EndEvent = Exclude<ToolCallEvent, BeginEvent>;

const BEGIN_TYPES: ReadonlySet<string> = new Set<BeginEvent["type"]>([
  "collab_agent_spawn_begin",
  "collab_agent_interaction_begin",
  "collab_waiting_begin",
  "collab_resume_begin",
  "collab_close_begin",
]);

/** Whether `msg` opens a collab item (else it completes one). */
export function isCollabBegin(msg: ToolCallEvent): msg is BeginEvent {
  return BEGIN_TYPES.has(msg.type);
}

/** The in-progress item a begin event starts. */
export function collabBeginItem(msg: BeginEvent): CollabItem {
  switch (msg.type) {
    case "collab_agent_spawn_begin":
      return item(msg, "spawnAgent", "inProgress", [], msg.prompt, { model: msg.model, effort: msg.reasoning_effort });
    case "collab_agent_interaction_begin":
      return item(msg, "sendInput", "inProgress", [msg.receiver_thread_id], msg.prompt);
    case "collab_waiting_begin":
      return item(msg, "wait", "inProgress", msg.receiver_thread_ids, null);
    case "collab_resume_begin":
      return item(msg, "resumeAgent", "inProgress", [msg.receiver_thread_id], null);
    case "collab_close_begin":
      return item(msg, "closeAgent", "inProgress", [msg.receiver_thread_id], null);
  }
}

/** The completed item an end event stands for. */
export function collabEndItem(msg: EndEvent): CollabItem {
  switch (msg.type) {
    case "collab_agent_spawn_end": {
      const states: Array<[string, AgentStatus]> = msg.new_thread_id === null ? [] : [[msg.new_thread_id, msg.status]];
      return completed(msg, "spawnAgent", states, msg.prompt, { model: msg.model, effort: msg.reasoning_effort }, msg.new_thread_id === null);
    }
    case "collab_agent_interaction_end":
      return completed(msg, "sendInput", [[msg.receiver_thread_id, msg.status]], msg.prompt);
    case "collab_waiting_end":
      return completed(msg, "wait", Object.entries(msg.statuses), null);
    case "collab_resume_end":
      return completed(msg, "resumeAgent", [[msg.receiver_thread_id, msg.status]], null);
    case "collab_close_end":
      return completed(msg, "closeAgent", [[msg.receiver_thread_id, msg.status]], null);
  }
}

interface SpawnSettings {
  model: string;
  effort: string;
}

function completed(msg: EndEvent, tool: CollabAgentTool, states: Array<[string, AgentStatus]>, prompt: string | null, spawn?: SpawnSettings, failed = false): CollabItem {
  const agentsStates: Record<string, CollabAgentState> = {};
  for (const [threadId, status] of states) agentsStates[threadId] = { status: statusToV2(status), message: agentStatusMessage(status) };
  const anyFailed = failed || states.some(([, status]) => isFailedStatus(status));
  return { ...item(msg, tool, anyFailed ? "failed" : "completed", states.map(([threadId]) => threadId), prompt, spawn), agentsStates };
}

function item(msg: ToolCallEvent, tool: CollabAgentTool, status: CollabItem["status"], receivers: string[], prompt: string | null, spawn?: SpawnSettings): CollabItem {
  return {
    type: "collabAgentToolCall",
    id: msg.call_id,
    tool,
    status,
    senderThreadId: msg.sender_thread_id,
    receiverThreadIds: receivers,
    prompt,
    model: spawn ? spawn.model : null,
    reasoningEffort: spawn ? effortToV2(effortFromV2(spawn.effort)) : null,
    agentsStates: {},
  };
}

const STATUS_NAMES: Record<ReturnType<typeof agentStatusName>, CollabAgentStatus> = {
  pending_init: "pendingInit",
  running: "running",
  interrupted: "interrupted",
  completed: "completed",
  errored: "errored",
  shutdown: "shutdown",
  not_found: "notFound",
};

function statusToV2(status: AgentStatus): CollabAgentStatus {
  return STATUS_NAMES[agentStatusName(status)];
}

// ------------------------------------------------------------------ back to the core's events

/** The begin event a started item stands for. */
export function collabBeginEvent(item: CollabItem): BeginEvent {
  const call = { call_id: item.id, sender_thread_id: item.senderThreadId };
  const receiver = item.receiverThreadIds[0] ?? "";
  switch (item.tool) {
    case "spawnAgent":
      return { type: "collab_agent_spawn_begin", ...call, prompt: item.prompt ?? "", model: item.model ?? "", reasoning_effort: item.reasoningEffort ?? "" };
    case "sendInput":
      return { type: "collab_agent_interaction_begin", ...call, receiver_thread_id: receiver, prompt: item.prompt ?? "" };
    case "wait":
      return { type: "collab_waiting_begin", ...call, receiver_thread_ids: item.receiverThreadIds, receiver_agents: item.receiverThreadIds.map(unnamed) };
    case "resumeAgent":
      return { type: "collab_resume_begin", ...call, ...receiverFields(receiver) };
    case "closeAgent":
      return { type: "collab_close_begin", ...call, receiver_thread_id: receiver };
  }
}

/** The end event a completed item stands for. */
export function collabEndEvent(item: CollabItem): EndEvent {
  const call = { call_id: item.id, sender_thread_id: item.senderThreadId };
  const receiver = item.receiverThreadIds[0] ?? "";
  const statusOf = (threadId: string): AgentStatus => statusFromV2(item.agentsStates[threadId]);
  switch (item.tool) {
    case "spawnAgent": {
      const spawned = item.status === "completed" && item.receiverThreadIds[0] !== undefined ? item.receiverThreadIds[0] : null;
      return {
        type: "collab_agent_spawn_end",
        ...call,
        new_thread_id: spawned,
        new_agent_nickname: null,
        new_agent_role: null,
        prompt: item.prompt ?? "",
        model: item.model ?? "",
        reasoning_effort: item.reasoningEffort ?? "",
        status: spawned === null ? { errored: "the sub-agent could not be started" } : statusOf(spawned),
      };
    }
    case "sendInput":
      return { type: "collab_agent_interaction_end", ...call, ...receiverFields(receiver), prompt: item.prompt ?? "", status: statusOf(receiver) };
    case "wait": {
      const finished = Object.keys(item.agentsStates);
      const statuses = Object.fromEntries(finished.map((id) => [id, statusOf(id)]));
      return { type: "collab_waiting_end", ...call, agent_statuses: finished.map((id) => ({ ...unnamed(id), status: statusOf(id) })), statuses };
    }
    case "resumeAgent":
      return { type: "collab_resume_end", ...call, ...receiverFields(receiver), status: statusOf(receiver) };
    case "closeAgent":
      return { type: "collab_close_end", ...call, ...receiverFields(receiver), status: statusOf(receiver) };
  }
}

function unnamed(threadId: string): AgentRef {
  return { thread_id: threadId, agent_nickname: null, agent_role: null };
}

function receiverFields(threadId: string): { receiver_thread_id: string; receiver_agent_nickname: null; receiver_agent_role: null } {
  return { receiver_thread_id: threadId, receiver_agent_nickname: null, receiver_agent_role: null };
}

function statusFromV2(state: CollabAgentState | undefined): AgentStatus {
  if (!state) return "not_found";
  switch (state.status) {
    case "pendingInit":
      return "pending_init";
    case "notFound":
      return "not_found";
    case "completed":
      return { completed: state.message };
    case "errored":
      return { errored: state.message ?? "" };
    default:
      return state.status;
  }
}
