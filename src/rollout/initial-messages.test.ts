import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventMsg } from "../protocol/events.js";
import { userText } from "../protocol/items.js";
import { loadThread } from "./reconstruct.js";

const ID = "01a20039-0605-7f82-bb57-0384ad2af383";
type Line = [string, unknown];

function redraw(lines: Line[], redrawn = true): EventMsg[] {
  const path = join(mkdtempSync(join(tmpdir(), "codex-ts-redraw-")), `rollout-2026-11-21T22-27-46-${ID}.jsonl`);
  const all: Line[] = [["session_meta", { id: ID, cwd: "/w" }], ...lines];
  writeFileSync(path, all.map(([type, payload]) => `${JSON.stringify({ timestamp: "2026-11-21T22:27:46.000Z", type, payload })}\n`).join(""));
  return loadThread(path, { redraw: redrawn }).initialMessages;
}

const event = (payload: unknown): Line => ["event_msg", payload];
const item = (payload: unknown): Line => ["response_item", payload];
const started = (turn: string): Line => event({ type: "task_started", turn_id: turn, model_context_window: null });
const asked = (text: string): Line[] => [item(userText(text)), event({ type: "user_message", message: text, images: null })];
const call = (name: string, args: unknown, id: string): Line => item({ type: "function_call", name, arguments: JSON.stringify(args), call_id: id });
const output = (id: string, text: string): Line => item({ type: "function_call_output", call_id: id, output: text });
const kinds = (events: EventMsg[]): string[] => events.map((e) => e.type);

void test("a turn that records what it showed redraws exactly that: no guess from calls it never ran or the user refused", () => {
  const events = redraw([
    started("t1"),
    ...asked("go"),
    call("update_plan", { plan: [{ step: "s", status: "pending" }] }, "u1"),
    output("u1", "unsupported call: update_plan"),
    call("exec_command", { cmd: "rm -rf /" }, "r1"),
    output("r1", "exec command rejected by user"),
    call("exec_command", { cmd: "echo hi" }, "c1"),
    event({ type: "exec_command_end", call_id: "c1", command: ["bash", "-lc", "echo hi"], cwd: "/w", stdout: "", stderr: "", aggregated_output: "hi\n", exit_code: 0, duration: { secs: 0, nanos: 3_000_000 }, formatted_output: "", turn_id: "t1", status: "completed" }),
    output("c1", "Exit code: 0\nOutput:\nhi\n"),
    event({ type: "patch_apply_end", call_id: "p1", stdout: "Success.", stderr: "", success: true, turn_id: "t1", status: "completed", changes: { "/w/a.txt": { type: "add", content: "x\n" } } }),
    event({ type: "agent_message", message: "done" }),
    event({ type: "task_complete", turn_id: "t1", last_agent_message: "done", duration_ms: 40 }),
  ]);
  assert.deepEqual(kinds(events), ["task_started", "user_message", "exec_command_end", "patch_apply_begin", "patch_apply_end", "agent_message", "task_complete"]);
  const begin = events[3];
  assert.ok(begin?.type === "patch_apply_begin");
  assert.deepEqual(Object.keys(begin.changes), ["/w/a.txt"]);
});

