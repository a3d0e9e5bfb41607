/**
 * Sub-agents through the app-server: a thread's turn spawns a child, waits for its answer and
 * closes it; the client sees each call as a `collabAgentToolCall` item (started, then completed
 * with the agents' states), every message checked against the reference's schema. The child's
 * thread is left out of listings unless its source kind is asked for, and then names its parent,
 * its nickname and the tree's session; reading the parent back gives the same items.
 *
 * A child's thread is served as a thread of its own, as Codex 0.169 serves it: its status, its
 * turn and items and its approval questions come with its own thread id, in the order of the
 * reference's capture (test/fixtures/app-server-subagent-capture.jsonl, made with
 * `codex app-server` 0.169.0 and this test's script: ids normalized), and it is loaded, read,
 * unsubscribed from and rejoined like any thread while it is open.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AppServerClient, assertNoViolations } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { SPAWN_WAIT_CLOSE, collabCall, spawnedIn, startAgentServer } from "../support/agent-script.js";
import { customCall, fnCall, text, turn } from "../support/model-server.js";

type Json = Record<string, unknown>;

const CAPTURE = fileURLToPath(new URL("../../../test/fixtures/app-server-subagent-capture.jsonl", import.meta.url));


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
    // The child's turn ends first, on its own thread.
    const done = ((await client.next((m) => m.method === "turn/completed" && (m.params as Json).threadId === threadId)).params as Json).turn as Json;
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

/** The reference's messages (notifications and server requests) as the capture recorded them. */
function referenceMessages(): Json[] {
  return readFileSync(CAPTURE, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("<< "))
    .map((line) => JSON.parse(line.slice(3)) as Json)
    .filter((m) => typeof m.method === "string");
}

/**
 * Notifications codex-ts does not send, or sends at another point (see docs/app-server.md): the
 * reference's remote-control status, model-metadata warnings, rate limits and deprecation notices,
 * and token usage (which our core reports as a response completes).
 */
const NOT_COMPARED = new Set(["remoteControl/status/changed", "warning", "account/rateLimits/updated", "thread/tokenUsage/updated", "deprecationNotice", "thread/readState/changed"]);

/**
 * What one thread was sent, up to the parent's turn/completed, in order: each message's method
 * with its item's type (and tool) or the status it names; a run of message deltas counts once
 * (how the answer is cut is the scripted model's). The order between threads is not compared:
 * the two threads run side by side, and the reference's own runs interleave them differently.
 */
function threadSequence(messages: Json[], threadId: string): string[] {
  // The parent's turn is its own root; the sub-agent's belongs to the parent's.
  const end = messages.findIndex((m) => m.method === "turn/completed" && ((m.params as Json).turn as Json).rootTurnId === ((m.params as Json).turn as Json).id);
  const sequence: string[] = [];
  for (const m of messages.slice(0, end + 1)) {
    const params = m.params as Json;
    if (NOT_COMPARED.has(String(m.method)) || params.threadId !== threadId) continue;
    const item = params.item as Json | undefined;
    const status = params.status as Json | undefined;
    const detail = item ? ` ${String(item.type)}${item.tool ? `/${String(item.tool)}` : ""}` : status ? ` ${String(status.type)}${Array.isArray(status.activeFlags) ? `[${status.activeFlags.join(",")}]` : ""}` : "";
    const entry = `${String(m.method)}${detail}`;
    if (entry === "item/agentMessage/delta" && sequence.at(-1) === entry) continue;
    sequence.push(entry);
  }
  return sequence;
}

