import { test } from "node:test";
import assert from "node:assert/strict";
import { WebSearchItems, threadEventJson } from "./web-search-items.js";

void test("a search's begin and end share one item; an end without a begin gets the next id", () => {
  let n = 0;
  const items = new WebSearchItems(() => `item_${n++}`);
  const started = items.map({ type: "web_search_begin", call_id: "ws_1" });
  const done = items.map({ type: "web_search_end", call_id: "ws_1", query: "q", action: { type: "search", query: "q" } });
  const lone = items.map({ type: "web_search_end", call_id: "ws_9", query: "", action: { type: "other" } });
  assert.equal(threadEventJson(started), '{"type":"item.started","item":{"id":"item_0","type":"web_search","id":"ws_1","query":"","action":{"type":"other"}}}');
  assert.equal(
    threadEventJson(done),
    '{"type":"item.completed","item":{"id":"item_0","type":"web_search","id":"ws_1","query":"q","action":{"type":"search","query":"q"}}}',
  );
  assert.equal(lone.type === "item.completed" && lone.item.id, "item_1");
});

void test("only the item's own key is renamed, never text that looks like it", () => {
  const sneaky = '"type":"web_search","search_id":';
  const line = threadEventJson({
    type: "item.completed",
    item: { id: "item_0", type: "web_search", search_id: "ws_1", query: sneaky, action: { type: "search", query: sneaky } },
  });
  // Inside a JSON string the quotes are escaped, so text can never look like the key.
  assert.equal((line.match(/"id":"ws_1"/g) ?? []).length, 1);
  assert.deepEqual(JSON.parse(line), {
    type: "item.completed",
    item: { id: "ws_1", type: "web_search", query: sneaky, action: { type: "search", query: sneaky } },
  });
  // Other events are plain JSON.
  assert.equal(threadEventJson({ type: "turn.started" }), '{"type":"turn.started"}');
});
