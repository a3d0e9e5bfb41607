import { test } from "node:test";
import assert from "node:assert/strict";
import { createTheme, stripAnsi } from "./parts/theme.js";
import { markdownTheme, type CellStyle } from "./cells.js";
import { compactedCell, webSearchCell } from "./activity-cells.js";

const theme = createTheme(0);
const style: CellStyle = { theme, markdown: markdownTheme(theme), diff: (p) => [p] };
const plain = (lines: string[]): string[] => lines.map((l) => stripAnsi(l).trimEnd());

void test("a web search is live first, then says what it searched, opened or found, wrapped to the width", () => {
  assert.deepEqual(plain(webSearchCell(null, style, 40)), ["• Searching the web…", ""]);
  assert.deepEqual(plain(webSearchCell({ query: "rust 1.80 release notes", action: { type: "search", query: "rust 1.80 release notes" } }, style, 40)), ["• Searched rust 1.80 release notes", ""]);
  assert.deepEqual(plain(webSearchCell({ query: "", action: { type: "search", queries: ["first", "second"] } }, style, 40)), ["• Searched first ...", ""]);
  assert.deepEqual(plain(webSearchCell({ query: "", action: { type: "open_page", url: "https://example.com/a" } }, style, 40)), ["• Opened https://example.com/a", ""]);
  assert.deepEqual(plain(webSearchCell({ query: "", action: { type: "find_in_page", url: "https://e.com", pattern: "TODO" } }, style, 60)), ["• Searched 'TODO' in https://e.com", ""]);
  assert.deepEqual(plain(webSearchCell({ query: "", action: { type: "other" } }, style, 40)), ["• Searched the web", ""]);
  const long = plain(webSearchCell({ query: "", action: { type: "search", query: "how do I keep the scrollback of a terminal intact while redrawing" } }, style, 30));
  assert.ok(long.length > 2 && long.every((l) => l.length <= 30), long.join("|"));
  assert.ok(long.slice(1, -1).every((l) => l.startsWith("  ")));
});

void test("a compaction says the conversation became a summary, with what the status line showed before", () => {
  const total = { input_tokens: 50_000, cached_input_tokens: 0, output_tokens: 2_000, reasoning_output_tokens: 0, total_tokens: 52_000 };
  const before = { total_token_usage: total, last_token_usage: { ...total, total_tokens: 48_200 }, model_context_window: 100_000 };
  assert.match(plain(compactedCell(before, style, 140)).join("\n"), /^• Context compacted \(before: 52% context left · 52K tokens used\): the conversation so far is now a summary$/m);
  assert.doesNotMatch(plain(compactedCell(null, style, 80)).join("\n"), /before/);
});
