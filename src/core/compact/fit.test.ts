import { test } from "node:test";
import assert from "node:assert/strict";
import { userText, type ResponseItem } from "../../protocol/items.js";
import { estimateTokens } from "../history.js";
import { dropOldestPaired, shrinkLargeItems } from "./fit.js";

const call = (id: string): ResponseItem => ({ type: "function_call", name: "shell", arguments: "{}", call_id: id });
const out = (id: string, text = "x".repeat(400)): ResponseItem => ({ type: "function_call_output", call_id: id, output: text });

void test("dropping the oldest items keeps the prefix and the last item, and never splits a call from its output", () => {
  const items = [userText("context"), call("a"), userText("u1"), out("a"), call("b"), out("b"), call("c"), out("c"), userText("now")];
  const budget = estimateTokens(items) - 1;
  const { items: kept, dropped } = dropOldestPaired(items, 1, budget);
  assert.ok(dropped >= 2);
  assert.deepEqual(kept[0], userText("context"));
  assert.deepEqual(kept[kept.length - 1], userText("now"));
  // "a" went with its output although u1 sat between them.
  assert.ok(!kept.some((i) => "call_id" in i && i.call_id === "a"));
  for (const id of ["b", "c"]) {
    const present = kept.filter((i) => "call_id" in i && i.call_id === id).length;
    assert.ok(present === 0 || present === 2, `call ${id} kept without its partner`);
  }
  assert.ok(estimateTokens(kept) <= budget);
});

void test("the call the last output answers stays; a history that fits is returned whole", () => {
  const items = [userText("context"), call("a"), out("a")];
  assert.deepEqual(dropOldestPaired(items, 1, 1).items, items);
  assert.equal(dropOldestPaired(items, 1, 10_000).dropped, 0);
});

void test("oversized items are cut to about the size asked, head and tail kept", () => {
  const big = userText(`start ${"y".repeat(40_000)} end`);
  const [small] = shrinkLargeItems([big], 500);
  assert.ok(small && estimateTokens([small]) < 600);
  const text = small?.type === "message" && small.content[0]?.type === "input_text" ? small.content[0].text : "";
  assert.match(text, /^start y+…\d+ tokens truncated…y+ end$/);
});
