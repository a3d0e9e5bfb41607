import { test } from "node:test";
import assert from "node:assert/strict";
import type { Event, EventMsg } from "../../protocol/events.js";
import { isPersistedEvent } from "../../rollout/policy.js";
import { outputItem } from "../../tools/router.js";
import { formatElapsed, HumanOutput, palette } from "./human-output.js";
import { JsonlMapper } from "../../presentation/jsonl-mapper.js";

const ev = (msg: EventMsg, id = "0"): Event => ({ id, msg });

void test("human output: start-up lines, the summary (or 'no servers'), and a failed call shows its title only", () => {
  const lines: string[] = [];
  const out = new HumanOutput((t) => lines.push(t), palette(false), "0.0.0");
  out.render(ev({ type: "mcp_startup_update", server: "a", status: { state: "starting" } }, ""));
  out.render(ev({ type: "mcp_startup_update", server: "b", status: { state: "failed", error: "boom" } }, ""));
  out.render(ev({ type: "mcp_startup_update", server: "c", status: { state: "cancelled" } }, ""));
  out.render(ev({ type: "mcp_startup_complete", ready: ["a"], failed: [{ server: "b", error: "boom" }], cancelled: ["c"] }, ""));
  out.render(ev({ type: "mcp_startup_complete", ready: [], failed: [], cancelled: [] }, ""));
  const invocation = { server: "a", tool: "t", arguments: null };
  out.render(ev({ type: "mcp_tool_call_begin", call_id: "x", invocation }));
  out.render(ev({ type: "mcp_tool_call_end", call_id: "x", invocation, duration: { secs: 61, nanos: 0 }, result: { Err: "nope" } }));
  assert.deepEqual(lines, [
    "mcp: a starting",
    "mcp: b failed: boom",
    "mcp: c cancelled",
    "mcp startup: ready: a; failed: b; cancelled: c",
    "mcp startup: no servers",
    "tool a.t()",
    "a.t() failed in 1m 01s:",
  ]);
});

void test("durations print as the reference's", () => {
  assert.equal(formatElapsed({ secs: 0, nanos: 850_400_000 }), "850ms");
  assert.equal(formatElapsed({ secs: 1, nanos: 500_000_000 }), "1.50s");
  assert.equal(formatElapsed({ secs: 125, nanos: 0 }), "2m 05s");
});

void test("JSONL: start-up has no lines; an isError result completes as failed with its result, an Err as failed with the message", () => {
  const mapper = new JsonlMapper();
  assert.deepEqual(mapper.map(ev({ type: "mcp_startup_update", server: "a", status: { state: "ready" } }, "")), []);
  assert.deepEqual(mapper.map(ev({ type: "mcp_startup_complete", ready: ["a"], failed: [], cancelled: [] }, "")), []);
  const invocation = { server: "a", tool: "t", arguments: { q: 1 } };
  const duration = { secs: 0, nanos: 1 };
  mapper.map(ev({ type: "mcp_tool_call_begin", call_id: "x", invocation }));
  mapper.map(ev({ type: "mcp_tool_call_begin", call_id: "y", invocation }));
  const flagged = mapper.map(
    ev({ type: "mcp_tool_call_end", call_id: "x", invocation, duration, result: { Ok: { content: [{ type: "text", text: "bad" }], isError: true } } }),
  );
  assert.deepEqual(flagged, [
    {
      type: "item.completed",
      item: { id: "item_0", type: "mcp_tool_call", server: "a", tool: "t", arguments: { q: 1 }, result: { content: [{ type: "text", text: "bad" }], structured_content: null }, error: null, status: "failed" },
    },
  ]);
  const err = mapper.map(ev({ type: "mcp_tool_call_end", call_id: "y", invocation, duration, result: { Err: "gone" } }));
  assert.deepEqual(err, [
    { type: "item.completed", item: { id: "item_1", type: "mcp_tool_call", server: "a", tool: "t", arguments: { q: 1 }, result: null, error: { message: "gone" }, status: "failed" } },
  ]);
});

void test("rollouts keep finished MCP calls only; outputs carry content items for function calls, text for custom ones", () => {
  const invocation = { server: "a", tool: "t", arguments: null };
  assert.equal(isPersistedEvent({ type: "mcp_tool_call_end", call_id: "x", invocation, duration: { secs: 0, nanos: 0 }, result: { Err: "e" } }), true);
  assert.equal(isPersistedEvent({ type: "mcp_tool_call_begin", call_id: "x", invocation }), false);
  assert.equal(isPersistedEvent({ type: "mcp_startup_update", server: "a", status: { state: "starting" } }), false);
  assert.equal(isPersistedEvent({ type: "mcp_startup_complete", ready: [], failed: [], cancelled: [] }), false);

  const items = [{ type: "input_text" as const, text: "hi" }];
  assert.deepEqual(outputItem({ type: "function_call", name: "f", arguments: "{}", call_id: "c" }, "hi", items), {
    type: "function_call_output",
    call_id: "c",
    output: items,
  });
  assert.deepEqual(outputItem({ type: "custom_tool_call", name: "g", input: "", call_id: "d" }, "hi", items), {
    type: "custom_tool_call_output",
    call_id: "d",
    output: "hi",
  });
});
