/**
 * A code review as a task of its own. The reviewer works in a history of its own (the
 * environment, then what to review), under our review instructions and the review model, with
 * the parent's sandbox and approval policy. Nothing of it enters the parent thread while it
 * runs, and its text is not streamed: front ends get entered_review_mode, then
 * exited_review_mode with the parsed findings. The parent thread is then told the result (or
 * that the review was interrupted) in one message, which is also what the rollout keeps. No
 * lifecycle hook runs for the reviewer's calls.
 */
import type { EventMsg } from "../../protocol/events.js";
import type { ReviewOutputEvent } from "../../protocol/review.js";
import { userText } from "../../protocol/items.js";
import { ConversationHistory } from "../history.js";
import { runTurn } from "../turn.js";
import { parseReviewOutput, reviewResultMessage } from "../review/review-output.js";
import { REVIEW_INSTRUCTIONS } from "../review/review-prompt.js";
import type { SessionTask, TaskContext } from "./task.js";
import type { ResponseItem } from "../../protocol/items.js";

/** Events of the reviewer that front ends do not show: its answer arrives as the review output. */
const HIDDEN = new Set<EventMsg["type"]>(["agent_message_delta", "agent_message"]);

export class ReviewTask implements SessionTask {
  readonly kind = "review";
  private exited = false;

  constructor(
    private readonly prompt: string,
    /** What the reviewer's history starts with (the environment context). */
    private readonly context: ResponseItem[],
    /** Told the outcome: the parent thread's history. */
    private readonly parentHistory: ConversationHistory,
    private readonly emitToParent: (msg: EventMsg) => void,
  ) {}

  async run(ctx: TaskContext): Promise<string | null> {
    const history = new ConversationHistory();
    history.append(...this.context, userText(this.prompt));
    // Lifecycle hooks are the user's session's, not the reviewer's (as in the reference, whose
    // reviewer is an internal sub-agent without them).
    const { hooks: _hooks, ...services } = ctx.turn.services;
    // The reviewer's own history and instructions; its answer arrives as the review output, and
    // its rate limits and compaction are none of the parent thread's.
    const last = await runTurn({
      ...ctx,
      turn: { ...ctx.turn, services },
      history,
      baseInstructions: REVIEW_INSTRUCTIONS,
      emit: (msg) => {
        if (!HIDDEN.has(msg.type)) ctx.emit(msg);
      },
      recordRateLimits: () => undefined,
      compaction: null,
    });
    if (!ctx.signal.aborted) this.exit(last === null ? null : parseReviewOutput(last), true);
    return null;
  }

  onAbort(): void {
    this.exit(null, false);
  }

  /** Once: exited_review_mode, then the parent thread hears how it went. */
  private exit(output: ReviewOutputEvent | null, completed: boolean): void {
    if (this.exited) return;
    this.exited = true;
    const result = completed ? (output ?? parseReviewOutput("")) : null;
    this.emitToParent({ type: "exited_review_mode", review_output: result });
    this.parentHistory.append(userText(reviewResultMessage(result)));
  }
}
