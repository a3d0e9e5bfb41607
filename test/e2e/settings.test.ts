/**
 * Settings docs/config.md calls effective, each shown to take effect: the context window and the
 * tool-output budget, feature flags that change the tools, hide_agent_reasoning, and the
 * warnings for flags codex-ts accepts but does not act on.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { fnCall, reasoning, text, turn } from "../support/model-server.js";
import { until, withSession } from "../support/session.js";

void test("model_context_window and tool_output_token_limit change what the session reports and what the model reads", async () => {
  await withSession(
    [turn(fnCall("exec_command", { cmd: "seq 1 5000" }, "c1")), turn(text("done"))],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "count" }] });
      const events = await until(session, id, "task_complete");
      const started = events.find((e) => e.msg.type === "task_started")?.msg;
      assert.equal(started?.type === "task_started" && started.model_context_window, 32_000);
      const counts = events.flatMap((e) => (e.msg.type === "token_count" && e.msg.info ? [e.msg.info.model_context_window] : []));
      assert.ok(counts.length > 0 && counts.every((w) => w === 32_000));
      const output = String((server.requests[1]?.body.input?.find((i) => i.type === "function_call_output") as { output?: unknown }).output);
      assert.match(output, /tokens truncated/);
      assert.ok(output.length < 2_000, `a 100-token budget keeps the output short (${output.length} chars)`);
    },
    { modelSettings: { contextWindow: 32_000, toolOutputTokenLimit: 100, supportsReasoningSummaries: null, features: {} } },
  );
});

void test("features.unified_exec = false offers shell_command instead of exec_command; features.shell_tool = false offers none", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("a")), turn(text("b"))], async (server) => {
    assert.equal((await exec(server, ["--disable", "unified_exec", "go"], { cwd: ws.dir, home: ws.home })).code, 0);
    assert.equal((await exec(server, ["--disable", "shell_tool", "go"], { cwd: ws.dir, home: ws.home })).code, 0);
    const names = (i: number): string[] => (server.requests[i]?.body.tools ?? []).map((t) => String(t.name ?? t.type));
    assert.ok(names(0).includes("shell_command") && !names(0).includes("exec_command"), names(0).join(","));
    assert.ok(!names(1).some((n) => ["shell_command", "exec_command", "shell"].includes(n)), names(1).join(","));
  });
});

void test("hide_agent_reasoning leaves reasoning out of exec's output, human and JSON", async () => {
  const ws = makeWorkspace({ config: "hide_agent_reasoning = true\n" });
  await withServer([turn(reasoning("secret plan"), text("done")), turn(reasoning("secret plan"), text("done"))], async (server) => {
    const human = await exec(server, ["go"], { cwd: ws.dir, home: ws.home });
    assert.equal(human.code, 0, human.stderr);
    assert.doesNotMatch(human.stderr, /secret plan/);
    const json = await exec(server, ["--json", "go"], { cwd: ws.dir, home: ws.home });
    assert.doesNotMatch(json.stdout, /secret plan|"reasoning"/);
  });
  const shown = makeWorkspace();
  await withServer([turn(reasoning("visible plan"), text("done"))], async (server) => {
    assert.match((await exec(server, ["go"], { cwd: shown.dir, home: shown.home })).stderr, /visible plan/);
  });
});

void test("a feature flag codex-ts does not act on is accepted with a warning, never silently", async () => {
  const ws = makeWorkspace({ config: "[features]\nmemories = true\n" });
  await withServer([turn(text("ok"))], async (server) => {
    const run = await exec(server, ["go"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /features\.memories is accepted, but codex-ts does not act on it/);
  });
});
