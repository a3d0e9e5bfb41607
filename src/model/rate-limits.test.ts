import { test } from "node:test";
import assert from "node:assert/strict";
import { mergeRateLimits, parseRateLimitHeaders } from "./rate-limits.js";

void test("rate-limit headers: both windows, credits and plan; reset-after-seconds becomes a time", () => {
  const snapshot = parseRateLimitHeaders(
    {
      "x-codex-primary-used-percent": "12.5",
      "x-codex-primary-window-minutes": "300",
      "x-codex-primary-reset-at": "1704069000",
      "x-codex-secondary-used-percent": "40",
      "x-codex-secondary-window-minutes": "10080",
      "x-codex-secondary-reset-after-seconds": "60",
      "x-codex-credits-has-credits": "true",
      "x-codex-credits-unlimited": "false",
      "x-codex-credits-balance": " 3.42 ",
      "x-codex-plan-type": "plus",
    },
    1_000,
  );
  assert.deepEqual(snapshot, {
    limit_id: "codex",
    limit_name: null,
    primary: { used_percent: 12.5, window_minutes: 300, resets_at: 1704069000 },
    secondary: { used_percent: 40, window_minutes: 10080, resets_at: 1_060 },
    credits: { has_credits: true, unlimited: false, balance: "3.42" },
    plan_type: "plus",
  });
});

void test("rate-limit headers: none, unreadable or all-zero ones give no snapshot; another limit family is read by its prefix", () => {
  assert.equal(parseRateLimitHeaders({ "content-type": "text/event-stream" }), null);
  assert.equal(parseRateLimitHeaders({ "x-codex-primary-used-percent": "lots" }), null);
  assert.equal(parseRateLimitHeaders({ "x-codex-primary-used-percent": "0", "x-codex-primary-window-minutes": "0" }), null);
  const other = parseRateLimitHeaders({ "x-codex-active-limit": "codex_other", "x-codex-other-primary-used-percent": "80", "x-codex-other-limit-name": "sonic" });
  assert.deepEqual([other?.limit_id, other?.limit_name, other?.primary?.used_percent], ["codex_other", "sonic", 80]);
});

void test("merge rule: windows are replaced (a missing secondary clears it); credits and plan stay unless the update has them", () => {
  const first = parseRateLimitHeaders({
    "x-codex-primary-used-percent": "10",
    "x-codex-secondary-used-percent": "20",
    "x-codex-credits-has-credits": "true",
    "x-codex-credits-unlimited": "true",
    "x-codex-plan-type": "pro",
  });
  assert.ok(first);
  const update = parseRateLimitHeaders({ "x-codex-primary-used-percent": "11" });
  assert.ok(update);
  const merged = mergeRateLimits(first, update);
  assert.equal(merged.primary?.used_percent, 11);
  assert.equal(merged.secondary, null);
  assert.deepEqual(merged.credits, { has_credits: true, unlimited: true, balance: null });
  assert.equal(merged.plan_type, "pro");
  const replaced = mergeRateLimits(merged, { ...update, plan_type: "plus", credits: { has_credits: false, unlimited: false, balance: "0" } });
  assert.deepEqual([replaced.plan_type, replaced.credits?.has_credits], ["plus", false]);
  assert.deepEqual(mergeRateLimits(null, update), update);
});
