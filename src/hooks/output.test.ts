import { test } from "node:test";
import assert from "node:assert/strict";
import { parseRun, type ParsedRun } from "./output.js";
import type { HookEventName } from "../protocol/hook-events.js";
import type { HookProcessResult } from "./runner.js";

const ran = (exitCode: number, stdout = "", stderr = ""): HookProcessResult => ({ exitCode, stdout, stderr, error: null, startedAt: 0, completedAt: 0, durationMs: 1 });
const parse = (event: HookEventName, exitCode: number, stdout = "", stderr = "", mcpTool = false): ParsedRun => parseRun(event, ran(exitCode, stdout, stderr), { mcpTool });
const json = (value: unknown): string => JSON.stringify(value);

void test("PreToolUse: exit 2 and a deny block with their reason; what cannot be honoured fails and blocks nothing", () => {
  assert.deepEqual([parse("PreToolUse", 2, "", "  blocked by policy\n").status, parse("PreToolUse", 2, "", "blocked by policy").block], ["blocked", "blocked by policy"]);
  const deny = parse("PreToolUse", 0, json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no echo" } }));
  assert.deepEqual([deny.status, deny.block, deny.entries], ["blocked", "no echo", [{ kind: "feedback", text: "no echo" }]]);
  assert.equal(parse("PreToolUse", 0, json({ decision: "block", reason: "legacy" })).block, "legacy");
  const allow = parse("PreToolUse", 0, json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo x" } } }));
  assert.deepEqual([allow.status, allow.updatedInput], ["completed", { command: "echo x" }]);
  // Each of these fails (as in the reference) and decides nothing.
  const failures: Array<[number, string, string, RegExp]> = [
    [2, "", "", /exited with code 2 but did not write a reason/],
    [1, "", "crash", /hook exited with code 1/],
    [0, json({ bogus: 1 }), "", /unknown field `bogus`/],
    [0, json({ decision: "block" }), "", /decision:block without a non-empty reason/],
    [0, json({ continue: false, stopReason: "x" }), "", /unsupported continue:false/],
    [0, json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } }), "", /unsupported permissionDecision:ask/],
    [0, json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" } }), "", /without a non-empty permissionDecisionReason/],
    [0, json({ hookSpecificOutput: { hookEventName: "PostToolUse" } }), "", /must be "PreToolUse"/],
    [0, "{not json", "", /invalid PreToolUse JSON output/],
  ];
  for (const [code, out, err, why] of failures) {
    const run = parse("PreToolUse", code, out, err);
    assert.equal(run.status, "failed", `${code} ${out}`);
    assert.equal(run.block, null);
    assert.match(run.entries.at(-1)?.text ?? "", why);
  }
  // Plain text is ignored here; a systemMessage is a warning.
  assert.deepEqual(parse("PreToolUse", 0, "all good\n").status, "completed");
  assert.deepEqual(parse("PreToolUse", 0, json({ systemMessage: "careful" })).entries, [{ kind: "warning", text: "careful" }]);
});

void test("context events take plain text or additionalContext; Stop wants JSON; continue:false stops", () => {
  assert.deepEqual(parse("SessionStart", 0, "notes\n").contexts, ["notes"]);
  assert.deepEqual(parse("UserPromptSubmit", 0, json({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ctx" } })).contexts, ["ctx"]);
  assert.equal(parse("UserPromptSubmit", 2, "", "no").block, "no");
  assert.deepEqual(parse("SessionStart", 0, json({ continue: false, stopReason: "halt" })).stop, { reason: "halt" });
  assert.equal(parse("SessionStart", 2, "", "x").status, "failed");
  assert.match(parse("Stop", 0, "plain").entries[0]?.text ?? "", /invalid Stop JSON output/);
  assert.equal(parse("Stop", 0, json({ decision: "block", reason: "keep going" })).block, "keep going");
  assert.equal(parse("Stop", 2, "", "run the tests").block, "run the tests");
  assert.equal(parse("Stop", 0, json({ continue: false })).status, "stopped");
  assert.equal(parse("SessionEnd", 0, "anything").status, "completed");
});

void test("PostToolUse: a block's reason, a stop's reason or a replacement replaces the output; updatedMCPToolOutput is for MCP tools", () => {
  assert.equal(parse("PostToolUse", 0, json({ decision: "block", reason: "hidden" })).block, "hidden");
  assert.deepEqual(parse("PostToolUse", 0, json({ continue: false, stopReason: "post-stop" })).stop, { reason: "post-stop" });
  assert.equal(parse("PostToolUse", 0, json({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "new" } })).replacement, "new");
  const mcp = { content: [{ type: "text", text: "REPLACED" }] };
  assert.deepEqual(parse("PostToolUse", 0, json({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: mcp } }), "", true).replacement, mcp);
  assert.equal(parse("PostToolUse", 0, json({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: mcp } })).status, "failed");
  assert.match(parse("PostToolUse", 0, json({ reason: "why" })).entries[0]?.text ?? "", /reason without decision/);
});

void test("PermissionRequest: allow, deny (with its message or the default), and what it cannot do", () => {
  const answer = (decision: unknown): ParsedRun => parse("PermissionRequest", 0, json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } }));
  assert.equal(answer({ behavior: "allow" }).allow, true);
  assert.equal(answer({ behavior: "deny", message: "no" }).block, "no");
  assert.equal(answer({ behavior: "deny" }).block, "PermissionRequest hook denied approval");
  assert.match(answer({ behavior: "allow", updatedInput: {} }).entries[0]?.text ?? "", /unsupported updatedInput/);
  assert.match(answer({ message: "x" }).entries[0]?.text ?? "", /missing field `behavior`/);
  assert.equal(parse("PermissionRequest", 2, "", "denied by script").block, "denied by script");
});

void test("a timeout or a failure to start is a failure with its reason", () => {
  const run = parseRun("PreToolUse", { exitCode: null, stdout: "", stderr: "", error: "hook timed out after 1s", startedAt: 0, completedAt: 1, durationMs: 1000 });
  assert.deepEqual([run.status, run.entries], ["failed", [{ kind: "error", text: "hook timed out after 1s" }]]);
});
