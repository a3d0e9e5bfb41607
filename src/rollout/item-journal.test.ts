import { test } from "node:test";
import assert from "node:assert/strict";
import type { EventMsg } from "../protocol/events.js";
import { ItemJournal } from "./item-journal.js";

const begin = (call_id: string): EventMsg => ({ type: "exec_command_begin", call_id, command: ["bash", "-lc", "make"], cwd: "/w", parsed_cmd: [{ type: "unknown", cmd: "make" }] });
const delta = (call_id: string, text: string): EventMsg => ({ type: "exec_command_output_delta", call_id, stream: "stdout", chunk: Buffer.from(text).toString("base64") });

function journal(): ItemJournal {
  const j = new ItemJournal();
  j.recordable({ type: "task_started", turn_id: "turn-1", model_context_window: null });
  return j;
}

void test("a finished command is recorded once, as the reference records it: turn, status, parsed command, its output once", () => {
  const j = journal();
  assert.deepEqual(j.recordable(begin("c1")), []);
  assert.deepEqual(j.recordable(delta("c1", "building\n")), []);
  const end: EventMsg = {
    type: "exec_command_end", call_id: "c1", command: ["bash", "-lc", "make"], cwd: "/w", stdout: "building\n", stderr: "oops\n",
    aggregated_output: "building\noops\n", exit_code: 2, duration: { secs: 1, nanos: 5 }, formatted_output: "Exit code: 2\n…",
  };
  assert.deepEqual(j.recordable(end), [
    { ...end, stdout: "", stderr: "", formatted_output: "", turn_id: "turn-1", status: "failed", parsed_cmd: [{ type: "unknown", cmd: "make" }] },
  ]);
});

void test("a file change is recorded with the changes its begin announced; deltas and begins alone are not recorded", () => {
  const j = journal();
  const changes = { "/w/a.txt": { type: "update" as const, unified_diff: "@@ -1 +1 @@\n-a\n+b\n", move_path: null } };
  assert.deepEqual(j.recordable({ type: "patch_apply_begin", call_id: "p1", auto_approved: true, changes }), []);
  assert.deepEqual(j.recordable({ type: "patch_apply_end", call_id: "p1", stdout: "", stderr: "no such file", success: false }), [
    { type: "patch_apply_end", call_id: "p1", stdout: "", stderr: "no such file", success: false, turn_id: "turn-1", status: "failed", changes },
  ]);
  assert.deepEqual(j.recordable({ type: "agent_message_delta", delta: "x" }), []);
  const plan: EventMsg = { type: "plan_update", explanation: null, plan: [] };
  assert.deepEqual(j.recordable(plan), [plan]);
});

void test("an interrupt records each command still running as begun, with the tail of its output, before turn_aborted", () => {
  const j = journal();
  j.recordable(begin("quiet"));
  j.recordable(begin("loud"));
  for (let i = 0; i < 400; i++) j.recordable(delta("loud", `line ${String(i).padStart(3, "0")} ${"x".repeat(92)}\n`));
  const aborted: EventMsg = { type: "turn_aborted", turn_id: "turn-1", reason: "interrupted", duration_ms: 9 };
  const lines = j.recordable(aborted);
  assert.deepEqual(lines.map((l) => l.type), ["exec_command_begin", "exec_command_begin", "exec_command_output_delta", "turn_aborted"]);
  assert.deepEqual(lines[0], { ...begin("quiet"), turn_id: "turn-1" });
  const tail = lines[2]?.type === "exec_command_output_delta" ? Buffer.from(lines[2].chunk, "base64").toString() : "";
  assert.ok(tail.length >= 16 * 1024 - 100 && tail.length <= 16 * 1024 + 100, `about 16 KiB kept, got ${tail.length}`);
  assert.ok(tail.endsWith(`line 399 ${"x".repeat(92)}\n`) && !tail.includes("line 000"), "the latest output");
  // Nothing is left running for the next turn.
  assert.deepEqual(j.recordable({ type: "turn_aborted", turn_id: "turn-1", reason: "interrupted" }).length, 1);
});
