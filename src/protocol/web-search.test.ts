import { test } from "node:test";
import assert from "node:assert/strict";
import { parseWebSearchAction, webSearchActionDetail, type WebSearchAction } from "./web-search.js";

void test("wire actions keep their known fields only; unknown kinds become other", () => {
  assert.deepEqual(parseWebSearchAction({ type: "search", query: "q", queries: ["q", 3, "r"], sources: [{ url: "u" }] }), {
    type: "search",
    query: "q",
    queries: ["q", "r"],
  });
  assert.deepEqual(parseWebSearchAction({ type: "open_page", url: "https://a", title: "A" }), { type: "open_page", url: "https://a" });
  assert.deepEqual(parseWebSearchAction({ type: "find_in_page", pattern: "p" }), { type: "find_in_page", pattern: "p" });
  assert.deepEqual(parseWebSearchAction({ type: "screenshot", url: "x" }), { type: "other" });
  assert.deepEqual(parseWebSearchAction({ query: "no type" }), { type: "other" });
  for (const raw of [undefined, null, "search", ["search"]]) assert.equal(parseWebSearchAction(raw), null);
  // Field order is fixed (it is part of the bytes resent to the model).
  assert.equal(JSON.stringify(parseWebSearchAction({ queries: ["b"], query: "a", type: "search" })), '{"type":"search","query":"a","queries":["b"]}');
});

void test("the one-line description of each action, as the reference words it", () => {
  const cases: Array<[WebSearchAction, string]> = [
    [{ type: "search", query: "weather berlin", queries: ["x", "y"] }, "weather berlin"],
    [{ type: "search", query: "", queries: ["a", "b", "c"] }, "a ..."],
    [{ type: "search", queries: ["only"] }, "only"],
    [{ type: "search", queries: ["", "b"] }, ""],
    [{ type: "search" }, ""],
    [{ type: "open_page", url: "https://example.com" }, "https://example.com"],
    [{ type: "open_page" }, ""],
    [{ type: "find_in_page", url: "https://e.com", pattern: "rain" }, "'rain' in https://e.com"],
    [{ type: "find_in_page", pattern: "rain" }, "'rain'"],
    [{ type: "find_in_page", url: "https://e.com" }, "https://e.com"],
    [{ type: "find_in_page" }, ""],
    [{ type: "other" }, ""],
  ];
  for (const [action, detail] of cases) assert.equal(webSearchActionDetail(action), detail, JSON.stringify(action));
});
