import { test } from "node:test";
import assert from "node:assert/strict";
import { modelInfoFor } from "../model/catalog.js";
import { effectiveModelInfo } from "./model-settings.js";

const none = { contextWindow: null, toolOutputTokenLimit: null, supportsReasoningSummaries: null, features: {} };

void test("config settings change the model's window, output budget, reasoning and tools", () => {
  const base = modelInfoFor("gpt-5.5");
  assert.deepEqual(effectiveModelInfo(base, none), base);
  const changed = effectiveModelInfo(base, { ...none, contextWindow: 32_000, toolOutputTokenLimit: 500 });
  assert.deepEqual([changed.contextWindow, changed.truncationTokens], [32_000, 500]);
  assert.equal(effectiveModelInfo(base, { ...none, features: { unified_exec: false } }).shellTool, "shell_command");
  assert.equal(effectiveModelInfo(base, { ...none, features: { shell_tool: false } }).shellTool, null);
  const unknown = modelInfoFor("some-local-model");
  const reasoning = effectiveModelInfo(unknown, { ...none, supportsReasoningSummaries: true });
  assert.deepEqual([reasoning.supportsReasoning, reasoning.supportsReasoningSummaries], [true, true]);
  // apply_patch_freeform was removed from the reference's registry: each family decides alone.
  const fnPatch = modelInfoFor("gpt-4.1");
  assert.equal(effectiveModelInfo(fnPatch, { ...none, features: { apply_patch_freeform: true } }).applyPatchTool, "function");
});

void test("the auto-compact limit: the catalog's, 90% of a configured window, and a configured limit never above that", () => {
  const base = modelInfoFor("gpt-5.5");
  assert.equal(base.autoCompactTokenLimit, 244_800);
  assert.equal(effectiveModelInfo(base, { ...none, contextWindow: 32_000 }).autoCompactTokenLimit, 28_800);
  assert.equal(effectiveModelInfo(base, { ...none, contextWindow: 32_000, autoCompactTokenLimit: 20_000 }).autoCompactTokenLimit, 20_000);
  assert.equal(effectiveModelInfo(base, { ...none, contextWindow: 32_000, autoCompactTokenLimit: 31_000 }).autoCompactTokenLimit, 28_800);
  assert.equal(effectiveModelInfo(base, { ...none, autoCompactTokenLimit: 100_000 }).autoCompactTokenLimit, 100_000);
  assert.equal(effectiveModelInfo(modelInfoFor("some-local-model"), { ...none, autoCompactTokenLimit: 5_000 }).autoCompactTokenLimit, 5_000);
});
