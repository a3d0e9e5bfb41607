/**
 * `exec --json` items for the collab tools, as the reference's exec writes them: each begin
 * event opens a `collab_tool_call` item (in_progress, no agent states yet) and its end event
 * completes the same item id with the states of the agents concerned. A call that reached no
 * agent, or found one errored or unknown, is `failed`. resume_agent shows as tool `wait`, as in
 * the reference; a wait that timed out completes with no receivers and no states.
 */
import { agentStatusMessage, agentStatusName, isFailedStatus, type AgentStatus, type CollabEventMsg } from "../protocol/collab.js";
import type { CollabAgentState, CollabToolCallThreadItem } from "../protocol/thread-events.js";

export type CollabItemEvent = { type: "item.started" | "item.completed"; item: CollabToolCallThreadItem };

type ToolCallEvent = Exclude<CollabEventMsg, { type: "sub_agent_status" }>;

/** Keeps the item id of each call between its begin and end events. */
export class CollabItemMapper {
  private readonly open = new Map<string, string>();

  constructor(private readonly nextItemId: () => string) {}

  /** The item event for a collab event; none for `sub_agent_status`, which exec does not show. */
  map(msg: CollabEventMsg): CollabItemEvent[] {
    if (msg.type === "sub_agent_status") return [];
    return [this.item(msg)];
  }

  private item(msg: ToolCallEvent): CollabItemEvent {
    const sender = msg.sender_thread_id;
    switch (msg.type) {
      case "collab_agent_spawn_begin":
        return this.started(msg.call_id, "spawn_agent", sender, [], msg.prompt);
      case "collab_agent_interaction_begin":
        return this.started(msg.call_id, "send_input", sender, [msg.receiver_thread_id], msg.prompt);
      case "collab_waiting_begin":
        return this.started(msg.call_id, "wait", sender, msg.receiver_thread_ids, null);
      case "collab_close_begin":
        return this.started(msg.call_id, "close_agent", sender, [msg.receiver_thread_id], null);
      case "collab_resume_begin":
        return this.started(msg.call_id, "wait", sender, [msg.receiver_thread_id], null);
      case "collab_agent_spawn_end": {
        const spawned = msg.new_thread_id;
        return this.completed(msg.call_id, "spawn_agent", sender, msg.prompt, spawned === null ? [] : [[spawned, msg.status]], spawned === null);
      }
      case "collab_agent_interaction_end":
        return this.completed(msg.call_id, "send_input", sender, msg.prompt, [[msg.receiver_thread_id, msg.status]]);
      case "collab_waiting_end":
        return this.completed(msg.call_id, "wait", sender, null, msg.agent_statuses.map((a) => [a.thread_id, a.status] as const));
      case "collab_close_end":
        return this.completed(msg.call_id, "close_agent", sender, null, [[msg.receiver_thread_id, msg.status]]);
      case "collab_resume_end":
        return this.completed(msg.call_id, "wait", sender, null, [[msg.receiver_thread_id, msg.status]]);
    }
  }

  private started(callId: string, tool: Tool, sender: string, receivers: string[], prompt: string | null): CollabItemEvent {
    const id = this.nextItemId();
    this.open.set(callId, id);
    return { type: "item.started", item: item(id, tool, sender, receivers, prompt, {}, "in_progress") };
  }

  private completed(
    callId: string,
    tool: Tool,
    sender: string,
    prompt: string | null,
    states: ReadonlyArray<readonly [string, AgentStatus]>,
    failed = false,
  ): CollabItemEvent {
    const id = this.open.get(callId) ?? this.nextItemId();
    this.open.delete(callId);
    const agentsStates: Record<string, CollabAgentState> = {};
    for (const [threadId, status] of states) agentsStates[threadId] = { status: agentStatusName(status), message: agentStatusMessage(status) };
    const anyFailed = failed || states.some(([, status]) => isFailedStatus(status));
    const receivers = states.map(([threadId]) => threadId);
    return { type: "item.completed", item: item(id, tool, sender, receivers, prompt, agentsStates, anyFailed ? "failed" : "completed") };
  }
}

type Tool = CollabToolCallThreadItem["tool"];

/** The item with its keys in the reference's order. */
function item(
  id: string,
  tool: Tool,
  sender: string,
  receivers: string[],
  prompt: string | null,
  agentsStates: Record<string, CollabAgentState>,
  status: CollabToolCallThreadItem["status"],
): CollabToolCallThreadItem {
  return { id, type: "collab_tool_call", tool, sender_thread_id: sender, receiver_thread_ids: receivers, prompt, agents_states: agentsStates, status };
}
