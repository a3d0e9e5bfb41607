/**
 * A thread's goal over the app-server, end to end over stdio against the scripted model, every
 * message checked against the reference's schema: get / set / clear with the reference's answers
 * and errors, edits that keep the goal's progress, `thread/goal/updated` and `cleared` to the
 * thread's clients, an active goal starting a turn of its own until the model completes it, and
 * the goal back after the thread is resumed in a new server process.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServerClient, assertNoViolations } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { fnCall, startModelServer, text, turn } from "../support/model-server.js";

type Json = Record<string, unknown>;
interface Goal {
  threadId: string;
  objective: string;
  status: string;
  tokenBudget: number | null;
  tokensUsed: number;
  createdAt: number;
}

void test("thread/goal/*: set, edit in place, an active goal works until the model completes it, clear; the goal survives a resume", async () => {
  const ws = makeWorkspace();
  // The continuation turn: the model marks the goal complete, then says so.
  const model = await startModelServer([turn(fnCall("update_goal", { status: "complete" }, "g1")), turn(text("The notes are written."))]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n`);
  let client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: "sk-test" } });
  try {
    await client.initialize();
    const threadId = String(((await client.request("thread/start", { cwd: ws.dir })).thread as Json).id);
    assert.deepEqual(await client.request("thread/goal/get", { threadId }), { goal: null });
    await assert.rejects(client.request("thread/goal/set", { threadId, status: "paused" }), new RegExp(`cannot update goal for thread ${threadId}: no goal exists`));
    await assert.rejects(client.request("thread/goal/set", { threadId, objective: "  " }), /goal objective must not be empty/);
    await assert.rejects(client.request("thread/goal/set", { threadId, objective: "x", status: "budgetLimited" }), /cannot be set to budgetLimited/);
    assert.deepEqual(await client.request("thread/goal/clear", { threadId }), { cleared: false });

    // Set paused: nothing starts.
    const set = (await client.request<{ goal: Goal }>("thread/goal/set", { threadId, objective: "Write the notes", tokenBudget: 50000, status: "paused" })).goal;
    assert.equal(set.threadId, threadId);
    assert.equal(set.objective, "Write the notes");
    assert.equal(set.status, "paused");
    assert.equal(set.tokenBudget, 50000);
    const updated = await client.nextMethod("thread/goal/updated");
    assert.deepEqual(updated.params, { threadId, turnId: null, goal: set });

    // An edit keeps the goal (its creation, its progress).
    const edited = (await client.request<{ goal: Goal }>("thread/goal/set", { threadId, objective: "Write the better notes" })).goal;
    assert.equal(edited.objective, "Write the better notes");
    assert.equal(edited.status, "paused");
    assert.equal(edited.createdAt, set.createdAt);
    assert.equal(model.requests.length, 0, "a paused goal starts no turn");

    // Active on an idle thread: a turn of its own, in which the model completes the goal.
    assert.equal((await client.request<{ goal: Goal }>("thread/goal/set", { threadId, status: "active" })).goal.status, "active");
    const started = await client.nextMethod("turn/started");
    const turnId = String((started.params.turn as Json).id);
    const completedGoal = await client.next((m) => m.method === "thread/goal/updated" && ((m.params as Json).goal as Goal).status === "complete");
    assert.equal((completedGoal.params as Json).turnId, turnId, "a change during a turn names it");
    assert.equal(((await client.nextMethod("turn/completed")).params.turn as Json).status, "completed");
    const after = (await client.request<{ goal: Goal }>("thread/goal/get", { threadId })).goal;
    assert.equal(after.status, "complete");
    assert.ok(after.tokensUsed > 0, "the turn's tokens were charged to the goal");
    assert.equal(model.requests.length, 2, "a complete goal gets no further turn");
    assertNoViolations(client);
    await client.close();

    // A new server process: the resumed thread has its goal back; clearing it tells the client.
    client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: "sk-test" } });
    await client.initialize();
    await client.request("thread/resume", { threadId });
    const back = (await client.request<{ goal: Goal }>("thread/goal/get", { threadId })).goal;
    assert.equal(back.objective, "Write the better notes");
    assert.equal(back.status, "complete");
    assert.deepEqual(await client.request("thread/goal/clear", { threadId }), { cleared: true });
    assert.deepEqual((await client.nextMethod("thread/goal/cleared")).params, { threadId });
    assert.deepEqual(await client.request("thread/goal/get", { threadId }), { goal: null });
    await assert.rejects(client.request("thread/goal/get", { threadId: "00000000-0000-0000-0000-000000000000" }), /thread not found/);
    assertNoViolations(client);
  } finally {
    await client.close();
    await model.close();
  }
});
