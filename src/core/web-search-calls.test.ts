import { test } from "node:test";
import assert from "node:assert/strict";
import type { EventMsg } from "../protocol/events.js";
import { WebSearchCalls } from "./web-search-calls.js";

void test("each search gets exactly one begin before its end, even when only the finished item arrives", () => {
  const seen: EventMsg[] = [];
  const calls = new WebSearchCalls((m) => seen.push(m));
  calls.begin("ws_1");
  calls.begin("ws_1");
  calls.end("ws_1", { type: "open_page", url: "https://a" });
  calls.end("ws_2", undefined);
  assert.deepEqual(seen, [
    { type: "web_search_begin", call_id: "ws_1" },
    { type: "web_search_end", call_id: "ws_1", query: "https://a", action: { type: "open_page", url: "https://a" } },
    { type: "web_search_begin", call_id: "ws_2" },
    { type: "web_search_end", call_id: "ws_2", query: "", action: { type: "other" } },
  ]);
});
