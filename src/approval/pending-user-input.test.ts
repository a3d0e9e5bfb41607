import { test } from "node:test";
import assert from "node:assert/strict";
import { PendingUserInput } from "./pending-user-input.js";

const answer = (text: string) => ({ answers: { q: { answers: [text] } } });

void test("an answer reaches the call it names, not another one", async () => {
  const pending = new PendingUserInput();
  const signal = new AbortController().signal;
  const first = pending.wait("call_1", "0", signal);
  const second = pending.wait("call_2", "0", signal);
  assert.equal(pending.resolve("call_2", answer("two")), true);
  assert.equal(pending.resolve("call_1", answer("one")), true);
  assert.deepEqual(await first, answer("one"));
  assert.deepEqual(await second, answer("two"));
  assert.equal(pending.resolve("call_1", answer("again")), false, "each question is answered once");
});

void test("an answer addressed to the turn goes to its oldest open question", async () => {
  const pending = new PendingUserInput();
  const signal = new AbortController().signal;
  const other = pending.wait("call_x", "3", signal);
  const first = pending.wait("call_1", "4", signal);
  const second = pending.wait("call_2", "4", signal);
  assert.equal(pending.resolve("4", answer("a")), true);
  assert.equal(pending.resolve("4", answer("b")), true);
  assert.deepEqual(await first, answer("a"));
  assert.deepEqual(await second, answer("b"));
  assert.equal(pending.resolve("9", answer("c")), false);
  pending.resolve("call_x", answer("x"));
  assert.deepEqual(await other, answer("x"));
});

void test("an abort ends the wait with null and forgets the question", async () => {
  const pending = new PendingUserInput();
  const controller = new AbortController();
  const waiting = pending.wait("call_1", "0", controller.signal);
  controller.abort();
  assert.equal(await waiting, null);
  assert.equal(pending.resolve("call_1", answer("late")), false);
  assert.equal(await pending.wait("call_2", "0", controller.signal), null, "an already aborted turn does not wait");
});
