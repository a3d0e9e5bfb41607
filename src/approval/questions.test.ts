import { test } from "node:test";
import assert from "node:assert/strict";
import type { EventMsg, QuestionRequest } from "../protocol/events.js";
import { Questions, questionKey } from "./questions.js";

const ask = (callId: string, turnId = "t1"): QuestionRequest => ({ type: "request_user_input", call_id: callId, turn_id: turnId, questions: [] });
const answer = (text: string) => ({ type: "user_input" as const, response: { answers: { q: { answers: [text] } } } });

function scope(policy: "on-request" | "never" = "on-request"): { emit: (msg: EventMsg) => void; events: EventMsg[]; approvalPolicy: "on-request" | "never" } {
  const events: EventMsg[] = [];
  return { events, emit: (msg) => events.push(msg), approvalPolicy: policy };
}

void test("a question goes out once with its key, is answered once, and its resolution is told with the answer", async () => {
  const questions = new Questions();
  const where = scope();
  const first = questions.ask(ask("call_1"), where);
  const second = questions.ask(ask("call_2"), where);
  assert.deepEqual(where.events.map((e) => e.type === "question_asked" && e.key), ["call_1", "call_2"]);
  assert.equal(questions.answer("call_2", answer("two")), true);
  assert.equal(questions.answer("call_1", answer("one")), true);
  assert.deepEqual(await first, { kind: "answered", answer: answer("one") });
  assert.deepEqual(await second, { kind: "answered", answer: answer("two") });
  assert.equal(questions.answer("call_1", answer("again")), false, "each question is answered once");
  assert.deepEqual(where.events.slice(2), [
    { type: "question_resolved", key: "call_2", outcome: "answered", answer: answer("two") },
    { type: "question_resolved", key: "call_1", outcome: "answered", answer: answer("one") },
  ]);
  // An asker may get another answer than the user gave ("stop" reaches a tool as a denial); the event tells the user's.
  const third = questions.ask(ask("call_3"), where);
  questions.answer("call_3", answer("as the asker gets it"), answer("as given"));
  assert.deepEqual(await third, { kind: "answered", answer: answer("as the asker gets it") });
  assert.deepEqual(where.events.at(-1), { type: "question_resolved", key: "call_3", outcome: "answered", answer: answer("as given") });
});

void test("nobody can answer under approval policy never: no event, an immediate cancellation", async () => {
  const questions = new Questions();
  const where = scope("never");
  assert.deepEqual(await questions.ask(ask("call_1"), where), { kind: "cancelled", reason: "nobody_can_answer" });
  assert.deepEqual(where.events, []);
});

void test("an interrupt cancels every open question, elicitations included, in the order asked", async () => {
  const questions = new Questions();
  const where = scope();
  const elicitation: QuestionRequest = { type: "elicitation_request", server_name: "fx", id: 7, message: "size?" };
  const tool = questions.ask(ask("call_1"), where);
  const server = questions.ask(elicitation, where);
  questions.cancelAll("interrupted");
  assert.deepEqual(await tool, { kind: "cancelled", reason: "interrupted" });
  assert.deepEqual(await server, { kind: "cancelled", reason: "interrupted" });
  assert.deepEqual(
    where.events.filter((e) => e.type === "question_resolved"),
    [
      { type: "question_resolved", key: "call_1", outcome: "cancelled" },
      { type: "question_resolved", key: questionKey(elicitation), outcome: "cancelled" },
    ],
  );
  assert.equal(questions.answer("call_1", answer("late")), false, "a cancelled question takes no answer");
});

void test("find names the oldest open question that matches; a cancel answer withdraws it", async () => {
  const questions = new Questions();
  const where = scope();
  void questions.ask(ask("call_x", "t3"), where);
  const first = questions.ask(ask("call_1", "t4"), where);
  void questions.ask(ask("call_2", "t4"), where);
  const oldest = questions.find((r) => r.type === "request_user_input" && r.turn_id === "t4");
  assert.equal(oldest, "call_1");
  questions.answer("call_1", { type: "cancel" });
  assert.deepEqual(await first, { kind: "cancelled", reason: "withdrawn" });
  assert.equal(questions.find((r) => r.type === "request_user_input" && r.turn_id === "t4"), "call_2");
  assert.equal(questions.find(() => false), null);
});

void test("a sub-agent's question is asked again by its parent under a key naming the agent; an answer there answers it", async () => {
  const parent = new Questions();
  const parentScope = scope();
  const agent = { thread_id: "01a21734-94da-7f62-85b3-fc7a5b358fb7", agent_nickname: "Ada", agent_role: null };
  const child = new Questions({ agent, questions: parent, emit: parentScope.emit });
  const childScope = scope();
  const outcome = child.ask(ask("call_1"), childScope);
  const relayedKey = `${agent.thread_id}:call_1`;
  assert.deepEqual(parentScope.events, [{ type: "question_asked", key: relayedKey, request: ask("call_1"), agent }]);
  assert.equal(parent.answer(relayedKey, answer("yes")), true);
  assert.deepEqual(await outcome, { kind: "answered", answer: answer("yes") });
  assert.deepEqual(parentScope.events.slice(1), [{ type: "question_resolved", key: relayedKey, outcome: "answered", answer: answer("yes") }]);
  assert.deepEqual(childScope.events.slice(1), [{ type: "question_resolved", key: "call_1", outcome: "answered", answer: answer("yes") }]);
});

void test("answered or cancelled on the sub-agent's side, the parent's copy closes too; the parent's interrupt withdraws it", async () => {
  const parent = new Questions();
  const parentScope = scope();
  const agent = { thread_id: "01a21734-94da-7f62-85b3-fc7a5b358fb7", agent_nickname: "Ada", agent_role: null };
  const child = new Questions({ agent, questions: parent, emit: parentScope.emit });
  const first = child.ask(ask("call_1"), scope());
  child.answer("call_1", answer("here"));
  assert.deepEqual(await first, { kind: "answered", answer: answer("here") });
  assert.deepEqual(parentScope.events.at(-1), { type: "question_resolved", key: `${agent.thread_id}:call_1`, outcome: "answered", answer: answer("here") });
  const second = child.ask(ask("call_2"), scope());
  parent.cancelAll("interrupted");
  assert.deepEqual(await second, { kind: "cancelled", reason: "withdrawn" });
  assert.equal(parent.has(`${agent.thread_id}:call_2`), false);
  // Nobody can answer under `never`: the parent is not asked either.
  assert.deepEqual(await child.ask(ask("call_3"), scope("never")), { kind: "cancelled", reason: "nobody_can_answer" });
  assert.equal(parentScope.events.filter((e) => e.type === "question_asked").length, 2);
});
