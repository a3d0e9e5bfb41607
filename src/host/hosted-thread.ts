/**
 * One thread as a front end drives it: the thread's handle, one pump that reads its events in
 * order, and turns run one after another with their end detected the same way for everyone.
 *
 * A turn ends with its submission's `task_complete` or `turn_aborted`; a submission that fails
 * before starting a task (an `error` with no `task_started` for it) ends at that error. While a
 * turn runs, every event goes to its listener (MCP start-up progress and warnings included);
 * between turns, to the thread's own listener.
 */
import type { Event } from "../protocol/events.js";
import type { Op } from "../protocol/ops.js";
import type { ReviewOutputEvent } from "../protocol/review.js";
import type { EventStream, ThreadHandle } from "../protocol/thread-handle.js";

export type EventListener = (event: Event) => void | Promise<void>;

export interface TurnOutcome {
  /** completed: task_complete without an error; failed: an error; aborted: turn_aborted; ended: the thread shut down first. */
  status: "completed" | "failed" | "aborted" | "ended";
  /** The submission id the turn's events carried. */
  subId: string;
  lastAgentMessage: string | null;
  /** The first error of the turn, as the user should read it. */
  error: string | null;
  abortReason: string | null;
  /** A review's findings (null for other turns, or a review that did not finish). */
  reviewOutput: ReviewOutputEvent | null;
}

interface RunningTurn {
  subId: string;
  listener: EventListener;
  started: boolean;
  outcome: TurnOutcome;
  done: (outcome: TurnOutcome) => void;
}

export class HostedThread implements ThreadHandle {
  readonly threadId: string;
  private listener: EventListener = () => undefined;
  private turn: RunningTurn | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private pumping: Promise<void> | null = null;
  private ended = false;

  constructor(
    private readonly handle: ThreadHandle,
    /** Things to tell the user before the run (a fork's new id, "nothing to resume"). */
    readonly notices: string[] = [],
  ) {
    this.threadId = handle.threadId;
  }

  submit(op: Op): string {
    return this.handle.submit(op);
  }

  nextEvent(): Promise<Event | null> {
    return this.handle.nextEvent();
  }

  subscribe(): EventStream {
    return this.handle.subscribe();
  }

  /** Whether the thread has shut down (its events have all been read). */
  get closed(): boolean {
    return this.ended;
  }

  /** Starts the pump (once): events outside a turn go to `listener`. Resolves when the thread has shut down. */
  listen(listener: EventListener): Promise<void> {
    this.listener = listener;
    this.pumping ??= this.pump();
    return this.pumping;
  }

  /** Where events outside a turn go, without starting the pump (the first turn or `listen` starts it). */
  setIdleListener(listener: EventListener): void {
    this.listener = listener;
  }

  /**
   * Runs `op` as a turn once the previous one has ended; its events go to `listener`.
   * `onSubmitted` is told when the op went in (from then on an interrupt reaches this turn).
   */
  runTurn(op: Op, listener: EventListener, onSubmitted?: (subId: string) => void): Promise<TurnOutcome> {
    const run = this.queue.then(() => this.start(op, listener, onSubmitted));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Shuts the thread down and waits until its last event was handled. */
  async shutdown(): Promise<void> {
    if (!this.ended) this.handle.submit({ type: "shutdown" });
    this.pumping ??= this.pump();
    await this.pumping;
  }

  private start(op: Op, listener: EventListener, onSubmitted: ((subId: string) => void) | undefined): Promise<TurnOutcome> {
    return new Promise((done) => {
      if (this.ended) {
        done({ ...emptyOutcome(""), status: "ended" });
        return;
      }
      const subId = this.handle.submit(op);
      this.turn = { subId, listener, started: false, outcome: emptyOutcome(subId), done };
      onSubmitted?.(subId);
      // Started with the first turn when nobody listened before: what was queued belongs to it.
      this.pumping ??= this.pump();
    });
  }

  private async pump(): Promise<void> {
    for (;;) {
      const event = await this.handle.nextEvent();
      if (!event) break;
      const turn = this.turn;
      await (turn ? turn.listener : this.listener)(event);
      if (turn) this.track(turn, event);
    }
    this.ended = true;
    const turn = this.turn;
    if (turn) this.finish(turn, "ended");
  }

  private track(turn: RunningTurn, event: Event): void {
    if (event.id !== turn.subId) return;
    const msg = event.msg;
    const outcome = turn.outcome;
    switch (msg.type) {
      case "task_started":
        turn.started = true;
        return;
      case "error":
        outcome.error ??= msg.message;
        // Failed before any task started: nothing else will come for this submission.
        if (!turn.started) this.finish(turn, "failed");
        return;
      case "exited_review_mode":
        outcome.reviewOutput = msg.review_output;
        return;
      case "task_complete":
        outcome.lastAgentMessage = msg.last_agent_message;
        this.finish(turn, outcome.error === null ? "completed" : "failed");
        return;
      case "turn_aborted":
        outcome.abortReason = msg.reason;
        this.finish(turn, "aborted");
        return;
      default:
        return;
    }
  }

  private finish(turn: RunningTurn, status: TurnOutcome["status"]): void {
    if (this.turn === turn) this.turn = null;
    turn.done({ ...turn.outcome, status });
  }
}

function emptyOutcome(subId: string): TurnOutcome {
  return { status: "completed", subId, lastAgentMessage: null, error: null, abortReason: null, reviewOutput: null };
}
