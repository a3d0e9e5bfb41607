import { test } from "node:test";
import assert from "node:assert/strict";
import { modelInfoFor } from "./catalog.js";

void test("gpt-5.5 matches the reference's observed settings", () => {
  const m = modelInfoFor("gpt-5.5");
  assert.equal(m.slug, "gpt-5.5");
  assert.equal(m.family, "gpt-5.5");
  assert.equal(m.contextWindow, 258_400);
  assert.equal(m.shellTool, "exec_command");
  assert.equal(m.applyPatchTool, "freeform");
  assert.equal(m.planTool, false);
  assert.equal(m.viewImageTool, true);
  assert.equal(m.requestUserInputTool, true);
  assert.equal(m.supportsReasoning, true);
  assert.equal(m.defaultReasoningEffort, "medium");
  assert.equal(m.supportsVerbosity, true);
  assert.equal(m.defaultVerbosity, "low");
  assert.equal(m.supportsParallelToolCalls, true);
  assert.equal(m.truncationTokens, 10_000);
});

void test("longest prefix wins", () => {
  assert.equal(modelInfoFor("gpt-5.1-codex-max").family, "gpt-5.1-codex-max");
  assert.equal(modelInfoFor("gpt-5.1-codex-mini").family, "gpt-5.1-codex");
  assert.equal(modelInfoFor("gpt-5.1-2025-11-13").family, "gpt-5.1");
  assert.equal(modelInfoFor("gpt-5-codex").family, "gpt-5-codex");
  assert.equal(modelInfoFor("gpt-5-mini").family, "gpt-5");
  assert.equal(modelInfoFor("gpt-5.2-codex").family, "gpt-5.2-codex");
  assert.equal(modelInfoFor("gpt-5.2-pro").family, "gpt-5.2");
  assert.equal(modelInfoFor("gpt-4.1-2025-04-14").family, "gpt-4.1");
  assert.equal(modelInfoFor("codex-mini-latest").family, "codex-mini-latest");
  assert.equal(modelInfoFor("openai/gpt-oss-120b").family, "gpt-oss");
  assert.equal(modelInfoFor("o4-mini").family, "o4-mini");
});

void test("codex-tuned families use shell_command, freeform patches and update_plan", () => {
  for (const slug of ["gpt-5-codex", "gpt-5.1-codex", "gpt-5.1-codex-max"]) {
    const m = modelInfoFor(slug);
    assert.equal(m.shellTool, "shell_command", slug);
    assert.equal(m.applyPatchTool, "freeform", slug);
    assert.equal(m.planTool, true, slug);
    assert.equal(m.supportsVerbosity, false, slug);
    assert.equal(m.contextWindow, 258_400, slug);
  }
});

void test("older and non-reasoning families", () => {
  const o3 = modelInfoFor("o3");
  assert.equal(o3.supportsReasoning, true);
  assert.equal(o3.contextWindow, 190_000);
  assert.equal(o3.shellTool, "shell");
  assert.equal(o3.applyPatchTool, "function");
  const g41 = modelInfoFor("gpt-4.1");
  assert.equal(g41.supportsReasoning, false);
  assert.equal(g41.shellTool, "shell");
  const oss = modelInfoFor("gpt-oss-20b");
  assert.equal(oss.applyPatchTool, "function");
  assert.equal(oss.viewImageTool, false);
});

void test("unknown slugs get conservative defaults", () => {
  const m = modelInfoFor("my-local-llama");
  assert.equal(m.family, "unknown");
  assert.equal(m.slug, "my-local-llama");
  assert.equal(m.contextWindow, null);
  assert.equal(m.autoCompactTokenLimit, null);
  assert.equal(m.supportsReasoning, false);
  assert.equal(m.supportsParallelToolCalls, false);
  assert.equal(m.shellTool, "shell");
  assert.equal(m.applyPatchTool, "function");
  assert.equal(m.planTool, true);
  assert.equal(m.defaultReasoningEffort, null);
});
