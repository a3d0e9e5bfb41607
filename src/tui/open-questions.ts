/**
 * The questions a thread has open, as the UI keeps them: an overlay for each until it is
 * resolved (answered here, or closed by the core), and what it asked and who asked (the thread,
 * or a sub-agent through it), so the answer joins the conversation as a decision cell. Replayed
 * questions (a resume's redraw) get no overlay but still give their answers' cells.
 */
import type { EventMsg, QuestionRequest } from "../protocol/events.js";
import { agentName } from "../presentation/collab-text.js";
import { questionSummary } from "../presentation/questions.js";
import { decisionCell } from "./decision-cells.js";
import { decisionOf, questionOverlay, type QuestionContext } from "./questions.js";
import type { Overlay } from "./overlays.js";

type Msg<T extends EventMsg["type"]> = Extract<EventMsg, { type: T }>;

/** What the questions need of the UI. */
export interface QuestionSurface {
  /** How overlays are drawn and answers sent, as of now (the cwd may change between questions). */
  context(): Omit<QuestionContext, "asker">;
  open(overlay: Overlay): void;
  commit(render: (width: number) => string[]): void;
  /** A question is waiting (the UI may notify an unfocused terminal). */
  waiting(summary: string): void;
}

export class OpenQuestions {
  private readonly overlays = new Map<string, Overlay>();
  private readonly asked = new Map<string, { request: QuestionRequest; asker: string | null }>();

  constructor(private readonly surface: QuestionSurface) {}

  ask(msg: Msg<"question_asked">, replay: boolean): void {
    const asker = msg.agent ? agentName(msg.agent) : null;
    this.asked.set(msg.key, { request: msg.request, asker });
    if (replay) return;
    const overlay = questionOverlay(msg.key, msg.request, { ...this.surface.context(), ...(asker !== null ? { asker } : {}) });
    this.overlays.set(msg.key, overlay);
    this.surface.open(overlay);
    this.surface.waiting(questionSummary(msg.request));
  }

  resolve(msg: Msg<"question_resolved">): void {
    const context = this.surface.context();
    const overlay = this.overlays.get(msg.key);
    this.overlays.delete(msg.key);
    if (overlay) context.close(overlay);
    // The user's answer joins the conversation (recorded, so a resume shows it too).
    const asked = this.asked.get(msg.key);
    this.asked.delete(msg.key);
    const decision = asked && msg.answer ? decisionOf(asked.request, msg.answer, context.cwd) : null;
    if (decision) this.surface.commit((width) => decisionCell(decision.subject, decision.decision, context.style, width, asked?.asker ?? null));
  }

  /** Another thread is shown: its questions are its own (their overlays are cleared with the others). */
  clear(): void {
    this.overlays.clear();
    this.asked.clear();
  }
}
