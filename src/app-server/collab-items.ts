/**
 * A parent's sub-agent tool calls as the protocol's `collabAgentToolCall` items, shaped as the
 * reference's app-server shapes them: the item's id is the call's, a begin event starts it with
 * the agents it is about (none yet for a spawn), its end event completes it with each agent's
 * status. A call that reached no agent, or found one errored or unknown, is `failed`. Unlike
 * `exec --json`, resume_agent keeps its own tool name here (`resumeAgent`).
 */
import type { CollabAgentState, CollabAgentStatus, CollabAgentTool, ThreadItem } from "../app-server-protocol/v2.js";
import { effortFromV2, effortToV2 } from "../app-server-protocol/convert.js";
import { agentStatusMessage, agentStatusName, isFailedStatus, type AgentStatus, type CollabEventMsg } from "../protocol/collab.js";

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
