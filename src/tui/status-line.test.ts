import { test } from "node:test";
import assert from "node:assert/strict";
import { createTheme, stripAnsi } from "./parts/theme.js";
import { StatusLine, contextText } from "./status-line.js";

const usage = (total: number, last: number, window: number | null) => ({
  total_token_usage: { input_tokens: total, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: total },
  last_token_usage: { input_tokens: last, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: last },
  model_context_window: window,
});

void test("while a turn runs: spinner, elapsed time, Esc to interrupt; context on the right", () => {
  let now = 10_000;
  const s = new StatusLine(createTheme(0), () => now);
  s.startedAt = 10_000;
  now = 75_000;
  s.usage = usage(12_345, 25_000, 100_000);
  const line = stripAnsi(s.render(80)[0] ?? "");
  assert.match(line, /^. Working \(1m 05s · Esc to interrupt\)\s+75% context left · 12K tokens used$/);
  assert.equal(line.length, 80);
});

void test("idle: only a hint and the usage", () => {
  const s = new StatusLine(createTheme(0));
  s.hint = "Press Ctrl+C again to quit";
  assert.deepEqual(s.render(30).map((l) => stripAnsi(l).trimEnd()), ["Press Ctrl+C again to quit"]);
  assert.equal(contextText(usage(999, 10, null)), "999 tokens used");
});