void test("older files without recorded commands: commands and accepted plans are inferred from calls, the rest is not", () => {
  const events = redraw([
    started("t1"),
    ...asked("go"),
    call("exec_command", { cmd: "make" }, "c1"),
    output("c1", "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 2\nOriginal token count: 1\nOutput:\nbroken\n"),
    call("shell", { command: ["ls"] }, "c2"),
    output("c2", JSON.stringify({ output: "a.txt\n", metadata: { exit_code: 0, duration_seconds: 0.1 } })),
    call("exec_command", { cmd: "sleep 100" }, "c3"),
    output("c3", "Chunk ID: 2\nWall time: 1 seconds\nProcess running with session ID 7\nOriginal token count: 0\nOutput:\n"),
    call("shell_command", { command: "touch /x" }, "c4"),
    output("c4", "rejected by the user"),
    call("update_plan", { plan: [{ step: "s", status: "completed" }] }, "p1"),
    output("p1", "Plan updated"),
    call("update_plan", { plan: "nonsense" }, "p2"),
    output("p2", "failed to parse function arguments: `plan` must be an array"),
    call("nope", {}, "n1"),
    output("n1", "unsupported call: nope"),
    event({ type: "task_complete", turn_id: "t1", last_agent_message: null }),
  ]);
  assert.deepEqual(kinds(events), ["task_started", "user_message", "exec_command_end", "exec_command_end", "exec_command_end", "plan_update", "task_complete"]);
  const [make, ls, refused] = events.slice(2, 5);
  assert.ok(make?.type === "exec_command_end" && ls?.type === "exec_command_end" && refused?.type === "exec_command_end");
  assert.deepEqual([make.exit_code, make.aggregated_output, make.command], [2, "broken\n", ["bash", "-lc", "make"]]);
  assert.deepEqual([ls.exit_code, ls.aggregated_output], [0, "a.txt\n"]);
  assert.equal(refused.exit_code, 1, "an answer without an exit code did not succeed");
});

void test("a command an interrupt stopped comes back running, for the turn_aborted after it to end; one never ended is closed", () => {
  const begin = { type: "exec_command_begin", call_id: "c1", command: ["bash", "-lc", "sleep 9"], cwd: "/w", parsed_cmd: [], turn_id: "t1" };
  const events = redraw([
    started("t1"),
    ...asked("wait"),
    call("exec_command", { cmd: "sleep 9" }, "c1"),
    event(begin),
    event({ type: "exec_command_output_delta", call_id: "c1", stream: "stdout", chunk: Buffer.from("tick\n").toString("base64") }),
    event({ type: "turn_aborted", turn_id: "t1", reason: "interrupted", duration_ms: 900 }),
    output("c1", "aborted"),
    started("t2"),
    ...asked("again"),
    event({ ...begin, call_id: "c2", turn_id: "t2" }),
  ]);
  assert.deepEqual(kinds(events), ["task_started", "user_message", "exec_command_begin", "exec_command_output_delta", "turn_aborted", "task_started", "user_message", "exec_command_begin", "exec_command_end"]);
  const closed = events.at(-1);
  assert.ok(closed?.type === "exec_command_end" && closed.call_id === "c2" && closed.exit_code === -1);
});

void test("the reference's item_completed lines redraw as the events that drew them; a message recorded both ways is drawn once", () => {
  const events = redraw([
    started("t1"),
    item(userText("hello")),
    event({ type: "item_completed", thread_id: ID, turn_id: "t1", item: { type: "UserMessage", id: "u", content: [{ type: "text", text: "hello", text_elements: [] }] } }),
    event({ type: "user_message", message: "hello", images: null }),
    event({
      type: "item_completed", thread_id: ID, turn_id: "t1",
      item: { type: "CommandExecution", id: "c1", command: ["/bin/bash", "-lc", "false"], cwd: "file:///w/my%20dir", parsed_cmd: [], source: "unified_exec_startup", status: "failed", aggregated_output: "", exit_code: 1, duration: { secs: 0, nanos: 10 } },
    }),
    event({ type: "item_completed", thread_id: ID, turn_id: "t1", item: { type: "CommandExecution", id: "s1", command: ["ls"], cwd: "/w", parsed_cmd: [], source: "user_shell", status: "completed", aggregated_output: "a\n", exit_code: 0, duration: { secs: 0, nanos: 10 } } }),
    event({ type: "item_completed", thread_id: ID, turn_id: "t1", item: { type: "FileChange", id: "p1", changes: { "/w/a": { type: "delete", content: "" } }, status: "completed", stdout: "", stderr: "" } }),
    event({ type: "item_completed", thread_id: ID, turn_id: "t1", item: { type: "FileChange", id: "p2", changes: {}, status: "declined", stdout: "", stderr: "" } }),
    event({ type: "item_completed", thread_id: ID, turn_id: "t1", item: { type: "ContextCompaction", id: "x" } }),
    event({ type: "item_completed", thread_id: ID, turn_id: "t1", item: { type: "AgentMessage", id: "m", content: [{ type: "Text", text: "bye" }] } }),
    // The same answer twice is two answers.
    event({ type: "agent_message", message: "bye" }),
    event({ type: "item_completed", thread_id: ID, turn_id: "t1", item: { type: "AgentMessage", id: "m2", content: [{ type: "Text", text: "bye" }] } }),
    event({ type: "agent_message", message: "bye" }),
    event({ type: "task_complete", turn_id: "t1", last_agent_message: "bye", duration_ms: 3 }),
  ]);
  assert.deepEqual(kinds(events), ["task_started", "user_message", "exec_command_end", "exec_command_end", "patch_apply_begin", "patch_apply_end", "context_compacted", "agent_message", "agent_message", "task_complete"]);
  const [failed, shell] = events.slice(2, 4);
  assert.ok(failed?.type === "exec_command_end" && shell?.type === "exec_command_end");
  assert.deepEqual([failed.cwd, failed.exit_code, failed.source], ["/w/my dir", 1, undefined]);
  assert.equal(shell.source, "user_shell");
});

