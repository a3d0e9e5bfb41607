/**
 * Sub-agents in the interactive UI: a cell for each thing they do (started, told, waited for,
 * working, done, failed, closed), naming each by its nickname, and a live line while any of the
 * thread's sub-agents is at work. It also keeps the children's latest status for `/agent`.
 * Everything comes from the parent's collab events (protocol/collab.ts).
 */
import type { AgentStatus, CollabEventMsg } from "../protocol/collab.js";
import { agentStatusName } from "../protocol/collab.js";
import { agentName, collabLine, statusPhrase, type CollabLine } from "../presentation/collab-text.js";
import { prefixed, printable, type CellStyle } from "./cells.js";

export interface KnownAgent {
  threadId: string;
  nickname: string | null;
  role: string | null;
  status: AgentStatus;
  closed: boolean;
}

/** Lines of an answer or task shown under a cell; the rest is in the agent's own conversation. */
const MAX_DETAIL_LINES = 3;

export class AgentActivity {
  private readonly agents = new Map<string, KnownAgent>();

  /** Takes the event in; returns the cell to commit for it (null when it adds nothing to scrollback). */
  handle(msg: CollabEventMsg): CollabLine | null {
    this.track(msg);
    return collabLine(msg);
  }

  /** The thread's sub-agents, in the order they were started. */
  list(): KnownAgent[] {
    return [...this.agents.values()];
  }

  reset(): void {
    this.agents.clear();
  }

  /** While sub-agents work: one line naming them (and those just starting), with the way to watch them when there is one. */
  liveLines(style: CellStyle, width: number, watchable = true): string[] {
    const busy = this.list().filter((a) => !a.closed && (a.status === "running" || a.status === "pending_init"));
    if (busy.length === 0) return [];
    const t = style.theme;
    const names = busy.map((a) => `${agentName({ thread_id: a.threadId, agent_nickname: a.nickname, agent_role: a.role })} ${statusPhrase(a.status)}`);
    return [...prefixed(t.fg("accent", "◦ "), "  ", t.dim(`${names.join(" · ")}${watchable ? " (/agent to watch)" : ""}`), width), ""];
  }

  private track(msg: CollabEventMsg): void {
    switch (msg.type) {
      case "collab_agent_spawn_end":
        if (msg.new_thread_id !== null) {
          this.agents.set(msg.new_thread_id, { threadId: msg.new_thread_id, nickname: msg.new_agent_nickname, role: msg.new_agent_role, status: "pending_init", closed: false });
        }
        return;
      case "sub_agent_status": {
        const known = this.agents.get(msg.thread_id) ?? { threadId: msg.thread_id, nickname: msg.agent_nickname, role: msg.agent_role, status: msg.status, closed: false };
        this.agents.set(msg.thread_id, { ...known, status: msg.status, closed: agentStatusName(msg.status) === "shutdown" });
        return;
      }
      case "collab_close_end": {
        const known = this.agents.get(msg.receiver_thread_id);
        if (known) known.closed = true;
        return;
      }
      case "collab_resume_end": {
        const known = this.agents.get(msg.receiver_thread_id);
        if (known && msg.status !== "not_found") known.closed = false;
        return;
      }
      default:
        return;
    }
  }
}

/** A cell for one line of sub-agent activity: a bullet by tone, the title, a few lines of detail. */
export function agentActivityCell(line: CollabLine, style: CellStyle, width: number): string[] {
  const t = style.theme;
  const bullet = line.tone === "error" ? t.fg("error", "• ") : line.tone === "success" ? t.fg("success", "• ") : t.fg("accent", "• ");
  const lines = prefixed(bullet, "  ", t.bold(printable(line.title)), width);
  if (line.detail) {
    const detail = line.detail.split("\n").filter((l) => l.trim() !== "");
    const shown = detail.slice(0, MAX_DETAIL_LINES);
    shown.forEach((text, i) => lines.push(...prefixed(t.dim(i === 0 ? "  └ " : "    "), "    ", t.dim(printable(text)), width)));
    if (detail.length > shown.length) lines.push(t.dim(`    … ${detail.length - shown.length} more line(s)`));
  }
  return [...lines, ""];
}
