/**
 * The core through its one seam: Ops in, Events out, against the real Responses client and the
 * scripted model server. Covers what exec alone cannot show: steering, interrupts and failures
 * that leave the session usable, submission ids, shutdown.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Event } from "../../src/protocol/events.js";
import { startModelServer, text, fnCall, turn, errorTurn } from "../support/model-server.js";
import { newSession, turnIdIn, types, until, withSession, timed } from "../support/session.js";

void test("session_configured comes first with id \"\"; submissions are numbered from 0", async () => {
  await withSession([turn(text("one")), turn(text("two"))], async (session) => {
    const first = await session.nextEvent();
    assert.equal(first?.id, "");
    assert.equal(first?.msg.type, "session_configured");
    assert.equal(session.submit({ type: "user_input", items: [{ type: "text", text: "a" }] }), "0");
    const events = await until(session, "0", "task_complete");
    const seen = types(events, "0").filter((t, i, all) => t !== all[i - 1]); // collapse runs of deltas
    assert.deepEqual(seen, ["task_started", "user_message", "agent_message_delta", "agent_message", "token_count", "task_complete"]);
    assert.equal(session.submit({ type: "user_input", items: [{ type: "text", text: "b" }] }), "1");
    const second = await until(session, "1", "task_complete");
    const done = second.at(-1)?.msg;
    assert.deepEqual(timed(done), { type: "task_complete", turn_id: turnIdIn(second, "1"), last_agent_message: "two" });
  });
});

void test("input sent during a turn reaches the model at its next request, within the same turn", async () => {
  await withSession([{ ...turn(text("working on it")), eventDelayMs: 150 }, turn(text("noted"))], async (session, server) => {
    session.submit({ type: "user_input", items: [{ type: "text", text: "first" }] });
    await server.waitForRequests(1);
    const steer = session.submit({ type: "user_input", items: [{ type: "text", text: "also this" }] });
    const events = await until(session, "0", "task_complete");
    assert.equal(types(events, "0").filter((t) => t === "task_started").length, 1);
    assert.deepEqual(types(events, steer), []);
    assert.equal(server.requests.length, 2);
    const input = server.requests[1]?.body.input ?? [];
    assert.deepEqual(input.at(-1), { type: "message", role: "user", content: [{ type: "input_text", text: "also this" }] });
    assert.deepEqual(timed(events.at(-1)?.msg), { type: "task_complete", turn_id: turnIdIn(events, "0"), last_agent_message: "noted" });
    // The steered input is shown as part of the running turn.
    assert.deepEqual(
      events.filter((e) => e.msg.type === "user_message").map((e) => [e.id, e.msg.type === "user_message" && e.msg.message]),
      [["0", "first"], ["0", "also this"]],
    );
  });
});

void test("an interrupt ends the turn with one turn_aborted, kills its command, and the session keeps working", async () => {
  await withSession(
    [turn(fnCall("exec_command", { cmd: "sleep 30", yield_time_ms: 30000 }, "long")), turn(text("fresh turn"))],
    async (session, server) => {
      session.submit({ type: "user_input", items: [{ type: "text", text: "wait" }] });
      const begun = await until(session, "0", "exec_command_begin");
      const started = Date.now();
      session.submit({ type: "interrupt" });
      const events = await until(session, "0", "turn_aborted", begun);
      assert.ok(Date.now() - started < 5000);
      assert.deepEqual(timed(events.at(-1)?.msg), { type: "turn_aborted", turn_id: turnIdIn(events, "0"), reason: "interrupted" });
      const next = session.submit({ type: "user_input", items: [{ type: "text", text: "again" }] });
      const after = await until(session, next, "task_complete");
      assert.deepEqual(types(after, "0"), [], "nothing more for the aborted turn");
      assert.deepEqual(timed(after.at(-1)?.msg), { type: "task_complete", turn_id: turnIdIn(after, next), last_agent_message: "fresh turn" });
      const output = (server.requests[1]?.body.input ?? []).find((i) => i.type === "function_call_output");
      assert.deepEqual(output, { type: "function_call_output", call_id: "long", output: "aborted" });
    },
  );
});

void test("a failed turn reports an error, completes, and leaves the session usable", async () => {
  await withSession([errorTurn(400, undefined, { error: { message: "bad thing", code: "invalid_value" } }), turn(text("fine now"))], async (session) => {
    session.submit({ type: "user_input", items: [{ type: "text", text: "break" }] });
    const events = await until(session, "0", "task_complete");
    const error = events.find((e) => e.msg.type === "error");
    assert.equal(error?.msg.type === "error" && error.msg.codex_error_info, "bad_request");
    assert.match(error?.msg.type === "error" ? error.msg.message : "", /bad thing/);
    session.submit({ type: "user_input", items: [{ type: "text", text: "retry" }] });
    const second = await until(session, "1", "task_complete");
    assert.deepEqual(timed(second.at(-1)?.msg), { type: "task_complete", turn_id: turnIdIn(second, "1"), last_agent_message: "fine now" });
  });
});

void test("a tool call named with the wrong payload kind is fatal for the turn only", async () => {
  await withSession([turn({ type: "custom_tool_call", name: "exec_command", input: "{}", callId: "bad" }), turn(text("ok"))], async (session) => {
    session.submit({ type: "user_input", items: [{ type: "text", text: "x" }] });
    const events = await until(session, "0", "task_complete");
    const error = events.find((e) => e.msg.type === "error");
    assert.equal(error?.msg.type === "error" ? error.msg.message : "", "tool exec_command invoked with incompatible payload");
  });
});

void test("shutdown ends the stream with shutdown_complete", async () => {
  const server = await startModelServer([]);
  const session = newSession(server);
  const id = session.submit({ type: "shutdown" });
  const events: Event[] = [];
  for (let e = await session.nextEvent(); e; e = await session.nextEvent()) events.push(e);
  assert.deepEqual(events.at(-1), { id, msg: { type: "shutdown_complete" } });
  await server.close();
});

void test("prompt history: add_to_history appends to history.jsonl and get_history_entry_request reads it back", async () => {
  const codexHome = mkdtempSync(join(tmpdir(), "codex-ts-history-"));
  const server = await startModelServer([]);
  const promptHistory = { codexHome, settings: { persistence: "save-all" as const } };
  const first = newSession(server, { promptHistory });
  const configured = await first.nextEvent();
  assert.ok(configured?.msg.type === "session_configured");
  const threadId = configured.msg.session_id;
  assert.deepEqual([configured.msg.history_log_id, configured.msg.history_entry_count], [0, 0]);
  first.submit({ type: "add_to_history", text: "fix the build" });
  first.submit({ type: "add_to_history", text: "now run the tests" });
  const ask = first.submit({ type: "get_history_entry_request", offset: 1, log_id: 0 });
  const [answer] = (await until(first, ask, "get_history_entry_response")).slice(-1);
  assert.ok(answer?.msg.type === "get_history_entry_response");
  assert.equal(answer.msg.entry?.text, "now run the tests");
  assert.equal(answer.msg.entry?.conversation_id, threadId);
  assert.equal(statSync(join(codexHome, "history.jsonl")).mode & 0o777, 0o600);
  first.submit({ type: "shutdown" });

  // A later session sees the file's id and entry count, and a missing entry has no `entry`.
  const second = newSession(server, { promptHistory });
  const again = await second.nextEvent();
  assert.ok(again?.msg.type === "session_configured");
  assert.equal(again.msg.history_entry_count, 2);
  assert.equal(again.msg.history_log_id, statSync(join(codexHome, "history.jsonl")).ino);
  const missing = second.submit({ type: "get_history_entry_request", offset: 9, log_id: again.msg.history_log_id });
  const [none] = (await until(second, missing, "get_history_entry_response")).slice(-1);
  assert.deepEqual(none?.msg, { type: "get_history_entry_response", offset: 9, log_id: again.msg.history_log_id });
  second.submit({ type: "shutdown" });
  await server.close();
});
