/**
 * Sub-agents' activity as people read it, for every front end that shows it as text (exec's
 * human output, the interactive UI): what each collab tool call did (who was started, told,
 * waited for, closed, reopened) and each change of a child's status, by nickname.
 */
import { agentStatusName, type AgentRef, type AgentStatus, type CollabEventMsg } from "../protocol/collab.js";

export interface CollabLine {
  /** One line: what happened, naming the agents. */
  title: string;
  /** What goes with it (the task, an answer, a failure's reason); null when nothing. */
  detail: string | null;
  tone: "info" | "success" | "error";
}

/** How an agent is named: its nickname (with its role), else its id. */
export function agentName(ref: { thread_id: string; agent_nickname?: string | null; agent_role?: string | null }): string {
  const name = ref.agent_nickname ?? ref.thread_id;
  return ref.agent_role ? `${name} (${ref.agent_role})` : name;
}

/** What a status says, as the end of "Ada …". */
export function statusPhrase(status: AgentStatus): string {
  switch (agentStatusName(status)) {
    case "pending_init":
      return "is starting";
    case "running":
      return "is working";
    case "interrupted":
      return "was interrupted";
    case "completed":
      return "is done";
    case "errored":
      return "failed";
    case "shutdown":
      return "is closed";
    case "not_found":
      return "was not found";
  }
}

function toneOf(status: AgentStatus): CollabLine["tone"] {
  const name = agentStatusName(status);
  return name === "errored" || name === "not_found" ? "error" : name === "completed" ? "success" : "info";
}

function messageOf(status: AgentStatus): string | null {
  return typeof status === "object" ? ("completed" in status ? status.completed : status.errored) : null;
}

/** The line for a collab event; null for the begin events (their end says it all) and for the waits' start. */
export function collabLine(msg: CollabEventMsg): CollabLine | null {
  switch (msg.type) {
    case "collab_agent_spawn_end":
      if (msg.new_thread_id === null) return { title: "Could not start a sub-agent", detail: msg.prompt, tone: "error" };
      return { title: `Started ${agentName({ thread_id: msg.new_thread_id, agent_nickname: msg.new_agent_nickname, agent_role: msg.new_agent_role })}`, detail: msg.prompt, tone: "info" };
    case "collab_agent_interaction_end":
      if (msg.status === "not_found") return { title: `No sub-agent ${msg.receiver_thread_id} to message`, detail: msg.prompt, tone: "error" };
      return { title: `Sent to ${agentName({ thread_id: msg.receiver_thread_id, agent_nickname: msg.receiver_agent_nickname, agent_role: msg.receiver_agent_role })}`, detail: msg.prompt, tone: "info" };
    case "collab_waiting_end":
      return waited(msg.agent_statuses);
    case "collab_close_end":
      if (msg.status === "not_found") return { title: `No sub-agent ${msg.receiver_thread_id} to close`, detail: null, tone: "error" };
      return { title: `Closed ${agentName({ thread_id: msg.receiver_thread_id, agent_nickname: msg.receiver_agent_nickname, agent_role: msg.receiver_agent_role })}`, detail: null, tone: "info" };
    case "collab_resume_end":
      if (msg.status === "not_found") return { title: `No sub-agent ${msg.receiver_thread_id} to reopen`, detail: null, tone: "error" };
      return { title: `Reopened ${agentName({ thread_id: msg.receiver_thread_id, agent_nickname: msg.receiver_agent_nickname, agent_role: msg.receiver_agent_role })}`, detail: null, tone: "info" };
    case "sub_agent_status":
      // Starting and closing are told by the calls that cause them.
      if (msg.status === "pending_init" || msg.status === "shutdown") return null;
      return { title: `${agentName(msg)} ${statusPhrase(msg.status)}`, detail: messageOf(msg.status), tone: toneOf(msg.status) };
    case "collab_agent_spawn_begin":
    case "collab_agent_interaction_begin":
    case "collab_waiting_begin":
    case "collab_close_begin":
    case "collab_resume_begin":
      return null;
  }
}

/**
 * The end of a wait: who had finished, or that the time ran out. The answers themselves were
 * shown when each agent finished (its status line), so they are not repeated.
 */
function waited(statuses: ReadonlyArray<AgentRef & { status: AgentStatus }>): CollabLine {
  if (statuses.length === 0) return { title: "Waited for sub-agents: none finished in time", detail: null, tone: "info" };
  const who = statuses.map((s) => `${agentName(s)} ${statusPhrase(s.status)}`).join(", ");
  return { title: `Waited for sub-agents: ${who}`, detail: null, tone: statuses.some((s) => toneOf(s.status) === "error") ? "error" : "success" };
}

/** Whether an event is one of the collab events (for front ends that route them to one place). */
export function isCollabEvent(msg: { type: string }): msg is CollabEventMsg {
  return msg.type.startsWith("collab_") || msg.type === "sub_agent_status";
}
