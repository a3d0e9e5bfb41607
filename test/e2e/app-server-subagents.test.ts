/**
 * Sub-agents through the app-server: a thread's turn spawns a child, waits for its answer and
 * closes it; the client sees each call as a `collabAgentToolCall` item (started, then completed
 * with the agents' states), every message checked against the reference's schema. The child's
 * thread is left out of listings unless its source kind is asked for, and then names its parent,
 * its nickname and the tree's session; reading the parent back gives the same items. A child's
 * approval question comes to the client on the parent's thread, and is answered there.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServerClient, assertNoViolations } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { SPAWN_WAIT_CLOSE, collabCall, spawnedIn, startAgentServer } from "../support/agent-script.js";
import { fnCall, text, turn } from "../support/model-server.js";

type Json = Record<string, unknown>;


const isCollab = (m: Json): boolean => ((m.params as Json | undefined)?.item as Json | undefined)?.type === "collabAgentToolCall";

void test("a turn's spawn, wait and close are collabAgentToolCall items; the child's thread is listed when asked for", async () => {
  const ws = makeWorkspace();
  const server = await startAgentServer(SPAWN_WAIT_CLOSE);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await client.initialize();
    // gpt-5.4 is offered the collab tools up front (as in the reference's capture).
    const threadId = String(((await client.request("thread/start", { cwd: ws.dir, model: "gpt-5.4" })).thread as Json).id);
    await client.request("turn/start", { threadId, input: [{ type: "text", text: "go", text_elements: [] }] });
    const done = (await client.nextMethod("turn/completed")).params.turn as Json;
    assert.equal(done.status, "completed");
    assert.deepEqual(server.violations, []);

    const collab = client.received.filter((m) => (m.method === "item/started" || m.method === "item/completed") && isCollab(m));
    const items = collab.map((m) => ({ method: m.method, item: (m.params as Json).item as Json }));
    assert.deepEqual(
      items.map(({ method, item }) => `${String(method)} ${String(item.tool)} ${String(item.status)}`),
      [
        "item/started spawnAgent inProgress",
        "item/completed spawnAgent completed",
        "item/started wait inProgress",
        "item/completed wait completed",
        "item/started closeAgent inProgress",
        "item/completed closeAgent completed",
      ],
    );
    const [spawnStarted, spawned, , waited, , closed] = items.map(({ item }) => item) as Json[];
    assert.equal(spawnStarted?.id, "call_0002", "the item's id is the call's");
    assert.deepEqual(spawnStarted?.receiverThreadIds, [], "the child is not known before it starts");
    assert.equal(spawnStarted?.prompt, "list the test files");
    assert.equal(spawnStarted?.model, "gpt-5.4");
    const childId = String((spawned?.receiverThreadIds as string[])[0]);
    assert.match(childId, /^[0-9a-f-]{36}$/);
    assert.equal(spawned?.senderThreadId, threadId);
    assert.deepEqual(waited?.receiverThreadIds, [childId]);
    assert.deepEqual(waited?.agentsStates, { [childId]: { status: "completed", message: "tests/a.test.ts and tests/b.test.ts" } });
    assert.equal(closed?.id, "call_0010");
    assert.deepEqual(closed?.agentsStates, { [childId]: { status: "completed", message: "tests/a.test.ts and tests/b.test.ts" } }, "close reports the status the child had");
    // Listings: the interactive default leaves the child out; asking for sub-agents finds it.
    const byDefault = (await client.request("thread/list", {})).data as Json[];
    assert.deepEqual(byDefault.map((t) => t.id), [threadId]);
    const children = (await client.request("thread/list", { sourceKinds: ["subAgentThreadSpawn"] })).data as Json[];
    assert.deepEqual(children.map((t) => t.id), [childId]);
    const child = children[0] as Json;
    assert.equal(child.parentThreadId, threadId);
    assert.equal(child.sessionId, threadId, "a sub-agent shares its tree's session");
    assert.equal(typeof child.agentNickname, "string");
    assert.equal(child.agentRole, null);
    assert.deepEqual(((await client.request("thread/list", { sourceKinds: ["subAgent"] })).data as Json[]).map((t) => t.id), [childId]);

    // Reading the parent back gives the same items.
    const read = (await client.request("thread/read", { threadId, includeTurns: true })).thread as Json;
    const readItems = ((read.turns as Json[])[0]?.items as Json[]).filter((i) => i.type === "collabAgentToolCall");
    assert.deepEqual(
      readItems.map((i) => [i.tool, i.status, i.receiverThreadIds]),
      [
        ["spawnAgent", "completed", [childId]],
        ["wait", "completed", [childId]],
        ["closeAgent", "completed", [childId]],
      ],
    );
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
});

void test("a sub-agent's approval question is asked on the parent's thread; its command is not an item of the parent's turn", async () => {
  const ws = makeWorkspace();
  const made = join(ws.dir, "made-by-child.txt");
  const server = await startAgentServer({
    parent: [turn(collabCall("spawn_agent", { message: "make the file" }, "call_spawn")), (r) => turn(collabCall("wait_agent", { targets: [spawnedIn(r)[0]] }, "call_wait")), turn(text("Made."))],
    child: (_task, request) =>
      request.body.input?.some((i) => i.type === "function_call_output")
        ? turn(text("made it"))
        : turn(fnCall("exec_command", { cmd: `touch ${made}`, sandbox_permissions: "require_escalated", justification: "Create the file?" }, "child_call")),
  });
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await client.initialize();
    const threadId = String(((await client.request("thread/start", { cwd: ws.dir, model: "gpt-5.4", approvalPolicy: "on-request", sandbox: "workspace-write" })).thread as Json).id);
    await client.request("turn/start", { threadId, input: [{ type: "text", text: "go", text_elements: [] }] });
    const approval = await client.nextMethod("item/commandExecution/requestApproval");
    assert.equal(approval.params.threadId, threadId);
    assert.equal(approval.params.reason, "Create the file?");
    assert.equal(existsSync(made), false, "nothing runs before the answer");
    client.respond(approval.id, { decision: "accept" });
    assert.equal(((await client.nextMethod("turn/completed")).params.turn as Json).status, "completed");
    assert.equal(existsSync(made), true, "the approved command ran in the sub-agent");
    const parentItems = client.received.filter((m) => m.method === "item/started").map((m) => ((m.params as Json).item as Json).type);
    assert.equal(parentItems.includes("commandExecution"), false, "the child's command is not shown as the parent's");
    assert.deepEqual(server.violations, []);
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
});
