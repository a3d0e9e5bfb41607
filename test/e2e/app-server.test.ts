/**
 * `codex-ts app-server` over stdio, driven by a client written against the reference's schema
 * (every message the server sends is checked against it): a thread started, a turn whose command
 * needs approval (accepted; the command really runs), the thread listed and read back, resumed in
 * a new server process, and a turn interrupted. Then bad input (each answered with an error while
 * the server goes on) and threads written by `exec` and by the reference, listed and resumed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AppServerClient, RpcErrorResponse, assertNoViolations, protocolSchema } from "../support/app-server-client.js";
import { makeWorkspace, runCli } from "../support/cli.js";
import { fnCall, startModelServer, text, turn } from "../support/model-server.js";

type Json = Record<string, unknown>;

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/", import.meta.url));

function configFor(url: string): string {
  return `openai_base_url = "${url}"\n`;
}

/** The methods of a turn's notifications and server requests, without the streamed deltas. */
function turnMethods(methods: string[]): string[] {
  const skip = new Set(["item/agentMessage/delta", "item/commandExecution/outputDelta", "thread/tokenUsage/updated", "account/rateLimits/updated", "remoteControl/status/changed", "thread/started", "warning"]);
  return methods.filter((m) => !skip.has(m));
}

void test("start, an approved command, list, read, resume in a new process, interrupt: every message fits the reference's schema", async () => {
  const ws = makeWorkspace();
  const made = join(ws.dir, "made.txt");
  const server = await startModelServer([
    // The command asks to leave the read-only sandbox, so it waits for the client's approval.
    turn(fnCall("exec_command", { cmd: `touch ${made}`, sandbox_permissions: "require_escalated", justification: "Create a file in the workspace?" }, "call_2")),
    turn(text("done")),
    // After the resume: a long command, interrupted.
    turn(fnCall("exec_command", { cmd: "sleep 30" }, "call_sleep")),
  ]);
  writeFileSync(join(ws.home, "config.toml"), configFor(server.url));
  const first = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    const init = await first.initialize("gap_probe");
    assert.equal(init.codexHome, ws.home);
    assert.match(String(init.userAgent), /^gap_probe\//);

    const started = await first.request("thread/start", { cwd: ws.dir, approvalPolicy: "on-request", sandbox: "read-only" });
    const thread = started.thread as Json;
    const threadId = String(thread.id);
    assert.equal(started.approvalPolicy, "on-request");
    assert.deepEqual(started.sandbox, { type: "readOnly", networkAccess: false });
    assert.equal((thread.status as Json).type, "idle");
    assert.equal(thread.originator, "gap_probe");

    const turnStart = await first.request("turn/start", { threadId, input: [{ type: "text", text: "run echo hi", text_elements: [] }] });
    const turnId = String((turnStart.turn as Json).id);
    assert.equal((turnStart.turn as Json).status, "inProgress");

    const approval = await first.nextMethod("item/commandExecution/requestApproval");
    assert.equal(approval.params.itemId, "call_2");
    assert.equal(approval.params.turnId, turnId);
    assert.equal(approval.params.reason, "Create a file in the workspace?");
    assert.match(String(approval.params.command), /touch .*made\.txt/);
    // What the command does is named by the script, as the reference names it.
    assert.deepEqual(approval.params.commandActions, [{ type: "unknown", command: `touch ${made}` }]);
    assert.equal(existsSync(made), false, "nothing runs before the approval");
    first.respond(approval.id, { decision: "accept" });

    const resolved = await first.nextMethod("serverRequest/resolved");
    assert.deepEqual(resolved.params, { threadId, requestId: approval.id });
    const completed = await first.nextMethod("turn/completed");
    const doneTurn = completed.params.turn as Json;
    assert.equal(doneTurn.status, "completed");
    assert.equal(((doneTurn.items as Json[])[0] as Json).text, "done");
    assert.equal(existsSync(made), true, "the approved command ran");

    // The order of a turn's notifications, as the reference sends them (its token usage comes at
    // another point of the turn: our core counts tokens when a response completes).
    const reference = readFileSync(join(FIXTURES, "app-server-schema/reference-approval-transcript.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("<< "))
      .map((l) => JSON.parse(l.slice(3)) as Json)
      .flatMap((m) => (typeof m.method === "string" ? [m.method] : []));
    const from = (methods: string[]): string[] => turnMethods(methods).slice(turnMethods(methods).indexOf("thread/status/changed"));
    assert.deepEqual(from(first.methodsSeen()), from(reference).slice(0, from(first.methodsSeen()).length));
    assert.equal(from(first.methodsSeen()).at(-1), "turn/completed");

    const commandDone = first.received.find((m) => m.method === "item/completed" && ((m.params as Json).item as Json).type === "commandExecution");
    const commandItem = (commandDone?.params as Json).item as Json;
    assert.equal(commandItem.status, "completed");
    assert.equal(commandItem.exitCode, 0);

    const list = await first.request("thread/list", { limit: 5 });
    const listed = (list.data as Json[]).find((t) => t.id === threadId);
    assert.ok(listed, "the new thread is listed");
    assert.equal(listed.preview, "run echo hi");

    const read = await first.request("thread/read", { threadId, includeTurns: true });
    const turns = (read.thread as Json).turns as Json[];
    assert.equal(turns.length, 1);
    assert.equal(turns[0]?.id, turnId);
    assert.equal(turns[0]?.status, "completed");
    assert.deepEqual(
      ((turns[0]?.items ?? []) as Json[]).map((i) => i.type),
      ["userMessage", "commandExecution", "agentMessage"],
    );
    assertNoViolations(first);
  } finally {
    await first.close();
  }

  // A new server process picks the recorded thread up.
  const second = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await second.initialize();
    const threadId = String(((await second.request("thread/list", {})).data as Json[])[0]?.id);
    const resumed = await second.request("thread/resume", { threadId });
    const thread = resumed.thread as Json;
    assert.equal(thread.id, threadId);
    assert.equal((thread.turns as Json[]).length, 1, "the resumed thread shows its recorded turn");
    assert.equal(resumed.approvalPolicy, "on-request");

    const turnStart = await second.request("turn/start", { threadId, input: [{ type: "text", text: "wait a while", text_elements: [] }] });
    const turnId = String((turnStart.turn as Json).id);
    await second.next((m) => m.method === "item/started" && ((m.params as Json).item as Json).type === "commandExecution");
    await second.request("turn/interrupt", { threadId, turnId });
    const completed = await second.nextMethod("turn/completed");
    assert.equal((completed.params.turn as Json).status, "interrupted");
    assert.equal(server.requests.length, 3, "the model was asked once for the resumed turn");
    // The resumed request carried the first turn's history.
    assert.match(JSON.stringify(server.requests[2]?.body.input), /run echo hi/);

    const reread = await second.request("thread/read", { threadId, includeTurns: true });
    assert.deepEqual(((reread.thread as Json).turns as Json[]).map((t) => t.status), ["completed", "interrupted"]);
    assertNoViolations(second);
  } finally {
    await second.close();
    await server.close();
  }
});

void test("bad input gets a JSON-RPC error naming the problem, and the server goes on serving", async () => {
  const ws = makeWorkspace();
  const server = await startModelServer([]);
  writeFileSync(join(ws.home, "config.toml"), configFor(server.url));
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await assert.rejects(client.request("thread/list", {}), (err: RpcErrorResponse) => err.code === -32600 && err.message === "Not initialized");
    await client.initialize();
    await assert.rejects(client.request("initialize", { clientInfo: { name: "again", version: "1" } }), /Already initialized/);

    client.sendRaw("this is not json");
    const parseError = await client.next((m) => m.id === null);
    assert.equal((parseError.error as Json).code, -32700);

    await assert.rejects(client.request("foo/bar", {}), (err: RpcErrorResponse) => err.code === -32601 && err.message.includes("`foo/bar`"));
    await assert.rejects(client.request("plugin/list", {}), (err: RpcErrorResponse) => err.code === -32601 && /`plugin\/list` is not supported by codex-ts app-server/.test(err.message));
    await assert.rejects(client.request("thread/read", {}), /missing field `threadId`/);
    await assert.rejects(client.request("thread/read", { threadId: 7 }), /expected a string for `threadId`/);
    await assert.rejects(client.request("thread/read", { threadId: "01a2171e-0572-7f52-ac8e-35475b8f3150" }), /thread not found/);
    await assert.rejects(client.request("turn/start", { threadId: "nope", input: [] }), /thread not found: nope/);
    await assert.rejects(client.request("thread/start", { sandbox: "everything" }), /unknown variant "everything" for `sandbox`/);

    // A 1 MiB message is read whole (and answered by name).
    const big = "x".repeat(1 << 20);
    await assert.rejects(client.request("thread/name/set", { threadId: "01a2171e-0572-7f52-ac8e-35475b8f3150", name: big }), /thread not found/);

    // A hundred requests at once are all answered.
    const answers = await Promise.all(Array.from({ length: 100 }, () => client.request("thread/loaded/list", {})));
    assert.equal(answers.length, 100);
    assert.ok(answers.every((a) => Array.isArray(a.data)));
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
});

void test("threads written by exec and by the reference are listed, read and resumed", async () => {
  const ws = makeWorkspace();
  const server = await startModelServer([turn(text("from exec")), turn(text("continued"))]);
  writeFileSync(join(ws.home, "config.toml"), configFor(server.url));
  const exec = await runCli(["exec", "hello from exec"], { cwd: ws.dir, home: ws.home });
  assert.equal(exec.code, 0, exec.stderr);
  // The reference's own session file (0.169: items recorded as item_completed events).
  const day = join(ws.home, "sessions", "2026", "11", "21");
  mkdirSync(day, { recursive: true });
  copyFileSync(join(FIXTURES, "reference/codex-0.169-rollout.jsonl"), join(day, "rollout-2026-11-21T22-27-46-01a20039-0605-7f82-bb57-0384ad2af383.jsonl"));

  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await client.initialize();
    const interactive = await client.request("thread/list", {});
    assert.equal((interactive.data as Json[]).length, 0, "exec threads are not interactive ones");
    const listed = (await client.request("thread/list", { sourceKinds: ["exec"] })).data as Json[];
    assert.deepEqual(listed.map((t) => t.preview).sort(), ["create a.txt", "hello from exec"]);
    const ours = listed.find((t) => t.preview === "hello from exec");
    assert.ok(ours, "the exec thread is listed");
    assert.equal(ours.source, "exec");

    const reference = await client.request("thread/read", { threadId: "01a20039-0605-7f82-bb57-0384ad2af383", includeTurns: true });
    const refTurns = (reference.thread as Json).turns as Json[];
    assert.equal(refTurns.length, 1);
    assert.equal(refTurns[0]?.status, "completed");
    assert.deepEqual(((refTurns[0]?.items ?? []) as Json[]).map((i) => i.type), ["userMessage", "commandExecution", "fileChange", "agentMessage"]);

    const resumed = await client.request("thread/resume", { threadId: String(ours.id) });
    assert.equal(((resumed.thread as Json).turns as Json[]).length, 1);
    await client.request("turn/start", { threadId: String(ours.id), input: [{ type: "text", text: "and now?", text_elements: [] }] });
    const completed = await client.nextMethod("turn/completed");
    assert.equal((completed.params.turn as Json).status, "completed");
    assert.match(JSON.stringify(server.requests[1]?.body.input), /hello from exec/);
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
});

void test("the schema check rejects what the reference's schema does not allow (so a clean run means something)", () => {
  const schema = protocolSchema();
  assert.equal(schema.check({ method: "turn/started", params: { threadId: "t" } }).length, 1, "a notification missing a field");
  assert.equal(schema.check({ method: "turn/whatever", params: {} }).length, 1, "a notification the protocol does not have");
  assert.equal(schema.check({ id: 0, method: "item/commandExecution/requestApproval", params: { threadId: "t" } }).length, 1, "a server request missing fields");
  assert.equal(schema.check({ id: 1, result: { thread: {} } }, "thread/start").length, 1, "a response missing fields");
  assert.deepEqual(schema.check({ id: 1, result: { data: [], nextCursor: null } }, "thread/list"), []);
});
