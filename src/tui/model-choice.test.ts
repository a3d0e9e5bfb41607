import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saveModelChoice } from "./model-choice.js";

void test("/model's default goes into config.toml in place: comments kept, the effort set or removed, a profile's table when one is active", async () => {
  const home = mkdtempSync(join(tmpdir(), "model-choice-"));
  const file = join(home, "config.toml");
  writeFileSync(file, '# mine\nmodel = "old"\nmodel_reasoning_effort = "low"\n\n[tui]\nalternate_screen = false\n');
  assert.equal(await saveModelChoice(home, null, "gpt-5.5", "high"), file);
  assert.equal(readFileSync(file, "utf8"), '# mine\nmodel = "gpt-5.5"\nmodel_reasoning_effort = "high"\n\n[tui]\nalternate_screen = false\n');
  await saveModelChoice(home, null, "gpt-5.5", null);
  assert.doesNotMatch(readFileSync(file, "utf8"), /model_reasoning_effort/);
  await saveModelChoice(home, "work", "gpt-5.1-codex", "medium");
  const text = readFileSync(file, "utf8");
  assert.match(text, /^model = "gpt-5\.5"$/m);
  assert.match(text, /\[profiles\.work\]\nmodel = "gpt-5\.1-codex"\nmodel_reasoning_effort = "medium"/);
  const fresh = mkdtempSync(join(tmpdir(), "model-choice-"));
  await saveModelChoice(fresh, null, "gpt-5.5", null);
  assert.equal(readFileSync(join(fresh, "config.toml"), "utf8"), 'model = "gpt-5.5"\n');
});
