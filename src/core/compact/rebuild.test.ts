import { test } from "node:test";
import assert from "node:assert/strict";
import { developerText, userText, type ResponseItem } from "../../protocol/items.js";
import { COMPACTION_SUMMARY_PREFIX } from "../../rollout/reconstruct.js";
import { buildCompactedHistory, capUserMessages, collectUserMessages, contextItems } from "./rebuild.js";
import { workingStateNote } from "./working-state.js";

const assistant = (text: string): ResponseItem => ({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const env = (cwd: string): ResponseItem => userText(`<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>`);

void test("the rebuilt history: context unchanged first, then the user's messages, working state and the summary", () => {
  const history = [developerText("permissions"), env("/a"), userText("build it"), assistant("ok"), env("/b"), userText("and test it")];
  const context = contextItems(history);
  assert.deepEqual(context, [developerText("permissions"), env("/a"), env("/b")]);
  const rebuilt = buildCompactedHistory({ context, userMessages: collectUserMessages(history), workingState: null, summary: "did things" });
  assert.deepEqual(rebuilt, [...context, userText("build it"), userText("and test it"), userText(`${COMPACTION_SUMMARY_PREFIX}did things`)]);
  // Compacting again keeps the same prefix and does not take the old summary for a user message.
  assert.deepEqual(contextItems(rebuilt), context);
  assert.deepEqual(collectUserMessages(rebuilt), ["build it", "and test it"]);
});

void test("the user's messages are kept newest first within the cap; the one that crosses it is cut in the middle", () => {
  const older = "o".repeat(4_000);
  const newest = "n".repeat(400);
  assert.deepEqual(capUserMessages(["first", older, newest], 10_000), ["first", older, newest]);
  const capped = capUserMessages(["first", older, newest], 300);
  assert.equal(capped.length, 2);
  assert.equal(capped[1], newest);
  assert.match(capped[0] ?? "", /^o+…\d+ tokens truncated…o+$/);
});

void test("working state: the last plan and the newest patched files, carried over by a later compaction", () => {
  const plan = (steps: string[]): ResponseItem => ({
    type: "function_call",
    name: "update_plan",
    arguments: JSON.stringify({ plan: steps.map((step, i) => ({ step, status: i === 0 ? "completed" : "pending" })) }),
    call_id: `p${steps.length}`,
  });
  const patch = (path: string, id: string): ResponseItem => ({
    type: "custom_tool_call",
    name: "apply_patch",
    input: `*** Begin Patch\n*** Update File: ${path}\n@@\n-a\n+b\n*** End Patch\n`,
    call_id: id,
  });
  const fnPatch: ResponseItem = {
    type: "function_call",
    name: "apply_patch",
    arguments: JSON.stringify({ input: "*** Begin Patch\n*** Add File: docs/new.md\n+hi\n*** End Patch" }),
    call_id: "f1",
  };
  assert.equal(workingStateNote([userText("hi")]), null);
  const note = workingStateNote([plan(["old"]), patch("src/a.ts", "c1"), plan(["write", "test"]), fnPatch, patch("src/b.ts", "c2")]);
  assert.ok(note);
  assert.match(note, /^<working_state>/);
  assert.match(note, /- \[completed\] write\n- \[pending\] test/);
  assert.doesNotMatch(note, /old/);
  assert.match(note, /- src\/b\.ts\n- docs\/new\.md\n- src\/a\.ts\n<\/working_state>$/);
  // After a compaction only the note is left; a newer patch joins it at the top.
  const again = workingStateNote([userText(note), patch("src/c.ts", "c3")]);
  assert.match(again ?? "", /- \[pending\] test[\s\S]*- src\/c\.ts\n- src\/b\.ts\n- docs\/new\.md\n- src\/a\.ts/);
});
