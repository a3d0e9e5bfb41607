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
 * - A sub-agent's questions also go to its parent's questions (its "upstream"), under a key of
 *   their own that names the agent, so the user answers them where they are: in the front end of
 *   the thread they talk to. An answer from either side answers the one question; both sides see
 *   it resolved.
 */
import type { AgentRef } from "../protocol/collab.js";
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
  /** `given`: what the user answered, when the asker gets something else. */
  settle(outcome: QuestionOutcome, given?: QuestionAnswer): void;
}

/** Where a sub-agent's questions also go: its parent's questions, asked in the parent's current scope. */
export interface QuestionUpstream {
  agent: AgentRef;
  questions: Questions;
  /** The parent's emitter as of now (its running turn's, or its own between turns). */
  emit(msg: EventMsg): void;
}

/** The key a sub-agent's question has among its parent's questions. */
export function relayedKey(agent: AgentRef, key: string): string {
  return `${agent.thread_id}:${key}`;
}

export class Questions {
  /** Insertion-ordered, so "the oldest open question of a turn" is the first match. */
  private readonly open = new Map<string, OpenQuestion>();

  constructor(private readonly upstream: QuestionUpstream | null = null) {}

  /** Asks and waits for the answer; resolves at once with `nobody_can_answer` when no one can answer. */
  ask(request: QuestionRequest, scope: AskScope): Promise<QuestionOutcome> {
    if (nobodyCanAnswer(scope.approvalPolicy)) return Promise.resolve({ kind: "cancelled", reason: "nobody_can_answer" });
    const key = questionKey(request);
    // Registered before the event goes out: a front end may answer from inside `emit`.
    const outcome = new Promise<QuestionOutcome>((settle) => this.open.set(key, { request, emit: (msg) => scope.emit(msg), settle }));
    scope.emit({ type: "question_asked", key, request });
    this.upstream?.questions.relay(this.upstream, key, request, (answer, given) => this.answer(key, answer, given ?? answer));
    return outcome;
  }

  /**
   * A sub-agent's open question, asked again here (the parent's side) under its relayed key:
   * answering it here answers the sub-agent's; closing it here (an interrupt, a shutdown)
   * withdraws the sub-agent's.
   */
  private relay(upstream: QuestionUpstream, key: string, request: QuestionRequest, answerChild: (answer: QuestionAnswer, given?: QuestionAnswer) => void): void {
    const relayed = relayedKey(upstream.agent, key);
    const settle = (outcome: QuestionOutcome, given?: QuestionAnswer): void => answerChild(outcome.kind === "answered" ? outcome.answer : { type: "cancel" }, given);
    this.open.set(relayed, { request, emit: (msg) => upstream.emit(msg), settle });
    upstream.emit({ type: "question_asked", key: relayed, request, agent: upstream.agent });
  }

  /** The sub-agent's question closed on its side: it closes here too, with nothing sent back. */
  private closeRelayed(relayed: string, outcome: QuestionOutcome, given?: QuestionAnswer): void {
    const question = this.open.get(relayed);
    if (!question) return;
    this.open.delete(relayed);
    question.emit({ type: "question_resolved", key: relayed, outcome: outcome.kind, ...(given ? { answer: given } : {}) });
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
    question.settle(outcome, given);
    if (this.upstream) this.upstream.questions.closeRelayed(relayedKey(this.upstream.agent, key), outcome, given);
    return true;
  }
}
