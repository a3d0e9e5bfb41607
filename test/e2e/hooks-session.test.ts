/**
 * Lifecycle hooks through the core's seam (ops in, events out) against the scripted model
 * server: the events exec cannot reach (PermissionRequest, compaction, Interrupt, steering,
 * sub-agents), MCP and web-search calls, and `/hooks`' ops that trust a hook mid-session.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Event } from "../../src/protocol/events.js";
import type { HookRunSummary } from "../../src/protocol/hook-events.js";
import { sandboxPolicyFor } from "../../src/protocol/policy.js";
import { fnCall, inputTexts, text, turn, webSearch, type ModelServer } from "../support/model-server.js";
import { until, withSession } from "../support/session.js";
import { command, hookDir, userRegistry, writeHooksJson } from "../support/hooks.js";
import { stdioFixtureServer } from "../fixtures/mcp/stdio-server.js";

function outputOf(server: ModelServer, callId: string): unknown {
  return server.requests.flatMap((q) => q.body.input ?? []).find((i) => (i.type === "function_call_output" || i.type === "custom_tool_call_output") && i.call_id === callId)?.output;
}

const runs = (events: Event[]): HookRunSummary[] => events.flatMap((e) => (e.msg.type === "hook_completed" ? [e.msg.run] : []));
const say = (value: unknown): string => `cat >/dev/null; echo '${JSON.stringify(value)}'`;
const prompt = (t: string) => ({ type: "user_input" as const, items: [{ type: "text" as const, text: t }] });

void test("PermissionRequest answers an approval question before the user is asked: a deny refuses with its message, an allow runs", async () => {
  const hooks = hookDir();
  writeHooksJson(hooks.dir, {
    PermissionRequest: [
      {
        matcher: "Bash",
        hooks: [
          command(
            `input=$(cat); printf '%s' "$input" > ${JSON.stringify(join(hooks.dir, "asked.json"))}; case "$input" in *forbidden*) echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "not on this machine" } } })}';; *) echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } })}';; esac`,
          ),
        ],
      },
    ],
  });
  const escalated = (cmd: string, id: string) => fnCall("exec_command", { cmd, sandbox_permissions: "require_escalated", justification: `need ${id}`, yield_time_ms: 5000 }, id);
  await withSession(
    [turn(escalated("echo forbidden", "denied")), turn(escalated("echo allowed", "allowed")), turn(text("done"))],
    async (session, server) => {
      const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "go" }], approval_policy: "on-request", sandbox_policy: sandboxPolicyFor("workspace-write") });
      const events = await until(session, id, "task_complete");
      assert.equal(events.filter((e) => e.msg.type === "question_asked").length, 0, "nobody was asked");
      assert.equal(outputOf(server, "denied"), "not on this machine");
      assert.match(String(outputOf(server, "allowed")), /Process exited with code 0\n[\s\S]*allowed/);
      const asked = JSON.parse(readFileSync(join(hooks.dir, "asked.json"), "utf8")) as Record<string, unknown>;
      assert.deepEqual(Object.keys(asked), ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "tool_name", "tool_input"]);
      assert.deepEqual([asked.permission_mode, asked.tool_name, asked.tool_input], ["default", "Bash", { command: "echo allowed", description: "need allowed" }]);
    },
    { hooks: userRegistry(hooks.dir) },
  );
});

void test("a manual compaction runs PreCompact, PostCompact, then SessionStart with source compact, whose context follows the summary", async () => {
  const hooks = hookDir();
  writeHooksJson(hooks.dir, {
    PreCompact: [{ matcher: "manual", hooks: [command(hooks.record("pre"))] }],
    PostCompact: [{ hooks: [command(hooks.record("post"))] }],
    SessionStart: [{ matcher: "compact", hooks: [command(`${hooks.record("start")}; echo 'Re-read NOTES.md after a compaction.'`)] }],
  });
  await withSession(
    [turn(text("Noted.")), turn(text("SUMMARY: nothing yet.")), turn(text("Continuing."))],
    async (session, server) => {
      await until(session, session.submit(prompt("plan it")), "task_complete");
      const events = await until(session, session.submit({ type: "compact" }), "task_complete");
      assert.ok(events.some((e) => e.msg.type === "context_compacted"));
      await until(session, session.submit(prompt("go on")), "task_complete");
      assert.deepEqual(hooks.records("pre").map((e) => [e.hook_event_name, e.trigger]), [["PreCompact", "manual"]]);
      assert.deepEqual(Object.keys(hooks.records("post")[0] ?? {}), ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "trigger"]);
      assert.deepEqual(hooks.records("start").map((e) => e.source), ["compact"]);
      const texts = inputTexts(server.requests[2]?.body.input);
      assert.deepEqual(texts.slice(-3), [texts.at(-3), "Re-read NOTES.md after a compaction.", "go on"]);
      assert.match(texts.at(-3) ?? "", /SUMMARY: nothing yet\./);
    },
    { hooks: userRegistry(hooks.dir) },
  );
});

void test("a PreCompact hook that says stop keeps the history as it was", async () => {
  const hooks = hookDir();
  writeHooksJson(hooks.dir, { PreCompact: [{ hooks: [command(say({ continue: false, stopReason: "not now" }))] }] });
  await withSession(
    [turn(text("Noted."))],
    async (session, server) => {
      await until(session, session.submit(prompt("plan it")), "task_complete");
      const events = await until(session, session.submit({ type: "compact" }), "task_complete");
      assert.equal(events.some((e) => e.msg.type === "context_compacted"), false);
      assert.deepEqual(runs(events).map((r) => [r.event_name, r.status, r.entries]), [["pre_compact", "stopped", [{ kind: "stop", text: "not now" }]]]);
      assert.equal(server.requests.length, 1, "no summary was asked for");
    },
    { hooks: userRegistry(hooks.dir) },
  );
});

void test("an interrupt runs the Interrupt hooks with the turn's facts", async () => {
  const hooks = hookDir();
  writeHooksJson(hooks.dir, { Interrupt: [{ hooks: [command(hooks.record("interrupt"))] }] });
  await withSession(
    [turn(fnCall("exec_command", { cmd: "sleep 20", yield_time_ms: 30000 }, "slow"))],
    async (session) => {
      const id = session.submit(prompt("wait"));
      const events = await until(session, id, "exec_command_begin");
      session.submit({ type: "interrupt" });
      await until(session, id, "turn_aborted", events);
      const turnId = events.find((e) => e.msg.type === "task_started" && e.id === id)?.msg;
      for (let i = 0; i < 600 && hooks.records("interrupt").length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      const [payload] = hooks.records("interrupt");
      assert.equal(payload?.hook_event_name, "Interrupt");
      assert.equal(payload?.turn_id, turnId?.type === "task_started" ? turnId.turn_id : "");
    },
    { hooks: userRegistry(hooks.dir) },
  );
});

void test("a prompt steered into a running turn goes through UserPromptSubmit: a blocked one never reaches the model", async () => {
  const hooks = hookDir();
  writeHooksJson(hooks.dir, {
    UserPromptSubmit: [{ hooks: [command(`input=$(cat); case "$input" in *password*) echo 'no secrets in prompts' >&2; exit 2;; esac`)] }],
  });
  await withSession(
    [turn(fnCall("exec_command", { cmd: "sleep 1", yield_time_ms: 5000 }, "c1")), turn(text("done"))],
    async (session, server) => {
      const id = session.submit(prompt("start"));
      await until(session, id, "exec_command_begin");
      session.submit(prompt("my password is hunter2"));
      session.submit(prompt("also check the README"));
      await until(session, id, "task_complete");
      const texts = inputTexts(server.requests[1]?.body.input).join("\n");
      assert.match(texts, /also check the README/);
      assert.doesNotMatch(texts, /hunter2/);
    },
    { hooks: userRegistry(hooks.dir) },
  );
});

void test("/hooks' ops: an untrusted hook is listed, trusted by update_hook_state (saved in config.toml), and runs from the next turn", async () => {
  const hooks = hookDir();
  writeHooksJson(hooks.dir, { UserPromptSubmit: [{ hooks: [command(hooks.record("ups"))] }] });
  await withSession(
    [turn(text("one")), turn(text("two"))],
    async (session) => {
      await until(session, session.submit(prompt("first")), "task_complete");
      assert.equal(hooks.records("ups").length, 0);
      const listId = session.submit({ type: "list_hooks" });
      const listed = (await until(session, listId, "list_hooks_response")).at(-1)?.msg;
      assert.ok(listed?.type === "list_hooks_response");
      assert.deepEqual(listed.hooks.map((h) => [h.event_name, h.trust_status, h.enabled]), [["user_prompt_submit", "untrusted", true]]);
      const key = listed.hooks[0]?.key ?? "";
      const updateId = session.submit({ type: "update_hook_state", updates: [{ key, trust: true }] });
      const updated = (await until(session, updateId, "list_hooks_response")).at(-1)?.msg;
      assert.ok(updated?.type === "list_hooks_response");
      assert.equal(updated.hooks[0]?.trust_status, "trusted");
      assert.match(readFileSync(join(hooks.dir, "config.toml"), "utf8"), new RegExp(`trusted_hash = "${updated.hooks[0]?.current_hash ?? "-"}"`));
      await until(session, session.submit(prompt("second")), "task_complete");
      assert.deepEqual(hooks.records("ups").map((e) => e.prompt), ["second"]);
    },
    { hooks: userRegistry(hooks.dir, { bypassTrust: false }) },
  );
});

void test("a sub-agent's session runs SubagentStart and SubagentStop in place of SessionStart and Stop", async () => {
  const hooks = hookDir();
  writeHooksJson(hooks.dir, {
    SessionStart: [{ hooks: [command(hooks.record("session-start"))] }],
    SubagentStart: [{ matcher: "explorer", hooks: [command(`${hooks.record("start")}; echo 'You explore; do not edit.'`)] }],
    UserPromptSubmit: [{ hooks: [command(hooks.record("prompt"))] }],
    Stop: [{ hooks: [command(hooks.record("stop"))] }],
    SubagentStop: [{ hooks: [command(`input=$(cat); printf '%s' "$input" | ${hooks.record("stop-sub")}; case "$input" in *'"stop_hook_active":false'*) echo 'list the tests too' >&2; exit 2;; esac`)] }],
  });
  const agent = { agentId: "01sub", agentType: "explorer", parentTranscriptPath: "/parent/rollout.jsonl" };
  await withSession(
    [turn(text("files: a.ts")), turn(text("files: a.ts; tests: a.test.ts"))],
    async (session, server) => {
      await until(session, session.submit(prompt("list the files")), "task_complete");
      assert.equal(hooks.records("session-start").length, 0);
      assert.equal(hooks.records("stop").length, 0);
      const [start] = hooks.records("start");
      assert.deepEqual([start?.session_id, start?.agent_id, start?.agent_type], ["01root", "01sub", "explorer"]);
      assert.deepEqual(Object.keys(hooks.records("prompt")[0] ?? {}).slice(0, 4), ["session_id", "turn_id", "agent_id", "agent_type"]);
      const stops = hooks.records("stop-sub");
      assert.deepEqual(stops.map((e) => [e.stop_hook_active, e.last_assistant_message, e.transcript_path, e.agent_id]), [
        [false, "files: a.ts", "/parent/rollout.jsonl", "01sub"],
        [true, "files: a.ts; tests: a.test.ts", "/parent/rollout.jsonl", "01sub"],
      ]);
      assert.ok(inputTexts(server.requests[0]?.body.input).includes("You explore; do not edit."));
      assert.match(inputTexts(server.requests[1]?.body.input).at(-1) ?? "", /<hook_prompt hook_run_id="subagent_stop:3:.*">list the tests too<\/hook_prompt>/);
    },
    { hooks: userRegistry(hooks.dir), subagent: agent, hookSessionId: "01root" },
  );
});

void test("MCP tools: hooks see the qualified name and the arguments; updatedMCPToolOutput replaces the result; PermissionRequest answers the approval", async () => {
  const hooks = hookDir();
  const fx = stdioFixtureServer(["--name", "fx"]);
  writeHooksJson(hooks.dir, {
    PreToolUse: [{ matcher: "mcp__fx__.*", hooks: [command(hooks.record("pre"))] }],
    PostToolUse: [{ matcher: "mcp__fx__echo", hooks: [command(`${hooks.record("post")}; echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: { content: [{ type: "text", text: "REDACTED" }] } } })}'`)] }],
    PermissionRequest: [{ matcher: "mcp__fx__delete_everything", hooks: [command(say({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny" } } }))] }],
  });
  await withSession(
    [turn(fnCall("mcp__fx__echo", { text: "secret" }, "e"), fnCall("mcp__fx__delete_everything", {}, "d")), turn(text("ok"))],
    async (session, server) => {
      const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "go" }], approval_policy: "on-request" });
      const events = await until(session, id, "task_complete");
      assert.equal(events.filter((e) => e.msg.type === "question_asked").length, 0);
      assert.deepEqual(hooks.records("pre").map((e) => [e.tool_name, e.tool_input]).sort(), [["mcp__fx__delete_everything", {}], ["mcp__fx__echo", { text: "secret" }]]);
      assert.deepEqual(hooks.records("post").map((e) => e.tool_response), [{ content: [{ type: "text", text: "echo: secret" }] }]);
      assert.equal(JSON.stringify(outputOf(server, "e")).includes("echo: secret"), false);
      assert.match(JSON.stringify(outputOf(server, "e")), /REDACTED/);
      assert.match(String(outputOf(server, "d")), /rejected MCP tool call/);
    },
    { hooks: userRegistry(hooks.dir), mcpServers: { fx } },
  );
});

void test("the hosted web search goes through PreToolUse and PostToolUse once the provider has run it", async () => {
  const hooks = hookDir();
  writeHooksJson(hooks.dir, {
    PreToolUse: [{ matcher: "web_search", hooks: [command(hooks.record("pre"))] }],
    PostToolUse: [{ matcher: "web_search", hooks: [command(`${hooks.record("post")}; echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "Cite your sources." } })}'`)] }],
  });
  await withSession(
    [turn(webSearch({ type: "search", query: "node lts" }), text("Node 24.")), turn(text("unused"))],
    async (session, server) => {
      await until(session, session.submit(prompt("which node?")), "task_complete");
      assert.deepEqual(hooks.records("pre").map((e) => [e.tool_name, e.tool_input]), [["web_search", { type: "search", query: "node lts" }]]);
      assert.deepEqual(hooks.records("post").map((e) => e.tool_response), [{ query: "node lts", action: { type: "search", query: "node lts" } }]);
      assert.equal(server.requests.length, 1);
    },
    { hooks: userRegistry(hooks.dir) },
  );
});
