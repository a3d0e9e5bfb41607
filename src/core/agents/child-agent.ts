/**
 * One sub-agent as its parent sees it: its names, its thread (while open), and its status, kept
 * from the thread's own events. The parent reads the child's event stream from the start (so
 * nothing piles up unread) and turns turn boundaries into statuses: a turn starting is
 * `running`, one completing is `completed` with its last message, or `errored` with the first
 * error it reported, one interrupted is `interrupted`, and a thread that ends is `shutdown`.
 */
import type { AgentRef, AgentStatus } from "../../protocol/collab.js";
import type { EventMsg } from "../../protocol/events.js";
import type { Session } from "../session.js";

export interface ChildIdentity {
  threadId: string;
  nickname: string;
  role: string | null;
  /** 1 for a child of a user's thread. */
  depth: number;
}

export class ChildAgent {
  readonly threadId: string;
  readonly nickname: string;
  readonly role: string | null;
  readonly depth: number;
  /** The open thread; null while closed, or not yet reopened after the parent was resumed. */
  session: Session | null = null;
  /** Closed by close_agent (or with its parent): only resume_agent reaches it then. */
  closed = false;
  /** How it is redrawn while it has no open thread: the last one it had (see Session.redrawLater), or its recorded file. */
  private redrawEnded: (() => EventMsg | null) | null = null;
  private current: AgentStatus;
  /** Input went in that will start a turn which has not started yet. */
  private startQueued = false;
  private readonly changeWaiters = new Set<() => void>();
  /** Resolves when the watched thread's events end (it shut down). */
  private watching: Promise<void> = Promise.resolve();

  constructor(
    identity: ChildIdentity,
    status: AgentStatus,
    /** Told of every status change (the parent emits it and notes final ones in its history). */
    private readonly onStatus: (child: ChildAgent, status: AgentStatus) => void,
  ) {
    this.threadId = identity.threadId;
    this.nickname = identity.nickname;
    this.role = identity.role;
    this.depth = identity.depth;
    this.current = status;
  }

  get status(): AgentStatus {
    return this.current;
  }

  /** Working, or about to: a turn runs or input waits to start one. */
  get busy(): boolean {
    return this.current === "running" || this.startQueued;
  }

  /** The parent submitted input: unless a turn runs (which takes it in), it starts one. */
  inputSent(): void {
    if (this.current !== "running") this.startQueued = true;
  }

  get ref(): AgentRef {
    return { thread_id: this.threadId, agent_nickname: this.nickname, agent_role: this.role };
  }

  /** Watches a newly opened (or reopened) thread of this agent. */
  attach(session: Session, status: AgentStatus): void {
    this.session = session;
    this.closed = false;
    this.startQueued = false;
    this.set(status);
    this.watching = this.watch(session);
  }

  /** Resolves at the agent's next status change (or at once when `settled` already holds). */
  async until(settled: (status: AgentStatus) => boolean, signal?: AbortSignal): Promise<void> {
    while (!settled(this.current) && !signal?.aborted) await this.nextChange(signal);
  }

  /** Resolves at the next status change of this agent, or when `signal` aborts. */
  nextChange(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.changeWaiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.changeWaiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** Its thread's session_configured with the conversation so far (see SubAgentView.redraw). */
  redraw(): EventMsg | null {
    return this.session ? this.session.redrawEvent() : (this.redrawEnded?.() ?? null);
  }

  /** How a child known only from its parent's record (a resumed parent's) is redrawn until its thread is open. */
  redrawFromRecord(redraw: () => EventMsg | null): void {
    this.redrawEnded = redraw;
  }

  /** Shuts the thread down and waits until it has; the agent is then closed. */
  async shutdown(): Promise<void> {
    const session = this.session;
    this.closed = true;
    if (!session) return;
    session.submit({ type: "shutdown" });
    await this.watching;
    this.session = null;
  }

  private async watch(session: Session): Promise<void> {
    let turnError: string | null = null;
    for (;;) {
      const event = await session.nextEvent();
      if (!event) break;
      const msg = event.msg;
      switch (msg.type) {
        case "task_started":
          turnError = null;
          this.startQueued = false;
          this.set("running");
          break;
        case "error":
          turnError ??= msg.message;
          break;
        case "task_complete":
          this.startQueued = false;
          this.set(turnError === null ? { completed: msg.last_agent_message } : { errored: turnError });
          turnError = null;
          break;
        case "turn_aborted":
          this.startQueued = false;
          this.set("interrupted");
          break;
        default:
          break;
      }
    }
    this.startQueued = false;
    this.redrawEnded = session.redrawLater();
    if (this.session === session) this.set("shutdown");
  }

  private set(status: AgentStatus): void {
    if (JSON.stringify(status) === JSON.stringify(this.current)) return;
    this.current = status;
    this.onStatus(this, status);
    for (const wake of [...this.changeWaiters]) wake();
  }
}
