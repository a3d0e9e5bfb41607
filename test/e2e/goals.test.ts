/**
 * Goals: the model's goal tools (get_goal, create_goal, update_goal) with the reference's
 * answers, the goal kept in the rollout and back after a resume, the budget charged with each
 * response's tokens, and the turns a session starts on its own while a goal is active (on in
 * the interactive UI, off in exec), stopping once the goal is complete or its budget is spent.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Event } from "../../src/protocol/events.js";
import { exec, jsonLines, makeWorkspace, tuiArgs, withServer } from "../support/cli.js";
import { fnCall, startModelServer, text, turn, type ModelServer } from "../support/model-server.js";
import { KEY, PtySession } from "../support/pty.js";
import { readLines, rolloutFileOf, threadIdOf } from "../support/rollout.js";
import { until, withSession } from "../support/session.js";

/** The parsed output the model got for `callId`. */
function toolOutput(server: ModelServer, callId: string): { text: string; json: Record<string, unknown> | null } {
  for (const request of server.requests) {
    const item = (request.body.input ?? []).find((i) => i.type === "function_call_output" && i.call_id === callId);
    if (item) {
      const textOut = String(item.output);
      try {
        return { text: textOut, json: JSON.parse(textOut) as Record<string, unknown> };
      } catch {
        return { text: textOut, json: null };
      }
    }
  }
  assert.fail(`no output for ${callId}`);
}

void test("create_goal, get_goal and update_goal answer as the reference does; the goal is in the rollout and back after a resume", async () => {
  const ws = makeWorkspace();
  const script = [
    turn(fnCall("create_goal", { objective: "write hello.txt", token_budget: 50000 }, "c1")),
    turn(fnCall("create_goal", { objective: "another one" }, "c2")),
    turn(fnCall("get_goal", {}, "c3")),
    turn(text("made progress")),
    turn(fnCall("update_goal", { status: "complete" }, "c4")),
    turn(fnCall("get_goal", {}, "c5")),
    turn(text("done")),
  ];
  await withServer(script, async (server) => {
    const first = await exec(server, ["--json", "set a goal to write hello.txt"], { cwd: ws.dir, home: ws.home });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(server.requests.length, 4, "exec ends with its turn: no turn of its own for the goal");
    const tools = (server.requests[0]?.body.tools ?? []).map((t) => t.name ?? t.type);
    assert.deepEqual(tools.slice(5, 8), ["get_goal", "create_goal", "update_goal"]);

    const created = toolOutput(server, "c1").json as { goal: Record<string, unknown>; remainingTokens: number; completionBudgetReport: unknown };
    assert.deepEqual(Object.keys(created), ["goal", "remainingTokens", "completionBudgetReport"]);
    assert.deepEqual(Object.keys(created.goal), ["threadId", "objective", "status", "tokenBudget", "tokensUsed", "timeUsedSeconds", "createdAt", "updatedAt"]);
    const id = threadIdOf(jsonLines(first.stdout));
    assert.equal(created.goal.threadId, id);
    assert.equal(created.goal.status, "active");
    assert.equal(created.goal.tokenBudget, 50000);
    assert.equal(created.remainingTokens, 50000);
    assert.match(toolOutput(server, "c2").text, /a goal is already set and not complete/);
    const read = toolOutput(server, "c3").json as { goal: { tokensUsed: number }; remainingTokens: number };
    assert.ok(read.goal.tokensUsed > 0, "the responses so far are charged to the goal");
    assert.equal(read.remainingTokens, 50000 - read.goal.tokensUsed);

    const lines = readLines(rolloutFileOf(ws.home, id)).filter((l) => l.type === "event_msg" && l.payload.type === "thread_goal_updated");
    assert.ok(lines.length >= 2);

    const resumed = await exec(server, ["--json", "resume", id, "finish it"], { cwd: ws.dir, home: ws.home });
    assert.equal(resumed.code, 0, resumed.stderr);
    const completed = toolOutput(server, "c4").json as { goal: { status: string; objective: string; tokensUsed: number }; completionBudgetReport: string };
    assert.equal(completed.goal.objective, "write hello.txt", "the goal came back with the thread");
    assert.equal(completed.goal.status, "complete");
    assert.match(completed.completionBudgetReport, /^\d+ of 50000 budgeted tokens used$/);
    assert.equal((toolOutput(server, "c5").json as { goal: { status: string } }).goal.status, "complete");
  });
});

