import { test } from "node:test";
import assert from "node:assert/strict";
import { TokenAccounting } from "./token-usage.js";

const usage = (input: number, output: number) => ({ input_tokens: input, cached_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output });

void test("token accounting: totals add up, a replaced history shows its estimate, an overflow shows the window full", () => {
  const t = new TokenAccounting();
  assert.equal(t.info(), null);
  t.addUsage(usage(100, 10), 32_000);
  t.addUsage(usage(200, 20), 32_000);
  assert.deepEqual(t.info(), { total_token_usage: usage(300, 30), last_token_usage: usage(200, 20), model_context_window: 32_000 });
  assert.equal(t.reportedContextTokens, 220);
  t.recompute(1_234, 32_000);
  assert.deepEqual(t.info()?.last_token_usage, { ...usage(0, 0), total_tokens: 1_234 });
  assert.equal(t.info()?.total_token_usage.total_tokens, 330);
  assert.equal(t.reportedContextTokens, null);
  t.setFull(32_000);
  assert.equal(t.info()?.last_token_usage.total_tokens, 32_000);
  // A resumed thread continues its recorded totals.
  const resumed = new TokenAccounting({ total_token_usage: usage(5, 5), last_token_usage: usage(5, 5), model_context_window: null });
  resumed.addUsage(usage(1, 1), 1_000);
  assert.deepEqual(resumed.info()?.total_token_usage, usage(6, 6));
});
