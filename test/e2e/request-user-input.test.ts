/**
 * The request_user_input tool through the core's seam: the question goes out as an event, a
 * `user_input_answer` op answers it, and the answer reaches the model in the next request.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Event } from "../../src/protocol/events.js";
import { fnCall, text, turn, type ModelServer } from "../support/model-server.js";
import { askedRequest, timed, turnIdIn, until, untilAsked, withSession } from "../support/session.js";

const QUESTIONS = {
  questions: [
    {
      id: "scope",
      header: "Scope",
      question: "Refactor the whole module or just the parser?",
      options: [
        { label: "Parser only (Recommended)", description: "Smaller change." },
        { label: "Whole module", description: "Cleaner, but touches more files." },
      ],
    },
  ],
};

function answerSent(server: ModelServer, callId: string): unknown {
  const input = server.requests[1]?.body.input ?? [];
  return input.find((i) => i.type === "function_call_output" && i.call_id === callId)?.output;
}

function question(events: Event[]): Extract<Event["msg"], { type: "request_user_input" }> {
  const msg = askedRequest(events);
  assert.ok(msg?.type === "request_user_input");
  return msg;
}

void test("a question is answered through the op, keyed by call id, and the answer reaches the model", async () => {
  await withSession(
    [turn(fnCall("request_user_input", QUESTIONS, "call_ask")), turn(text("Parser it is."))],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "refactor" }] });
      const events = await untilAsked(session, id, "request_user_input");
      assert.deepEqual(question(events), {
        type: "request_user_input",
        call_id: "call_ask",
        turn_id: turnIdIn(events, id),
        questions: [{ ...QUESTIONS.questions[0], isOther: true, isSecret: false }],
      });
      session.submit({ type: "user_input_answer", id: "call_ask", response: { answers: { scope: { answers: ["Parser only (Recommended)"] } } } });
      const rest = await until(session, id, "task_complete");
      assert.deepEqual(timed(rest.at(-1)?.msg), { type: "task_complete", turn_id: turnIdIn(events, id), last_agent_message: "Parser it is." });
      assert.equal(answerSent(server, "call_ask"), '{"answers":{"scope":{"answers":["Parser only (Recommended)"]}}}');
    },
    { settings: { approvalPolicy: "on-request" } },
  );
});

void test("an answer addressed to the turn id, as reference front ends send it, is accepted too", async () => {
  await withSession(
    [turn(fnCall("request_user_input", QUESTIONS, "call_ask")), turn(text("Whole module then."))],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "refactor" }] });
      const events = await untilAsked(session, id, "request_user_input");
      session.submit({ type: "user_input_answer", id: question(events).turn_id, response: { answers: { scope: { answers: ["Whole module", "user_note: keep the API"] } } } });
      await until(session, id, "task_complete");
      assert.equal(answerSent(server, "call_ask"), '{"answers":{"scope":{"answers":["Whole module","user_note: keep the API"]}}}');
    },
    { settings: { approvalPolicy: "untrusted" } },
  );
});

void test("an interrupt while a question waits ends the turn; the session keeps working", async () => {
  await withSession(
    [turn(fnCall("request_user_input", QUESTIONS, "call_ask")), turn(text("fresh"))],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "refactor" }] });
      const asked = await untilAsked(session, id, "request_user_input");
      session.submit({ type: "interrupt" });
      const aborted = await until(session, id, "turn_aborted");
      assert.deepEqual(timed(aborted.at(-1)?.msg), { type: "turn_aborted", turn_id: turnIdIn(asked, id), reason: "interrupted" });
      // The question is closed for every front end before the turn's last word.
      assert.deepEqual(aborted.at(-2)?.msg, { type: "question_resolved", key: "call_ask", outcome: "cancelled" });
      // A late answer finds nothing waiting and changes nothing.
      session.submit({ type: "user_input_answer", id: "call_ask", response: { answers: {} } });
      const next = session.submit({ type: "user_input", items: [{ type: "text", text: "again" }] });
      const after = await until(session, next, "task_complete");
      assert.deepEqual(timed(after.at(-1)?.msg), { type: "task_complete", turn_id: turnIdIn(after, next), last_agent_message: "fresh" });
      const input = server.requests[1]?.body.input ?? [];
      assert.equal(input.find((i) => i.type === "function_call_output" && i.call_id === "call_ask")?.output, "aborted");
    },
    { settings: { approvalPolicy: "on-request" } },
  );
});

void test("answer_question answers by the question's key, and question_resolved closes it", async () => {
  await withSession(
    [turn(fnCall("request_user_input", QUESTIONS, "call_ask")), turn(text("Parser it is."))],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "refactor" }] });
      const events = await untilAsked(session, id, "request_user_input");
      const asked = events.at(-1)?.msg;
      assert.ok(asked?.type === "question_asked");
      session.submit({ type: "answer_question", key: asked.key, answer: { type: "user_input", response: { answers: { scope: { answers: ["Parser only (Recommended)"] } } } } });
      const rest = await until(session, id, "task_complete");
      assert.ok(rest.some((e) => e.msg.type === "question_resolved" && e.msg.key === asked.key && e.msg.outcome === "answered"));
      const input = server.requests[1]?.body.input ?? [];
      assert.equal(input.find((i) => i.type === "function_call_output" && i.call_id === "call_ask")?.output, '{"answers":{"scope":{"answers":["Parser only (Recommended)"]}}}');
    },
    { settings: { approvalPolicy: "on-request" } },
  );
});
