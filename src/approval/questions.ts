/**
 * Every question the agent asks the user and waits for, on one path: command, patch and MCP-tool
 * approvals, request_user_input, and MCP servers' elicitations.
 *
 * - Asking emits one `question_asked {key, request}` (`request` is the reference's own event for
 *   that kind) and waits; one `answer_question` op answers it by key, and a `question_resolved`
 *   event (with the answer) closes it for every front end. Both are recorded, so a resumed UI
 *   shows the user's decision where it showed it live.
 * - One rule for "nobody can answer": under approval policy `never` (exec) no question goes out;
 *   the asker gets `nobody_can_answer` at once and falls back to its own default.
 * - One behaviour on interrupt and shutdown: every open question is resolved as cancelled.
 */
import type { QuestionRequest } from "../protocol/events.js";
import type { EventMsg } from "../protocol/events.js";
import type { QuestionAnswer } from "../protocol/ops.js";
import type { AskForApproval } from "../protocol/policy.js";

export type CancelReason = "nobody_can_answer" | "interrupted" | "shutdown" | "withdrawn";

export type QuestionOutcome = { kind: "answered"; answer: QuestionAnswer } | { kind: "cancelled"; reason: CancelReason };

/** Where a question is asked from: the emitter of its turn (or the session's), and the policy in force. */
export interface AskScope {
  emit(msg: EventMsg): void;
  approvalPolicy: AskForApproval;
}

/** The one "nobody can answer" rule: approval policy `never` means no one is there to ask. */
export function nobodyCanAnswer(policy: AskForApproval): boolean {
  return policy === "never";
}

/** A question's key: the tool call's id for tool questions, the server and request id for an elicitation. */
export function questionKey(request: QuestionRequest): string {
  return request.type === "elicitation_request" ? `elicitation:${JSON.stringify([request.server_name, request.id])}` : request.call_id;
}

interface OpenQuestion {
  request: QuestionRequest;
  emit(msg: EventMsg): void;
  settle(outcome: QuestionOutcome): void;
}

export class Questions {
  /** Insertion-ordered, so "the oldest open question of a turn" is the first match. */
  private readonly open = new Map<string, OpenQuestion>();

  /** Asks and waits for the answer; resolves at once with `nobody_can_answer` when no one can answer. */
  ask(request: QuestionRequest, scope: AskScope): Promise<QuestionOutcome> {
    if (nobodyCanAnswer(scope.approvalPolicy)) return Promise.resolve({ kind: "cancelled", reason: "nobody_can_answer" });
    const key = questionKey(request);
    // Registered before the event goes out: a front end may answer from inside `emit`.
    const outcome = new Promise<QuestionOutcome>((settle) => this.open.set(key, { request, emit: (msg) => scope.emit(msg), settle }));
    scope.emit({ type: "question_asked", key, request });
    return outcome;
  }

  /**
   * Delivers an answer; false when no question is open under `key`. `given`: what the user
   * answered, when the asker gets something else (a "stop" reaches the tool as a denial), for
   * question_resolved to tell.
   */
  answer(key: string, answer: QuestionAnswer, given: QuestionAnswer = answer): boolean {
    if (answer.type === "cancel") return this.close(key, { kind: "cancelled", reason: "withdrawn" });
    return this.close(key, { kind: "answered", answer }, given);
  }

  /** The key of the oldest open question `matches` accepts, or null. */
  find(matches: (request: QuestionRequest) => boolean): string | null {
    for (const [key, question] of this.open) if (matches(question.request)) return key;
    return null;
  }

  has(key: string): boolean {
    return this.open.has(key);
  }

  /** Interrupt or shutdown: every open question is resolved as cancelled, in the order asked. */
  cancelAll(reason: CancelReason): void {
    for (const key of [...this.open.keys()]) this.close(key, { kind: "cancelled", reason });
  }

  private close(key: string, outcome: QuestionOutcome, given?: QuestionAnswer): boolean {
    const question = this.open.get(key);
    if (!question) return false;
    this.open.delete(key);
    question.emit({ type: "question_resolved", key, outcome: outcome.kind, ...(given ? { answer: given } : {}) });
    question.settle(outcome);
    return true;
  }
}
