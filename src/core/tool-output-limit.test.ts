import { test } from "node:test";
import assert from "node:assert/strict";
import type { ResponseItem } from "../protocol/items.js";
import { limitToolOutputs } from "./tool-output-limit.js";

void test("tool output entering history is cut to the budget (plus the reference's fifth), head and tail kept", () => {
  const long = `head ${"z".repeat(10_000)} tail`;
  const items: ResponseItem[] = [
    { type: "function_call_output", call_id: "a", output: long },
    { type: "custom_tool_call_output", call_id: "b", output: long },
    { type: "function_call_output", call_id: "c", output: [{ type: "input_text", text: long }, { type: "input_image", image_url: "data:image/png;base64,AA" }] },
    { type: "function_call_output", call_id: "d", output: "short" },
  ];
  const [a, b, c, d] = limitToolOutputs(items, 100);
  const marker = /^head z+…\d+ tokens truncated…z+ tail$/;
  assert.ok(a?.type === "function_call_output" && typeof a.output === "string");
  assert.match(a.output, marker);
  assert.ok(Buffer.byteLength(a.output) < 100 * 1.2 * 4 + 40);
  assert.ok(b?.type === "custom_tool_call_output");
  assert.match(b.output, marker);
  assert.ok(c?.type === "function_call_output" && Array.isArray(c.output));
  assert.match(c.output[0]?.type === "input_text" ? c.output[0].text : "", marker);
  assert.equal(c.output[1]?.type, "input_image");
  assert.equal(d, items[3]);
});
