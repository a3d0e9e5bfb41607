import { test } from "node:test";
import assert from "node:assert/strict";
import { answersFromElicitResult, elicitationAnswer, questionsElicitation } from "./question-form.js";

void test("questions become one string field each; a question without options takes free text", () => {
  const form = questionsElicitation({
    type: "request_user_input",
    call_id: "c",
    turn_id: "0",
    questions: [
      { id: "a", header: "A", question: "Pick one?", isOther: true, isSecret: false, options: [{ label: "x", description: "" }] },
      { id: "b", header: "B", question: "Anything else?", isOther: true, isSecret: false },
    ],
  });
  assert.equal(form.message, "Pick one?\nAnything else?");
  assert.deepEqual(form.requestedSchema.properties, {
    a: { type: "string", title: "A", description: "Pick one?", enum: ["x"] },
    b: { type: "string", title: "B", description: "Anything else?" },
  });
});

void test("only an accepted form answers; empty and non-text fields are left out", () => {
  assert.deepEqual(answersFromElicitResult({ action: "accept", content: { a: "x", b: "", c: 3, d: ["p", "q"] } }), {
    answers: { a: { answers: ["x"] }, d: { answers: ["p", "q"] } },
  });
  assert.deepEqual(answersFromElicitResult({ action: "decline", content: { a: "x" } }), { answers: {} });
  assert.deepEqual(answersFromElicitResult({}), { answers: {} });
});

void test("an MCP server's question gets the client's action back, and the form's content only when it accepted", () => {
  assert.deepEqual(elicitationAnswer({ action: "accept", content: { name: "x" } }), { type: "elicitation", action: "accept", content: { name: "x" } });
  assert.deepEqual(elicitationAnswer({ action: "decline", content: { name: "x" } }), { type: "elicitation", action: "decline" });
  assert.deepEqual(elicitationAnswer({ action: "cancel" }), { type: "elicitation", action: "cancel" });
  assert.deepEqual(elicitationAnswer({ action: "accept", content: ["not", "a", "form"] }), { type: "elicitation", action: "accept" });
  assert.deepEqual(elicitationAnswer({ action: "shrug" }), { type: "elicitation", action: "decline" });
  assert.deepEqual(elicitationAnswer(null), { type: "elicitation", action: "decline" });
});
