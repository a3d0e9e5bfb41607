/**
 * `/agent`: which thread the UI shows, the user's own or one of its sub-agents'. Watching a
 * sub-agent, its conversation so far is drawn and its events follow live; what the user types
 * (a message, an interrupt, a setting) goes to it. A closed sub-agent's conversation is drawn as
 * recorded, to read: nothing typed goes to it. The user's own thread goes on meanwhile: its
 * questions still come up at once (a sub-agent's relayed question is shown from the sub-agent
 * itself while it is watched), and its other events wait and are drawn on the way back.
 */
import type { Event, EventMsg } from "../protocol/events.js";
import type { Op } from "../protocol/ops.js";
import type { EventStream, ThreadHandle } from "../protocol/thread-handle.js";
import type { SubAgentView } from "../host/front-end-host.js";

/** Ops that set a thread working or change its course: nothing takes them while a closed sub-agent is shown. */
const WORK_OPS: ReadonlySet<Op["type"]> = new Set<Op["type"]>([
  "user_input",
  "user_turn",
  "override_turn_context",
  "interrupt",
  "review",
  "compact",
  "thread_rollback",
  "run_user_shell_command",
  "set_thread_goal",
  "set_thread_goal_status",
  "clear_thread_goal",
]);

/** Events whose content a later event repeats whole: not kept while the main thread waits. */
const DELTAS = new Set(["agent_message_delta", "agent_reasoning_delta", "agent_reasoning_raw_content_delta", "exec_command_output_delta"]);

interface Watched {
  threadId: string;
  /** Null for a closed sub-agent, shown as recorded. */
  live: { thread: ThreadHandle; stream: EventStream } | null;
}

export interface AgentViewTarget {
  /** Draws an event of the thread on screen. */
  show(event: Event): void;
  /** Forgets the live state of the thread on screen (another one is shown next). */
  reset(): void;
  /** The watched sub-agent's thread ended (it was closed): the main thread is shown again. */
  watchedEnded(threadId: string): void;
}

export class AgentView {
  private watched: Watched | null = null;
  /** The main thread's events while a sub-agent is watched. */
  private held: Event[] = [];
  /** Keys of the main thread's questions shown while a sub-agent is watched (their answers go to it). */
  private readonly mainQuestions = new Set<string>();
  /** Relayed questions of the watched sub-agent, which it shows itself. */
  private readonly relayed = new Set<string>();
  /** The main thread's session_configured (without its redraw), to show it again on the way back. */
  private mainConfigured: EventMsg | null = null;
  private mainRunning = false;

  constructor(private readonly target: AgentViewTarget) {}

  /** The sub-agent watched now, or null for the main thread. */
  get watching(): string | null {
    return this.watched?.threadId ?? null;
  }

  /** An event of the main thread: drawn now, or kept for later while a sub-agent is watched. */
  mainEvent(event: Event): void {
    const msg = event.msg;
    if (msg.type === "session_configured") this.mainConfigured = { ...msg, initial_messages: [] };
    if (msg.type === "task_started") this.mainRunning = true;
    if (msg.type === "task_complete" || msg.type === "turn_aborted") this.mainRunning = false;
    if (!this.watched) return this.target.show(event);
    if (msg.type === "question_asked") {
      if (msg.agent?.thread_id === this.watched.threadId) this.relayed.add(msg.key);
      else {
        this.mainQuestions.add(msg.key);
        this.target.show(event);
      }
      return;
    }
    if (msg.type === "question_resolved") {
      if (!this.relayed.delete(msg.key)) this.target.show(event);
      return;
    }
    if (!DELTAS.has(msg.type)) this.held.push(event);
  }

  /**
   * Where an op typed by the user goes: the watched sub-agent, but answers to the main thread's
   * questions go there. While a closed sub-agent is shown, what would make a thread work is
   * refused (null) and the UI's own requests (listings, history) go to the main thread.
   */
  route(op: Op, main: ThreadHandle): ThreadHandle | null {
    const watched = this.watched;
    if (!watched || op.type === "shutdown") return main;
    if (op.type === "answer_question" && this.mainQuestions.has(op.key)) return main;
    if (watched.live) return watched.live.thread;
    return WORK_OPS.has(op.type) ? null : main;
  }

  /**
   * Shows a sub-agent (its conversation so far from `redraw`, then live while its thread is
   * open), or the main thread again (null).
   */
  switchTo(agent: SubAgentView | null, redraw: EventMsg | null): void {
    this.stopWatching();
    this.target.reset();
    if (agent === null || (agent.thread === null && redraw === null)) {
      if (this.mainConfigured) this.target.show({ id: "", msg: this.mainConfigured });
      const held = this.held.splice(0);
      if (this.mainRunning && !held.some((e) => e.msg.type === "task_started")) this.target.show(startedEvent());
      for (const event of held) this.target.show(event);
      this.mainQuestions.clear();
      return;
    }
    const live = agent.thread ? { thread: agent.thread, stream: agent.thread.subscribe() } : null;
    const watched: Watched = { threadId: agent.thread_id, live };
    this.watched = watched;
    if (redraw) this.target.show({ id: "", msg: redraw });
    if (!live) return;
    if (agent.status === "running") this.target.show(startedEvent());
    void this.pump(watched, live.stream);
  }

  /** The main thread is replaced (/new, /resume, /fork): nothing of the old one is kept. */
  forget(): void {
    this.stopWatching();
    this.held = [];
    this.mainQuestions.clear();
    this.mainConfigured = null;
    this.mainRunning = false;
  }

  private stopWatching(): void {
    this.watched?.live?.stream.unsubscribe();
    this.watched = null;
    this.relayed.clear();
  }

  private async pump(watched: Watched, stream: EventStream): Promise<void> {
    for (;;) {
      const event = await stream.next();
      if (this.watched !== watched) return;
      if (!event) {
        this.switchTo(null, null);
        this.target.watchedEnded(watched.threadId);
        return;
      }
      this.target.show(event);
    }
  }
}

/** What the UI needs to draw a turn as running when it starts showing a thread mid-turn. */
function startedEvent(): Event {
  return { id: "", msg: { type: "task_started", turn_id: "", model_context_window: null } };
}
