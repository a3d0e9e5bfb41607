import { test } from "node:test";
import assert from "node:assert/strict";
import { responseItemFromRollout } from "./response-items.js";

void test("the reference's bookkeeping fields are dropped, known fields kept in their recorded order", () => {
  const call = responseItemFromRollout({
    type: "function_call",
    status: "completed",
    id: "fc_0001",
    name: "exec_command",
    arguments: "{}",
    call_id: "call_1",
    internal_chat_message_metadata_passthrough: { turn_id: "t" },
  });
  assert.equal(JSON.stringify(call), '{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"call_1"}');

  const message = responseItemFromRollout({
    type: "message",
    status: "completed",
    id: "msg_1",
    role: "assistant",
    content: [{ type: "output_text", text: "hi", annotations: [] }, { type: "refusal", refusal: "no" }],
    end_turn: true,
  });
  assert.deepEqual(message, { type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] });
});

void test("our own items come back byte for byte", () => {
  const items = [
    { type: "message", role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,AA==" }, { type: "input_text", text: "look" }] },
    { type: "reasoning", summary: [{ type: "summary_text", text: "s" }], content: [{ type: "reasoning_text", text: "r" }], encrypted_content: "enc" },
    { type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch", call_id: "c" },
    { type: "custom_tool_call_output", call_id: "c", output: "ok" },
    { type: "function_call_output", call_id: "f", output: "done" },
    { type: "web_search_call", status: "completed", action: { type: "search", query: "q" } },
  ];
  for (const item of items) assert.equal(JSON.stringify(responseItemFromRollout(item)), JSON.stringify(item));
});

void test("content-list outputs: function calls keep their text and image parts, custom calls their text", () => {
  const parts = [
    { type: "input_text", text: "a" },
    { type: "input_image", image_url: "data:image/png;base64,AA==", detail: "high" },
    { type: "input_text", text: "b" },
  ];
  const ours = { type: "function_call_output", call_id: "f", output: parts };
  assert.equal(JSON.stringify(responseItemFromRollout(ours)), JSON.stringify(ours));
  assert.deepEqual(
    responseItemFromRollout({
      type: "function_call_output",
      call_id: "f",
      output: [{ type: "input_text", text: "a", extra: 1 }, { type: "input_image", image_url: "x", detail: "weird" }, { type: "input_file", file_id: "q" }],
    }),
    { type: "function_call_output", call_id: "f", output: [{ type: "input_text", text: "a" }, { type: "input_image", image_url: "x" }] },
  );
  assert.deepEqual(responseItemFromRollout({ type: "function_call_output", call_id: "f", output: [{ type: "output_text", text: "t" }] }), {
    type: "function_call_output",
    call_id: "f",
    output: "t",
  });
  assert.deepEqual(responseItemFromRollout({ type: "custom_tool_call_output", call_id: "c", output: parts }), {
    type: "custom_tool_call_output",
    call_id: "c",
    output: "a\nb",
  });
});

void test("kinds that cannot be resent, or malformed items, give null", () => {
  assert.equal(responseItemFromRollout({ type: "ghost_snapshot", ghost_commit: {} }), null);
  assert.equal(responseItemFromRollout({ type: "local_shell_call", call_id: "x" }), null);
  assert.equal(responseItemFromRollout({ type: "function_call", name: "f", call_id: "x" }), null);
  assert.equal(responseItemFromRollout({ type: "message", role: "tool", content: [{ type: "input_text", text: "x" }] }), null);
  assert.equal(responseItemFromRollout({ type: "message", role: "user", content: [{ type: "unknown" }] }), null);
  assert.equal(responseItemFromRollout("message"), null);
});
