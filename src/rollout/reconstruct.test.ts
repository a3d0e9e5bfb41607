import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { userText } from "../protocol/items.js";
import { COMPACTION_SUMMARY_PREFIX, loadThread } from "./reconstruct.js";

const ID = "01a20039-0605-7f82-bb57-0384ad2af383";

function rollout(lines: Array<[string, unknown]>, name = `rollout-2026-11-21T22-27-46-${ID}.jsonl`): string {
  const path = join(mkdtempSync(join(tmpdir(), "codex-ts-replay-")), name);
  writeFileSync(path, lines.map(([type, payload]) => `${JSON.stringify({ timestamp: "2026-11-21T22:27:46.000Z", type, payload })}\n`).join(""));
  return path;
}

const meta: [string, unknown] = ["session_meta", { id: ID, cwd: "/w", base_instructions: { text: "base" } }];
const item = (payload: unknown): [string, unknown] => ["response_item", payload];
const env = userText("<environment_context>\n  <cwd>/w</cwd>\n</environment_context>");
const said = (text: string): [string, unknown] => item({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const usage = (input: number): Record<string, number> => ({ input_tokens: input, cached_input_tokens: 0, output_tokens: 1, reasoning_output_tokens: 0, total_tokens: input + 1 });

void test("replay: id and base instructions from the first session_meta, items in order, last turn settings and tokens", () => {
  const path = rollout([
    meta,
    item(env),
    ["turn_context", { cwd: "/old", approval_policy: "never", sandbox_policy: { type: "read-only" }, model: "m1", summary: "auto" }],
    item(userText("hi")),
    said("hello"),
    ["event_msg", { type: "token_count", info: { total_token_usage: usage(10), last_token_usage: usage(10), model_context_window: 1000 } }],
    ["event_msg", { type: "token_count", info: null }],
    ["turn_context", { cwd: "/w", approval_policy: "on-request", sandbox_policy: { type: "workspace-write", network_access: true }, model: "m2" }],
    ["world_state", { full: true }],
    ["session_meta", { id: "00000000-0000-7000-8000-000000000000" }],
  ]);
  const t = loadThread(path);
  assert.equal(t.threadId, ID);
  assert.equal(t.baseInstructions, "base");
  assert.deepEqual(t.history, [env, userText("hi"), { type: "message", role: "assistant", content: [{ type: "output_text", text: "hello" }] }]);
  assert.equal(t.lastModel, "m2");
  assert.deepEqual(t.lastTurn, {
    cwd: "/w",
    approvalPolicy: "on-request",
    sandboxPolicy: { type: "workspace-write", writable_roots: [], network_access: true, exclude_tmpdir_env_var: false, exclude_slash_tmp: false },
  });
  assert.equal(t.tokenInfo?.total_token_usage.input_tokens, 10);
  assert.deepEqual(t.warnings, []);
});

void test("compactions replace the history; rollbacks drop the last user turns", () => {
  const replaced = loadThread(
    rollout([meta, item(env), item(userText("a")), said("x"), ["compacted", { message: "s", replacement_history: [userText("a"), userText("summary")] }], item(userText("b"))]),
  );
  assert.deepEqual(replaced.history, [userText("a"), userText("summary"), userText("b")]);

  const local = loadThread(
    rollout([meta, item(env), ["turn_context", { cwd: "/w", approval_policy: "never", sandbox_policy: { type: "read-only" }, model: "m" }], item(userText("a")), said("x"), ["compacted", { message: "the gist" }]]),
  );
  assert.deepEqual(local.history, [userText("a"), userText(`${COMPACTION_SUMMARY_PREFIX}the gist`)]);
  assert.equal(local.lastTurn, null, "the context items are gone; the next run must send them again");

  const rolledBack = loadThread(rollout([meta, item(env), item(userText("u1")), said("a1"), item(userText("u2")), said("a2"), ["event_msg", { type: "thread_rolled_back", num_turns: 1 }]]));
  assert.deepEqual(rolledBack.history, [env, userText("u1"), { type: "message", role: "assistant", content: [{ type: "output_text", text: "a1" }] }]);
});

void test("unanswered calls are reported, orphan outputs left out, unknown kinds named in a warning", () => {
  const t = loadThread(
    rollout([
      meta,
      item({ type: "function_call_output", call_id: "ghost", output: "x" }),
      item({ type: "function_call", name: "f", arguments: "{}", call_id: "done" }),
      item({ type: "function_call_output", call_id: "done", output: "ok" }),
      item({ type: "local_shell_call", call_id: "l" }),
      item({ type: "ghost_snapshot" }),
      item({ type: "custom_tool_call", name: "apply_patch", input: "p", call_id: "open" }),
    ]),
  );
  assert.deepEqual(t.history.map((i) => i.type), ["function_call", "function_call_output", "custom_tool_call"]);
  assert.deepEqual(t.unanswered.map((c) => c.call_id), ["open"]);
  assert.equal(t.warnings.length, 1);
  assert.match(t.warnings[0] ?? "", /local_shell_call ×1$/);
});

void test("a file without session_meta takes its id from its name; an empty one is an error", () => {
  assert.equal(loadThread(rollout([item(userText("x"))])).threadId, ID);
  assert.throws(() => loadThread(rollout([], `rollout-2026-11-21T22-27-46-${ID}.jsonl`)), /empty session file/);
  assert.throws(() => loadThread(rollout([item(userText("x"))], "notes.jsonl")), /not a session file/);
});
