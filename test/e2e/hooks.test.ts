/**
 * End-to-end: lifecycle hooks through `codex-ts exec`, with a hooks.json written for Codex 0.169
 * (test/fixtures/lifecycle-hooks) installed unchanged. The payloads, the block wording the model
 * reads and the Stop continuation are what the reference sends (observed from 0.169 against the
 * same script); trust follows the reference's hashes; a broken hook never stops the run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fnCall, inputTexts, text, turn, type ModelServer } from "../support/model-server.js";
import { exec, jsonLines, makeWorkspace, withServer } from "../support/cli.js";
import { command, fixtureEvents, hookDir, installFixtureHooks, writeHooksJson } from "../support/hooks.js";

/** What the model was told `callId` returned (from the first request that carries it). */
function outputOf(server: ModelServer, callId: string): unknown {
  return server.requests.flatMap((q) => q.body.input ?? []).find((i) => i.type === "function_call_output" && i.call_id === callId)?.output;
}

const TOOLS_THEN_STOP = [
  turn(fnCall("exec_command", { cmd: "echo hi" }, "call_1"), fnCall("exec_command", { cmd: "rm -rf build" }, "call_2")),
  turn(text("done")),
  turn(text("tests pass")),
];

/** The fields of each event's stdin, in order, as Codex 0.169 sends them. */
const KEYS: Record<string, string[]> = {
  SessionStart: ["session_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "source"],
  UserPromptSubmit: ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "prompt"],
  PreToolUse: ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "tool_name", "tool_input", "tool_use_id"],
  PostToolUse: ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "tool_name", "tool_input", "tool_response", "tool_use_id"],
  Stop: ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "stop_hook_active", "last_assistant_message"],
  SessionEnd: ["session_id", "transcript_path", "cwd", "hook_event_name", "reason"],
};

void test("a hooks.json written for Codex 0.169 gets the reference's payloads and answers: rm -rf denied, Stop sends the agent back once", async () => {
  const ws = makeWorkspace();
  installFixtureHooks(ws.home);
  await withServer(TOOLS_THEN_STOP, async (server) => {
    const r = await exec(server, ["--dangerously-bypass-hook-trust", "-s", "workspace-write", "clean up"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "tests pass");

    // What the hooks read.
    const events = fixtureEvents(ws.home);
    assert.deepEqual(
      events.map((e) => e.hook_event_name),
      ["SessionStart", "UserPromptSubmit", "PreToolUse", "PreToolUse", "PostToolUse", "Stop", "Stop", "SessionEnd"],
    );
    for (const e of events) assert.deepEqual(Object.keys(e), KEYS[String(e.hook_event_name)], `${String(e.hook_event_name)} fields`);
    const sessionId = String(events[0]?.session_id);
    const transcript = String(events[0]?.transcript_path);
    assert.match(transcript, new RegExp(`${sessionId}\\.jsonl$`));
    for (const e of events) {
      assert.equal(e.session_id, sessionId);
      assert.equal(e.transcript_path, transcript);
      assert.equal(e.cwd, ws.dir);
      if ("model" in e) assert.equal(e.model, "gpt-5.5");
      // exec never asks: the reference says so as Claude Code's bypassPermissions.
      if ("permission_mode" in e) assert.equal(e.permission_mode, "bypassPermissions");
    }
    const [start, prompt] = events;
    assert.equal(start?.source, "startup");
    assert.equal(prompt?.prompt, "clean up");
    const pre = events.filter((e) => e.hook_event_name === "PreToolUse");
    assert.deepEqual(pre.map((e) => e.tool_name).sort(), ["Bash", "Bash"]);
    assert.deepEqual(pre.map((e) => e.tool_input).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), [{ command: "echo hi" }, { command: "rm -rf build" }]);
    const post = events.find((e) => e.hook_event_name === "PostToolUse");
    assert.deepEqual([post?.tool_input, post?.tool_response, post?.tool_use_id], [{ command: "echo hi" }, "hi\n", "call_1"]);
    const stops = events.filter((e) => e.hook_event_name === "Stop");
    assert.deepEqual(stops.map((e) => [e.stop_hook_active, e.last_assistant_message]), [[false, "done"], [true, "tests pass"]]);
    assert.equal(events.at(-1)?.reason, "other");

    // What the model read: the reference's wording for the block, and the Stop hook's reason.
    const second = server.requests[1]?.body.input ?? [];
    assert.deepEqual(
      second.find((i) => i.type === "function_call_output" && i.call_id === "call_2")?.output,
      "Command blocked by PreToolUse hook: rm -rf is not allowed here. Command: rm -rf build",
    );
    const third = server.requests[2]?.body.input ?? [];
    const hooksJson = join(ws.home, "hooks.json");
    assert.deepEqual(third.at(-1), {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: `<hook_prompt hook_run_id="stop:7:${hooksJson}">Run the tests before you stop.</hook_prompt>` }],
    });
    // What the user read: one line per decision, nothing for hooks that simply ran.
    assert.match(r.stderr, /hook: PreToolUse Blocked\n {2}rm -rf is not allowed here/);
    assert.match(r.stderr, /hook: Stop Blocked\n {2}Run the tests before you stop\./);
    assert.doesNotMatch(r.stderr, /hook: (SessionStart|UserPromptSubmit|PostToolUse)/);
  });
});

