import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hookHash, hookKey, hookStates, readStateTable as readRaw, stateWrites, writeHookStates } from "./trust.js";
import type { HookHandlerSpec } from "./hooks-file.js";

/** The state table as plain data (the TOML parser's tables have no prototype). */
const readStateTable = (file: string): unknown => JSON.parse(JSON.stringify(readRaw(file))) as unknown;

const handler = (command: string, extra: Partial<HookHandlerSpec> = {}): HookHandlerSpec => ({ command, timeoutSec: null, async: false, statusMessage: null, extra: {}, ...extra });

void test("hashes are the ones Codex 0.169's /hooks recorded for the same definitions", () => {
  // Recorded by the reference's TUI (hooks.state in config.toml) after trusting these hooks.
  assert.equal(
    hookHash("PreToolUse", "Bash", handler("(printf 'PRE '; cat; echo) >> /work/refhome-hooks/tui-a/hook.log")),
    "sha256:70ba78b4350f6f37b91179be30efc3386cec335de880bd47789163ba7e2f1d29",
  );
  assert.equal(
    hookHash("Stop", null, handler(`cat > /dev/null; echo '{"systemMessage":"stop-sys-msg"}'`, { statusMessage: "checking stop" })),
    "sha256:5f0449c12e814431e00c24d9a46274ee46afd216edddd62742b2a7300483414b",
  );
  assert.equal(
    hookHash("UserPromptSubmit", null, handler(`cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ups ctx"}}'`)),
    "sha256:785201d391bc0d3fa7257beecf4ca7e9994832f0ae1a258445e55877e7a5ccd9",
  );
  // An explicit timeout is part of the definition; the default one hashes as 600.
  assert.equal(hookHash("Stop", null, handler("x")), hookHash("Stop", null, handler("x", { timeoutSec: 600 })));
  assert.notEqual(hookHash("Stop", null, handler("x")), hookHash("Stop", null, handler("x", { timeoutSec: 10 })));
});

void test("state keys, and states merged field by field across tables", () => {
  assert.equal(hookKey("/h/hooks.json", "PreToolUse", 1, 2), "/h/hooks.json:pre_tool_use:1:2");
  const states = hookStates([
    { "a:stop:0:0": { trusted_hash: "sha256:1", enabled: false }, " ": { enabled: true }, bad: "x" },
    { "a:stop:0:0": { enabled: true } },
  ]);
  assert.deepEqual([...states.entries()], [["a:stop:0:0", { trustedHash: "sha256:1", enabled: true }]]);
});

void test("trusting writes the current hash into config.toml in place, keeping what was there; distrusting removes it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-trust-"));
  const file = join(dir, "config.toml");
  writeFileSync(file, '# my settings\nmodel = "gpt-5.5"\n');
  const key = `${join(dir, "hooks.json")}:pre_tool_use:0:0`;
  await writeHookStates(file, stateWrites([{ key, trust: true }, { key: "unknown", trust: true }], (k) => (k === key ? "sha256:abc" : undefined)));
  const text = readFileSync(file, "utf8");
  assert.match(text, /^# my settings\nmodel = "gpt-5.5"\n/);
  assert.deepEqual(readStateTable(file), { [key]: { trusted_hash: "sha256:abc" } });
  await writeHookStates(file, stateWrites([{ key, enabled: false }], () => "sha256:abc"));
  assert.deepEqual(readStateTable(file), { [key]: { trusted_hash: "sha256:abc", enabled: false } });
  await writeHookStates(file, stateWrites([{ key, trust: false }], () => "sha256:abc"));
  assert.deepEqual(readStateTable(file), { [key]: { enabled: false } });
});