void test("a sub-agent's thread is served as its own: its status, turn, items and approval question on its thread id, as the reference sends them", async () => {
  const ws = makeWorkspace();
  const made = join(ws.dir, "made-by-child.txt");
  // The script of the reference's capture.
  const server = await startAgentServer({
    parent: [
      turn(collabCall("spawn_agent", { message: "make the file" }, "call_spawn")),
      (r) => turn(collabCall("wait_agent", { targets: [spawnedIn(r)[0]], timeout_ms: 60000 }, "call_wait")),
      (r) => turn(collabCall("close_agent", { target: spawnedIn(r)[0] }, "call_close")),
      turn(text("Done.")),
    ],
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
    const turnId = String(((await client.request("turn/start", { threadId, input: [{ type: "text", text: "go", text_elements: [] }] })).turn as Json).id);

    const approval = await client.nextMethod("item/commandExecution/requestApproval");
    const childId = String(approval.params.threadId);
    assert.notEqual(childId, threadId, "the question is asked on the sub-agent's own thread");
    const childTurn = client.received.find((m) => m.method === "turn/started" && (m.params as Json).threadId === childId);
    assert.ok(childTurn, "the sub-agent's turn was announced on its thread");
    const childTurnId = String(((childTurn.params as Json).turn as Json).id);
    assert.equal(approval.params.turnId, childTurnId);
    assert.equal(((childTurn.params as Json).turn as Json).rootTurnId, turnId, "a sub-agent's turn belongs to the parent's turn that spawned it");
    assert.equal(approval.params.itemId, "child_call");
    assert.equal(approval.params.reason, "Create the file?");
    assert.equal(existsSync(made), false, "nothing runs before the answer");

    // While it is open, the sub-agent's thread is loaded: read, listed as loaded, left and rejoined.
    assert.deepEqual(new Set(((await client.request("thread/loaded/list", {})).data as string[])), new Set([threadId, childId]));
    const live = (await client.request("thread/read", { threadId: childId })).thread as Json;
    assert.equal(live.parentThreadId, threadId);
    assert.equal(live.sessionId, threadId, "a sub-agent shares its tree's session");
    assert.equal(typeof live.agentNickname, "string");
    assert.equal(live.agentRole, null);
    assert.deepEqual(live.source, { subAgent: { thread_spawn: { parent_thread_id: threadId, depth: 1, agent_path: null, agent_nickname: live.agentNickname, agent_role: null } } });
    assert.deepEqual(live.status, { type: "active", activeFlags: ["waitingOnApproval"] });
    assert.deepEqual(await client.request("thread/unsubscribe", { threadId: childId }), { status: "unsubscribed" });
    const rejoined = await client.request("thread/resume", { threadId: childId });
    assert.equal((rejoined.thread as Json).parentThreadId, threadId);
    const again = await client.nextMethod("item/commandExecution/requestApproval");
    assert.equal(again.params.threadId, childId, "the open question is asked again of a client that rejoins the sub-agent's thread");
    client.respond(again.id, { decision: "accept" });

    const done = await client.next((m) => m.method === "turn/completed" && (m.params as Json).threadId === threadId);
    assert.equal(((done.params as Json).turn as Json).status, "completed");
    assert.equal(existsSync(made), true, "the approved command ran in the sub-agent");
    const resolved = client.received.filter((m) => m.method === "serverRequest/resolved").map((m) => m.params as Json);
    assert.deepEqual(resolved, [{ threadId: childId, requestId: again.id }], "the question is resolved on the sub-agent's thread");

    // The order of each thread's messages is the reference's (the question asked before the
    // client left the sub-agent's thread aside: it was asked again when the client rejoined).
    const firstAsk = client.received.find((m) => m.method === "item/commandExecution/requestApproval");
    const ours = client.received.filter((m) => typeof m.method === "string" && m !== firstAsk);
    const reference = referenceMessages();
    const [refParent, refChild] = ["00000000-0000-7000-8000-00000000000a", "00000000-0000-7000-8000-00000000000b"];
    assert.deepEqual(threadSequence(ours, threadId), threadSequence(reference, refParent));
    assert.deepEqual(threadSequence(ours, childId), threadSequence(reference, refChild));

    // Closed by its parent, the sub-agent's thread is no longer loaded; it reads back from its file.
    assert.deepEqual((await client.request("thread/loaded/list", {})).data, [threadId]);
    const read = (await client.request("thread/read", { threadId: childId, includeTurns: true })).thread as Json;
    assert.equal(read.parentThreadId, threadId);
    assert.deepEqual(((read.turns as Json[])[0]?.items as Json[]).map((i) => i.type), ["userMessage", "commandExecution", "agentMessage"]);
    assert.deepEqual(server.violations, []);
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
});

void test("a sub-agent's patch question is asked on its thread; declined there, its fileChange item ends declined and nothing is written", async () => {
  const ws = makeWorkspace();
  const target = join(ws.dir, "notes.txt");
  const server = await startAgentServer({
    parent: [turn(collabCall("spawn_agent", { message: "write the notes" }, "call_spawn")), (r) => turn(collabCall("wait_agent", { targets: [spawnedIn(r)[0]], timeout_ms: 60000 }, "call_wait")), turn(text("No notes."))],
    child: (_task, request) =>
      request.body.input?.some((i) => i.type === "custom_tool_call_output")
        ? turn(text("not allowed"))
        : turn(customCall("apply_patch", `*** Begin Patch\n*** Add File: ${target}\n+hello\n*** End Patch\n`, "child_patch")),
  });
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await client.initialize();
    const threadId = String(((await client.request("thread/start", { cwd: ws.dir, model: "gpt-5.4", approvalPolicy: "on-request", sandbox: "read-only" })).thread as Json).id);
    await client.request("turn/start", { threadId, input: [{ type: "text", text: "go", text_elements: [] }] });
    const question = await client.nextMethod("item/fileChange/requestApproval");
    const childId = String(question.params.threadId);
    assert.notEqual(childId, threadId);
    assert.equal(question.params.itemId, "child_patch");
    const started = client.received.find((m) => m.method === "item/started" && ((m.params as Json).item as Json).type === "fileChange");
    assert.equal((started?.params as Json | undefined)?.threadId, childId, "the patch is an item of the sub-agent's turn");
    client.respond(question.id, { decision: "decline" });
    await client.next((m) => m.method === "turn/completed" && (m.params as Json).threadId === threadId);
    const completed = client.received.find((m) => m.method === "item/completed" && ((m.params as Json).item as Json).type === "fileChange");
    assert.equal((completed?.params as Json | undefined)?.threadId, childId);
    assert.equal(((completed?.params as Json).item as Json).status, "declined");
    assert.equal(existsSync(target), false, "a declined patch writes nothing");
    assert.deepEqual(client.received.filter((m) => m.method === "serverRequest/resolved").map((m) => (m.params as Json).threadId), [childId]);
    assert.deepEqual(server.violations, []);
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
});