void test("a rollback drops its turns' events, their task_started included; exec builds no redraw at all", () => {
  const lines: Line[] = [
    started("t1"),
    ...asked("one"),
    event({ type: "task_complete", turn_id: "t1", last_agent_message: null, duration_ms: 1 }),
    started("t2"),
    ...asked("two"),
    event({ type: "task_complete", turn_id: "t2", last_agent_message: null, duration_ms: 1 }),
    event({ type: "thread_rolled_back", num_turns: 1 }),
  ];
  assert.deepEqual(kinds(redraw(lines)), ["task_started", "user_message", "task_complete"]);
  assert.deepEqual(redraw(lines, false), []);
});

void test("token counts: the last of each run is redrawn; a compaction's note gets the figures shown before it", () => {
  const usage = (n: number): unknown => ({ total_token_usage: { input_tokens: n }, last_token_usage: { input_tokens: n }, model_context_window: 100 });
  const count = (n: number | null): Line => event({ type: "token_count", info: n === null ? null : usage(n), rate_limits: null });
  const compacted = event({ type: "context_compacted" });
  const shown = (events: EventMsg[]): string[] => events.map((e) => (e.type === "token_count" ? `count ${e.info?.total_token_usage.input_tokens ?? "limits"}` : e.type));
  // Inside a user's turn (automatic): the latest figures.
  assert.deepEqual(shown(redraw([started("t1"), ...asked("go"), count(1), count(2), count(null), compacted, count(3), count(null), count(4)])), [
    "task_started", "user_message", "count 2", "count limits", "context_compacted", "count 4",
  ]);
  // A turn of its own (/compact): the figures from before it began; its own request's come after.
  assert.deepEqual(shown(redraw([started("t1"), ...asked("go"), count(1), started("t2"), count(5), compacted, event({ type: "task_complete", turn_id: "t2", last_agent_message: null, duration_ms: 1 })])), [
    "task_started", "user_message", "task_started", "count 1", "context_compacted", "task_complete", "count 5",
  ]);
});

void test("the output an interrupt gives a call, recorded after the turn's end, infers nothing; the user's answers to questions are redrawn", () => {
  const request = { type: "exec_approval_request", call_id: "c1", turn_id: "t1", command: ["touch", "/etc/x"], cwd: "/w", parsed_cmd: [] };
  const events = redraw([
    started("t1"),
    ...asked("touch it"),
    call("exec_command", { cmd: "touch /etc/x" }, "c1"),
    event({ type: "question_asked", key: "c1", request }),
    event({ type: "question_resolved", key: "c1", outcome: "answered", answer: { type: "decision", decision: "abort" } }),
    event({ type: "turn_aborted", turn_id: "t1", reason: "interrupted", duration_ms: 5 }),
    output("c1", "exec command rejected by user"),
    started("t2"),
    ...asked("next"),
  ]);
  assert.deepEqual(kinds(events), ["task_started", "user_message", "question_asked", "question_resolved", "turn_aborted", "task_started", "user_message"]);
});
