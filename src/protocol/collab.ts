/**
 * Sub-agents as the protocol sees them (the reference's multi_agent_v1 collab tools): an agent's
 * status, who started a thread, the events a parent emits while it spawns, messages, waits for,
 * resumes and closes its children, and the note a finished child leaves in its parent's history.
 * Names and shapes are the reference's, so consumers written for its events read ours.
 */

/**
 * Where an agent stands. `completed` carries the agent's last message (null when it gave none),
 * `errored` the reason its turn failed. The string statuses name themselves.
 */
export type AgentStatus =
  | "pending_init"
  | "running"
  | "interrupted"
  | "shutdown"
  | "not_found"
  | { completed: string | null }
  | { errored: string };

export type AgentStatusName = "pending_init" | "running" | "interrupted" | "shutdown" | "not_found" | "completed" | "errored";

export function agentStatusName(status: AgentStatus): AgentStatusName {
  if (typeof status === "string") return status;
  return "completed" in status ? "completed" : "errored";
}

/** The message a status carries: a completed agent's answer, an errored one's reason, else null. */
export function agentStatusMessage(status: AgentStatus): string | null {
  if (typeof status === "string") return null;
  return "completed" in status ? status.completed : status.errored;
}

/**
 * A status nothing more will come after unless the agent is given more to do: what wait_agent
 * waits for. An interrupted agent is not final: it is usually about to take new input.
 */
export function isFinalStatus(status: AgentStatus): boolean {
  return status !== "pending_init" && status !== "running" && status !== "interrupted";
}

/** A status that counts as a failure of the call that reported it (exec marks its item failed). */
export function isFailedStatus(status: AgentStatus): boolean {
  const name = agentStatusName(status);
  return name === "errored" || name === "not_found";
}

/** The multi-agent tool set a thread runs with, as session_meta records it. */
export const MULTI_AGENT_VERSION = "v1";

/**
 * Who started a thread that another thread spawned: session_meta's `source` for a child is
 * `{"subagent": {"thread_spawn": …}}` with these fields, in this order.
 */
export interface ThreadSpawnSource {
  parent_thread_id: string;
  /** 1 for a child of a user's thread, 2 for a grandchild, … */
  depth: number;
  agent_path: string | null;
  agent_nickname: string | null;
  agent_role: string | null;
}

export type SubAgentSource = { subagent: { thread_spawn: ThreadSpawnSource } };

/** A thread's place in its tree: what a child knows of itself (null for a user's own thread). */
export interface ThreadLineage {
  /** The tree's root thread: its id is the `session_id` every thread of the tree shares. */
  rootThreadId: string;
  parentThreadId: string;
  depth: number;
  nickname: string;
  /** The role it was spawned as (`agent_type`), null when none was asked for. */
  role: string | null;
}

/** An agent as events name it. */
export interface AgentRef {
  thread_id: string;
  agent_nickname: string | null;
  agent_role: string | null;
}

export interface AgentStatusEntry extends AgentRef {
  status: AgentStatus;
}

/** Who made a collab call, and which call: every collab event carries these. */
interface CallFields {
  call_id: string;
  sender_thread_id: string;
}

/** The agent a call was about, as its end event names it. */
interface ReceiverFields {
  receiver_thread_id: string;
  receiver_agent_nickname: string | null;
  receiver_agent_role: string | null;
}

/** The events a parent emits around its collab tool calls (begin / end pairs keyed by `call_id`). */
export type CollabEventMsg =
  | ({ type: "collab_agent_spawn_begin"; prompt: string; model: string; reasoning_effort: string } & CallFields)
  | ({
      type: "collab_agent_spawn_end";
      /** null when no agent could be started (the limit was reached, say). */
      new_thread_id: string | null;
      new_agent_nickname: string | null;
      new_agent_role: string | null;
      prompt: string;
      model: string;
      reasoning_effort: string;
      status: AgentStatus;
    } & CallFields)
  | ({ type: "collab_agent_interaction_begin"; receiver_thread_id: string; prompt: string } & CallFields)
  | ({ type: "collab_agent_interaction_end"; prompt: string; status: AgentStatus } & CallFields & ReceiverFields)
  | ({ type: "collab_waiting_begin"; receiver_thread_ids: string[]; receiver_agents: AgentRef[] } & CallFields)
  | ({
      type: "collab_waiting_end";
      /** The agents that reached a final status, in the order they were waited for; empty when the wait timed out. */
      agent_statuses: AgentStatusEntry[];
      statuses: Record<string, AgentStatus>;
    } & CallFields)
  | ({ type: "collab_close_begin"; receiver_thread_id: string } & CallFields)
  /** `status`: the one the agent had before it was closed. */
  | ({ type: "collab_close_end"; status: AgentStatus } & CallFields & ReceiverFields)
  | ({ type: "collab_resume_begin" } & CallFields & ReceiverFields)
  | ({ type: "collab_resume_end"; status: AgentStatus } & CallFields & ReceiverFields)
  /**
   * codex-ts: a child's status changed (it started working, finished, failed, was closed), so a
   * front end can show each sub-agent's activity as it happens. `depth` 1 is a direct child.
   */
  | ({ type: "sub_agent_status"; parent_thread_id: string; depth: number } & AgentStatusEntry);

/** The tag around the note a finished child leaves in its parent's history. */
export const SUBAGENT_NOTIFICATION_TAG = "subagent_notification";

/** The note itself, as the reference words it: the agent's id and its final status, as JSON. */
export function subagentNotificationText(threadId: string, status: AgentStatus): string {
  return `<${SUBAGENT_NOTIFICATION_TAG}>\n${JSON.stringify({ agent_path: threadId, status })}\n</${SUBAGENT_NOTIFICATION_TAG}>`;
}