void test("with continuation on, an active goal gets turns of its own until the model completes it", async () => {
  const script = [
    turn(fnCall("create_goal", { objective: "count to three" }, "g1")),
    turn(text("one")),
    turn(text("two")),
    turn(fnCall("update_goal", { status: "complete" }, "g2")),
    turn(text("three, done")),
  ];
  await withSession(
    script,
    async (session, server) => {
      const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "count to three as a goal" }] });
      const seen: Event[] = [];
      for (let completed = 0; completed < 3; ) {
        const event = await session.nextEvent();
        assert.ok(event, "the session ended early");
        seen.push(event);
        if (event.msg.type === "task_complete") completed++;
      }
      assert.equal(server.requests.length, 5);
      const continued = seen.filter((e) => e.msg.type === "goal_continuation_started");
      assert.equal(continued.length, 2);
      assert.ok(continued.every((e) => e.id === id));
      // The model was reminded of the objective before each turn of its own.
      assert.match(JSON.stringify(server.requests[2]?.body.input), /<goal_continuation>[^<]*count to three/);
      const last = seen.filter((e) => e.msg.type === "thread_goal_updated").at(-1);
      assert.equal(last?.msg.type === "thread_goal_updated" ? last.msg.goal?.status : null, "complete");
    },
    { goalContinuation: true },
  );
});

void test("a spent budget ends the goal (budget_limited) and no turn of its own follows; the user can pause and resume", async () => {
  // Each scripted response reports 19 tokens; the goal exists from the second response on, which spends a budget of 10.
  const script = [turn(fnCall("create_goal", { objective: "small job", token_budget: 10 }, "b1")), turn(text("working")), turn(text("resumed work"))];
  await withSession(
    script,
    async (session, server) => {
      const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "go" }] });
      const seen = await until(session, id, "task_complete");
      const goals = seen.flatMap((e) => (e.msg.type === "thread_goal_updated" && e.msg.goal ? [e.msg.goal] : []));
      assert.equal(goals.at(-1)?.status, "budget_limited");
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(server.requests.length, 2, "no turn after the budget was spent");

      // A goal the user sets starts working at once; its own small budget ends it after one response.
      const reset = session.submit({ type: "set_thread_goal", objective: "new job", token_budget: 10 });
      const started = await until(session, reset, "goal_continuation_started");
      assert.ok(started.some((e) => e.msg.type === "thread_goal_updated" && e.msg.goal?.objective === "new job"));
      await until(session, reset, "task_complete");
      const pause = session.submit({ type: "set_thread_goal_status", status: "paused" });
      const paused = (await until(session, pause, "thread_goal_updated")).at(-1)?.msg;
      assert.equal(paused?.type === "thread_goal_updated" ? paused.goal?.status : null, "paused");
    },
    { goalContinuation: true },
  );
});

void test("/goal in the interactive UI sets a goal the agent starts on at once, shows it, and its completion", async () => {
  const ws = makeWorkspace();
  const server = await startModelServer([turn(fnCall("update_goal", { status: "complete" }, "u1")), turn(text("the goal is reached"))]);
  const ui = new PtySession(tuiArgs(server.url), { cwd: ws.dir, home: ws.home, cols: 120, rows: 40 });
  try {
    await ui.waitFor("Enter to send");
    await ui.type("/goal tidy the README");
    ui.write(KEY.enter);
    await ui.waitFor("Working on the goal on its own: tidy the README");
    await ui.waitFor("the goal is reached");
    await ui.waitFor(/Goal \(complete\): tidy the README/);
    await ui.type("/goal");
    ui.write(KEY.enter);
    await ui.waitFor(/Goal \(complete\): tidy the README · \d+ tokens used[\s\S]*Goal \(complete\)/);
    assert.match(JSON.stringify(server.requests[0]?.body.input), /<goal_continuation>[^<]*tidy the README/);
    assert.equal(server.requests.length, 2, "complete: no further turn");
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
    assert.deepEqual(server.violations, []);
  } finally {
    ui.kill();
    await server.close();
  }
});
