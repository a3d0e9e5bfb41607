import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveWebSearch } from "./web-search.js";

void test("mode: the top-level key, else the old switches (cached before live), else cached by default", () => {
  const mode = (t: Record<string, unknown>): string | null => resolveWebSearch(t, "responses").settings?.mode ?? null;
  assert.equal(mode({}), "cached");
  for (const m of ["cached", "indexed", "live"]) assert.equal(mode({ web_search: m }), m);
  assert.equal(mode({ web_search: "disabled" }), null);
  assert.equal(mode({ features: { web_search_request: true } }), "live");
  assert.equal(mode({ features: { web_search: true } }), "live");
  assert.equal(mode({ features: { web_search_request: true, web_search_cached: true } }), "cached");
  assert.equal(mode({ features: { web_search_request: false } }), "cached");
  assert.equal(mode({ web_search: "disabled", features: { web_search_request: true } }), null);
  assert.equal(mode({ web_search: "live", features: { web_search_cached: true } }), "live");
});

void test("every old switch that is set draws one deprecation note, whatever its value", () => {
  assert.deepEqual(resolveWebSearch({}, "responses").warnings, []);
  const { warnings } = resolveWebSearch({ features: { web_search_request: false, web_search_cached: true, undo: true } }, "responses");
  assert.equal(warnings.length, 2);
  assert.match(warnings[0] ?? "", /^\[features\]\.web_search_request is deprecated/);
  assert.match(warnings[1] ?? "", /^\[features\]\.web_search_cached is deprecated/);
});

void test("the Chat wire gets no tool, and a warning only when search was asked for", () => {
  assert.deepEqual(resolveWebSearch({}, "chat"), { settings: null, warnings: [] });
  assert.deepEqual(resolveWebSearch({ web_search: "disabled" }, "chat"), { settings: null, warnings: [] });
  const asked = resolveWebSearch({ web_search: "live" }, "chat");
  assert.equal(asked.settings, null);
  assert.equal(asked.warnings.length, 1);
  assert.match(asked.warnings[0] ?? "", /Chat Completions/);
});

void test("[tools.web_search] narrows the search; its old boolean form changes nothing", () => {
  const table = {
    web_search: "live",
    tools: { web_search: { context_size: "medium", allowed_domains: ["a.org"], location: { city: "Oslo", country: "NO", bogus: 1 } } },
  };
  assert.deepEqual(resolveWebSearch(table, "responses").settings, {
    mode: "live",
    contextSize: "medium",
    allowedDomains: ["a.org"],
    location: { country: "NO", city: "Oslo" },
  });
  assert.deepEqual(resolveWebSearch({ tools: { web_search: false } }, "responses").settings, { mode: "cached" });
  assert.deepEqual(resolveWebSearch({ tools: { web_search: true } }, "responses").settings, { mode: "cached" });
});
