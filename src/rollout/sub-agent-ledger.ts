/**
 * A thread's sub-agents as its rollout records them: each child started (`collab_agent_spawn_end`),
 * its last reported status (`sub_agent_status`), and whether it was closed (`collab_close_end`) or
 * reopened (`collab_resume_end`). A resumed thread knows its children again from this.
 */
import type { AgentStatus } from "../protocol/collab.js";

export interface RecordedSubAgent {
  threadId: string;
  nickname: string;
  role: string | null;
  status: AgentStatus;
  closed: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Event kinds the ledger reads. */
export function isLedgerEvent(kind: string | undefined): boolean {
  return kind === "collab_agent_spawn_end" || kind === "collab_close_end" || kind === "collab_resume_end" || kind === "sub_agent_status";
}

export class SubAgentLedger {
  private readonly agents = new Map<string, RecordedSubAgent>();

  add(payload: Json | null): void {
    if (!payload) return;
    switch (payload.type) {
      case "collab_agent_spawn_end": {
        const id = payload.new_thread_id;
        if (typeof id !== "string") return;
        this.agents.set(id, {
          threadId: id,
          nickname: typeof payload.new_agent_nickname === "string" ? payload.new_agent_nickname : id.slice(-6),
          role: typeof payload.new_agent_role === "string" ? payload.new_agent_role : null,
          status: "pending_init",
          closed: false,
        });
        return;
      }
      case "sub_agent_status": {
        const agent = this.find(payload.thread_id);
        const status = agentStatus(payload.status);
        // A thread ending says nothing of where the agent stood: its parent closing ends it too.
        if (agent && status && status !== "shutdown") agent.status = status;
        return;
      }
      case "collab_close_end": {
        const agent = this.find(payload.receiver_thread_id);
        if (agent && payload.status !== "not_found") agent.closed = true;
        return;
      }
      case "collab_resume_end": {
        const agent = this.find(payload.receiver_thread_id);
        if (agent && payload.status !== "not_found") agent.closed = false;
        return;
      }
      default:
        return;
    }
  }

  /**
   * The children, as a resumed parent takes them back. A child recorded as working was cut off
   * when the previous process ended: it is interrupted now.
   */
  list(): RecordedSubAgent[] {
    return [...this.agents.values()].map((agent) =>
      agent.status === "running" || agent.status === "pending_init" ? { ...agent, status: "interrupted" } : agent,
    );
  }

  private find(id: unknown): RecordedSubAgent | undefined {
    return typeof id === "string" ? this.agents.get(id) : undefined;
  }
}

function agentStatus(v: unknown): AgentStatus | null {
  if (v === "pending_init" || v === "running" || v === "interrupted" || v === "shutdown" || v === "not_found") return v;
  if (!isObject(v)) return null;
  if ("completed" in v) return { completed: typeof v.completed === "string" ? v.completed : null };
  if (typeof v.errored === "string") return { errored: v.errored };
  return null;
}
