import { test } from "node:test";
import assert from "node:assert/strict";
import { rateLimitLines, statusReport } from "./status-report.js";
import { sandboxPolicyFor } from "../protocol/policy.js";

const usage = { input_tokens: 9000, cached_input_tokens: 0, output_tokens: 1000, reasoning_output_tokens: 0, total_tokens: 10_000 };
const NOW = 1_900_000_000;

void test("/status names the settings, the tokens, the context left and the rate-limit windows", () => {
  const lines = statusReport({
    header: { version: "1", model: "gpt-5.5", effort: "high", cwd: "/repo", approval: "on-request", sandbox: sandboxPolicyFor("workspace-write"), sessionId: "abc" },
    rolloutPath: "/h/sessions/r.jsonl",
    totals: usage,
    usage: { total_token_usage: usage, last_token_usage: { ...usage, total_tokens: 25_000 }, model_context_window: 100_000 },
    rateLimits: {
      limit_id: "codex",
      limit_name: null,
      primary: { used_percent: 25, window_minutes: 300, resets_at: NOW + 3 * 3600 + 12 * 60 },
      secondary: { used_percent: 80.4, window_minutes: 10_080, resets_at: NOW + 2 * 86_400 + 5 * 3600 },
      credits: { has_credits: true, unlimited: false, balance: "12.50" },
      plan_type: "pro",
    },
    now: NOW,
  });
  const text = lines.join("\n");
  assert.match(text, /^model: +gpt-5\.5 \(effort high\)$/m);
  assert.match(text, /^approval: +on-request$/m);
  assert.match(text, /^sandbox: +workspace-write$/m);
  assert.match(text, /^session: +abc$/m);
  assert.match(text, /^rollout: +\/h\/sessions\/r\.jsonl$/m);
  assert.match(text, /^tokens: +10,000 used \(input 9,000, output 1,000\)$/m);
  assert.match(text, /^context: +75% context left · 10K tokens used$/m);
  assert.match(text, /^5h limit: +\[███░░░░░░░\] 25% used, resets in 3h 12m$/m);
  assert.match(text, /^weekly: +\[█{8}░{2}\] 80% used, resets in 2d 5h$/m);
  assert.match(text, /^credits: +12\.50$/m);
  assert.match(text, /^plan: +pro$/m);
});

void test("no limits reported: no limit lines; a window without a reset time says only how much is used", () => {
  assert.deepEqual(rateLimitLines(null, NOW), []);
  assert.deepEqual(rateLimitLines({ limit_id: null, limit_name: null, primary: { used_percent: 5, window_minutes: 45, resets_at: null }, secondary: null, credits: null, plan_type: null }, NOW), ["45m limit:  [█░░░░░░░░░] 5% used"]);
});

void test("before the session starts /status says so", () => {
  assert.deepEqual(statusReport({ header: null, rolloutPath: null, totals: null, usage: null, rateLimits: null, now: NOW }), ["the session has not started yet"]);
});