void test("without trust, exec skips the hooks with one warning; trusted at the reference's hash, they run", async () => {
  const ws = makeWorkspace();
  installFixtureHooks(ws.home);
  const turns = [turn(fnCall("exec_command", { cmd: "rm -rf build" }, "call_1")), turn(text("removed"))];
  await withServer(turns, async (server) => {
    const r = await exec(server, ["-s", "workspace-write", "clean up"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.match(/hooks are new or changed and will not run until trusted: review and trust them with \/hooks in codex-ts's interactive UI, or run with --dangerously-bypass-hook-trust/g)?.length, 1, r.stderr);
    assert.deepEqual(fixtureEvents(ws.home), []);
    // No hook spoke: the command met the built-in refusal of forced removals under `never`.
    assert.match(String(outputOf(server, "call_1")), /^rm -rf build: rm with a force option/);
  });

  // What Codex 0.169's /hooks writes when these two are trusted: the hashes do not depend on
  // where the files are, since the commands name $CODEX_HOME.
  const key = (event: string, group: number, hook: number): string => JSON.stringify(`${join(ws.home, "hooks.json")}:${event}:${group}:${hook}`);
  writeFileSync(
    join(ws.home, "config.toml"),
    [
      `[hooks.state.${key("pre_tool_use", 0, 0)}]`,
      'trusted_hash = "sha256:15cac88e86074fad30ae65f610ce72f37ead029461ddaf314aed2dff96b87c51"',
      `[hooks.state.${key("pre_tool_use", 1, 0)}]`,
      'trusted_hash = "sha256:c48efd3b31d8b131fce1f818e2578c0cf4a72468db5493350d9dcf1b2b715a6e"',
      "",
    ].join("\n"),
  );
  await withServer(turns, async (server) => {
    const r = await exec(server, ["-s", "workspace-write", "clean up"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    // The six others are still untrusted; the two PreToolUse hooks run.
    assert.match(r.stderr, /6 hooks are new or changed/);
    assert.deepEqual(fixtureEvents(ws.home).map((e) => e.hook_event_name), ["PreToolUse"]);
    assert.equal(outputOf(server, "call_1"), "Command blocked by PreToolUse hook: rm -rf is not allowed here. Command: rm -rf build");
  });
});

void test("a crashing or hanging hook never blocks the turn and is reported once; exit 2 blocks with its stderr", async () => {
  const ws = makeWorkspace();
  writeHooksJson(ws.home, {
    PreToolUse: [
      { matcher: "Bash", hooks: [command("cat >/dev/null; echo boom >&2; exit 1"), command("cat >/dev/null; sleep 30", { timeout: 1 })] },
      { matcher: "^Bash$", hooks: [command(`input=$(cat); case "$input" in *secret*) echo "no secrets in commands" >&2; exit 2;; esac`)] },
    ],
  });
  const turns = [
    turn(fnCall("exec_command", { cmd: "echo one" }, "call_1")),
    turn(fnCall("exec_command", { cmd: "echo two" }, "call_2"), fnCall("exec_command", { cmd: "echo secret" }, "call_3")),
    turn(text("done")),
  ];
  await withServer(turns, async (server) => {
    const r = await exec(server, ["--json", "--dangerously-bypass-hook-trust", "-s", "workspace-write", "go"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const output = (id: string): unknown => outputOf(server, id);
    assert.match(String(output("call_1")), /Output:\none\n/);
    assert.match(String(output("call_2")), /Output:\ntwo\n/);
    assert.equal(output("call_3"), "Command blocked by PreToolUse hook: no secrets in commands. Command: echo secret");
    // Each way a hook failed is one warning item, though both failed on all three calls.
    const warnings = jsonLines(r.stdout).flatMap((e) => {
      const item = e.item as { type?: string; message?: string } | undefined;
      return e.type === "item.completed" && item?.type === "error" && item.message?.startsWith("hook") ? [item.message] : [];
    });
    assert.deepEqual(warnings.sort(), ["hook PreToolUse failed: error: hook exited with code 1", "hook PreToolUse failed: error: hook timed out after 1s"]);
  });
});

void test("hooks from a trusted project's .codex/ (hooks.json and [hooks]) run beside the user's; an untrusted project's do not", async () => {
  const hooks = hookDir();
  for (const trusted of [true, false]) {
    const ws = makeWorkspace();
    writeHooksJson(ws.home, { UserPromptSubmit: [{ hooks: [command(hooks.record(`user-${trusted}`))] }] });
    writeHooksJson(join(ws.dir, ".codex"), { UserPromptSubmit: [{ hooks: [command(hooks.record(`project-json-${trusted}`))] }] });
    writeFileSync(
      join(ws.dir, ".codex", "config.toml"),
      `[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = ${JSON.stringify(hooks.record(`project-toml-${trusted}`))}\n`,
    );
    if (trusted) writeFileSync(join(ws.home, "config.toml"), `[projects.${JSON.stringify(ws.dir)}]\ntrust_level = "trusted"\n`);
    await withServer([turn(text("ok"))], async (server) => {
      const r = await exec(server, ["--dangerously-bypass-hook-trust", "hello"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
    });
    assert.equal(hooks.records(`user-${trusted}`).length, 1);
    assert.equal(hooks.records(`project-json-${trusted}`).length, trusted ? 1 : 0);
    assert.equal(hooks.records(`project-toml-${trusted}`).length, trusted ? 1 : 0);
  }
});

void test("inline [hooks] in config.toml: SessionStart and UserPromptSubmit context reach the model where the reference puts it", async () => {
  const ws = makeWorkspace({
    config: [
      "[[hooks.SessionStart]]",
      "[[hooks.SessionStart.hooks]]",
      'type = "command"',
      `command = "cat >/dev/null; echo 'Project notes: run make test.'"`,
      "[[hooks.UserPromptSubmit]]",
      "[[hooks.UserPromptSubmit.hooks]]",
      'type = "command"',
      `command = '''cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"The user prefers short answers."}}' '''`,
      "",
    ].join("\n"),
  });
  await withServer([turn(text("ok"))], async (server) => {
    const r = await exec(server, ["--dangerously-bypass-hook-trust", "hello"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const input = server.requests[0]?.body.input ?? [];
    const tail = input.slice(-3).map((i) => [i.role, inputTexts([i]).join("")]);
    assert.deepEqual(tail, [["developer", "Project notes: run make test."], ["user", "hello"], ["developer", "The user prefers short answers."]]);
  });
});

void test("a PostToolUse hook may replace what the model reads (updatedToolOutput), for any tool", async () => {
  const ws = makeWorkspace();
  const replace = JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "[output withheld by policy]" } });
  writeHooksJson(ws.home, { PostToolUse: [{ matcher: "Bash", hooks: [command(`cat >/dev/null; echo '${replace}'`)] }] });
  await withServer([turn(fnCall("exec_command", { cmd: "echo the-secret-value" }, "call_1")), turn(text("ok"))], async (server) => {
    const r = await exec(server, ["--dangerously-bypass-hook-trust", "-s", "workspace-write", "go"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(outputOf(server, "call_1"), "[output withheld by policy]");
  });
});

void test("a command a PreToolUse hook rewrote (updatedInput) still runs in the sandbox", async () => {
  const ws = makeWorkspace();
  const outside = join(ws.dir, "..", "escaped.txt");
  // The first call is rewritten to write inside the workspace, the second to write outside it.
  const rewrite = (cmd: string): string => JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: cmd } } });
  const script = `case "$(cat)" in *call_1*) echo '${rewrite("touch inside.txt")}';; *) echo '${rewrite(`touch ${outside}`)}';; esac`;
  writeHooksJson(ws.home, { PreToolUse: [{ matcher: "Bash", hooks: [command(script)] }] });
  const turns = [turn(fnCall("exec_command", { cmd: "echo one" }, "call_1")), turn(fnCall("exec_command", { cmd: "echo two" }, "call_2")), turn(text("ok"))];
  await withServer(turns, async (server) => {
    // Only the workspace is writable: the temporary folders (where the workspace's parent is) are not.
    const sandbox = ["-s", "workspace-write", "-c", "sandbox_workspace_write.exclude_slash_tmp=true", "-c", "sandbox_workspace_write.exclude_tmpdir_env_var=true"];
    const r = await exec(server, ["--dangerously-bypass-hook-trust", ...sandbox, "go"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(String(outputOf(server, "call_2")), /Read-only file system|Permission denied/);
  });
  assert.equal(existsSync(join(ws.dir, "inside.txt")), true, "the rewritten command ran");
  assert.equal(existsSync(outside), false, "the rewrite did not take it out of the sandbox");
});

void test("apply_patch hooks see the patch as `command` and answer to Edit|Write; hooks run in the turn's directory without secrets", async () => {
  const ws = makeWorkspace();
  const hooks = hookDir();
  const patch = "*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** End Patch\n";
  writeHooksJson(ws.home, {
    PreToolUse: [{ matcher: "Edit|Write", hooks: [command(`${hooks.record("pre")}; pwd > ${JSON.stringify(join(hooks.dir, "cwd"))}; env > ${JSON.stringify(join(hooks.dir, "env"))}`)] }],
    PostToolUse: [{ matcher: "apply_patch", hooks: [command(hooks.record("post"))] }],
  });
  await withServer([turn({ type: "custom_tool_call", name: "apply_patch", input: patch, callId: "call_1" }), turn(text("ok"))], async (server) => {
    const r = await exec(server, ["--dangerously-bypass-hook-trust", "-s", "workspace-write", "go"], {
      cwd: ws.dir,
      home: ws.home,
      env: { MY_API_TOKEN: "tok-123", PLAIN_SETTING: "visible" },
    });
    assert.equal(r.code, 0, r.stderr);
  });
  assert.deepEqual(hooks.records("pre").map((e) => [e.tool_name, e.tool_input]), [["apply_patch", { command: patch }]]);
  assert.deepEqual(hooks.records("post").map((e) => e.tool_name), ["apply_patch"]);
  assert.match(String(hooks.records("post")[0]?.tool_response), /Success\. Updated the following files:\nA notes\.txt/);
  assert.equal(readFileSync(join(hooks.dir, "cwd"), "utf8").trim(), ws.dir);
  const env = readFileSync(join(hooks.dir, "env"), "utf8");
  assert.match(env, /^PLAIN_SETTING=visible$/m);
  assert.doesNotMatch(env, /tok-123|OPENAI_API_KEY|sk-test-key/);
});

void test("a hooks.json that does not fit is reported, and what fits still runs", async () => {
  const ws = makeWorkspace();
  const hooks = hookDir();
  mkdirSync(ws.home, { recursive: true });
  writeFileSync(
    join(ws.home, "hooks.json"),
    JSON.stringify({
      hooks: {
        PreToolUs: [{ hooks: [command("true")] }],
        UserPromptSubmit: [{ hooks: [{ type: "prompt", prompt: "x" }, command(hooks.record("ok"))] }],
        PreToolUse: [{ matcher: "[", hooks: [command("true")] }],
      },
    }),
  );
  await withServer([turn(text("ok"))], async (server) => {
    const r = await exec(server, ["--dangerously-bypass-hook-trust", "hello"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /unknown hook event `PreToolUs` in .*hooks\.json \(did you mean PreToolUse\?\)/);
    assert.match(r.stderr, /skipping prompt hook .*hooks\.UserPromptSubmit\[0\]\.hooks\[0\]: prompt hooks are not supported yet/);
    assert.match(r.stderr, /invalid matcher "\[" in .*hooks\.json/);
  });
  assert.equal(hooks.records("ok").length, 1);
});

void test("SessionStart hears `resume` when exec resumes a session", async () => {
  const ws = makeWorkspace();
  installFixtureHooks(ws.home);
  // The fixture's Stop hook sends the agent back once per turn: two answers each.
  await withServer([turn(text("first")), turn(text("first, tested")), turn(text("second")), turn(text("second, tested"))], async (server) => {
    for (const args of [["hello"], ["resume", "--last", "again"]]) {
      const r = await exec(server, ["--dangerously-bypass-hook-trust", ...args], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
    }
  });
  const starts = fixtureEvents(ws.home).filter((e) => e.hook_event_name === "SessionStart");
  assert.deepEqual(starts.map((e) => e.source), ["startup", "resume"]);
  assert.equal(starts[0]?.session_id, starts[1]?.session_id);
});
