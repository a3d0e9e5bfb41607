/**
 * `codex-ts mcp-server` end to end: the SDK's Client spawns the real CLI over stdio, with a
 * temporary CODEX_HOME whose config points the built-in provider at the scripted model server.
 * One thread: `codex` (the model runs a command, which is approved through elicitation), then
 * `codex-reply` on the same thread; and a recorded thread continued by a restarted server.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, ElicitRequestSchema, type CallToolResult, type JSONRPCMessage, type Notification } from "@modelcontextprotocol/sdk/types.js";
import { CLI_PATH, makeWorkspace, runCli, testEnv, type Workspace } from "../support/cli.js";
import { fnCall, startModelServer, text, turn } from "../support/model-server.js";
import { readLines, rolloutFileOf, rolloutFiles } from "../support/rollout.js";

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

interface CliClient {
  client: Client;
  transport: StdioClientTransport;
  notifications: Notification[];
  elicitations: Array<Record<string, unknown>>;
  stderr: () => string;
}

/** Spawns `codex-ts mcp-server` in the workspace and connects the SDK's client to it. */
async function connectCli(ws: Workspace): Promise<CliClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, "mcp-server"],
    cwd: ws.dir,
    env: stringEnv(testEnv(ws.home)),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "e2e-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const notifications: Notification[] = [];
  const elicitations: Array<Record<string, unknown>> = [];
  client.fallbackNotificationHandler = (n) => {
    notifications.push(n);
    return Promise.resolve();
  };
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept" }));
  await client.connect(transport);
  // The SDK's parsed request drops fields it does not know; record the raw ones.
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ("method" in message && message.method === "elicitation/create") elicitations.push(message.params ?? {});
    deliver?.(message);
  };
  return { client, transport, notifications, elicitations, stderr: () => stderr };
}

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return CallToolResultSchema.parse(await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 }));
}

void test("mcp-server: codex runs a tool-using turn with an elicited approval, codex-reply continues the thread", async () => {
  const server = await startModelServer([
    turn(fnCall("exec_command", { cmd: "echo made > made.txt", yield_time_ms: 5000 }, "c1")),
    turn(text("made the file")),
    turn(text("second answer")),
  ]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), `# test config\nopenai_base_url = "${server.url}"\n`);

  const { client, notifications, elicitations, stderr } = await connectCli(ws);
  try {
    assert.equal(client.getServerVersion()?.name, "codex-mcp-server");
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["codex", "codex-reply"],
    );

    const first = await callTool(client, "codex", { prompt: "make a file", "approval-policy": "untrusted", sandbox: "workspace-write" });
    assert.equal(first.isError, undefined, JSON.stringify(first));
    const threadId = (first.structuredContent as { threadId: string }).threadId;
    assert.deepEqual(first.structuredContent, { threadId, content: "made the file" });
    assert.deepEqual(first.content, [{ type: "text", text: "made the file" }]);
    assert.equal(readFileSync(join(ws.dir, "made.txt"), "utf8"), "made\n", "the approved command ran in the server's cwd");

    assert.equal(elicitations.length, 1);
    const ask = elicitations[0] ?? {};
    assert.equal(ask.codex_elicitation, "exec-approval");
    assert.equal(ask.codex_call_id, "c1");
    assert.equal(ask.threadId, threadId);
    assert.deepEqual((ask.codex_command as string[]).slice(1), ["-lc", "echo made > made.txt"]);
    assert.match(String(ask.message), /^Allow Codex to run `.*` in `.*`\?$/);

    const events = notifications.filter((n) => n.method === "codex/event").map((n) => n.params as { _meta: { requestId: unknown; threadId: string }; msg: { type: string } });
    const types = events.map((e) => e.msg.type);
    for (const type of ["session_configured", "task_started", "exec_approval_request", "exec_command_begin", "exec_command_end", "task_complete"]) {
      assert.ok(types.includes(type), `a ${type} notification arrived (got ${types.join(", ")})`);
    }
    assert.ok(events.every((e) => e._meta.threadId === threadId && e._meta.requestId !== undefined));

    const second = await callTool(client, "codex-reply", { threadId, prompt: "and now?" });
    assert.deepEqual(second.structuredContent, { threadId, content: "second answer" });
    assert.equal(server.requests.length, 3);
    const input = JSON.stringify(server.requests[2]?.body.input ?? []);
    for (const seen of ["make a file", '"call_id":"c1"', "made the file", "and now?"]) {
      assert.ok(input.includes(seen), `the reply's model request carries the first turn's ${seen}`);
    }
    assert.deepEqual(server.violations, []);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nserver stderr:\n${stderr()}`, { cause: err });
  } finally {
    await client.close();
    await server.close();
  }
});

void test("mcp-server records its threads; a restarted server continues one with codex-reply, and exec can resume it", async () => {
  const server = await startModelServer([turn(text("first answer")), turn(text("after the restart")), turn(text("from exec"))]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  let threadId = "";
  const before = await connectCli(ws);
  try {
    const first = await callTool(before.client, "codex", { prompt: "remember the word walnut" });
    threadId = (first.structuredContent as { threadId: string }).threadId;
    assert.equal(first.isError, undefined, JSON.stringify(first));
  } finally {
    await before.client.close();
  }
  const file = rolloutFileOf(ws.home, threadId);
  const meta = readLines(file)[0];
  assert.equal(meta?.type, "session_meta");
  assert.equal(meta?.payload.source, "mcp");
  assert.equal(meta?.payload.cwd, ws.dir);
  const linesBefore = readLines(file).length;

  const after = await connectCli(ws);
  try {
    const unknown = await callTool(after.client, "codex-reply", { threadId: "01a20039-0605-7f82-bb57-0384ad2af383", prompt: "hello?" });
    assert.equal(unknown.isError, true);
    assert.equal(unknown.content[0]?.type === "text" ? unknown.content[0].text : "", "Session not found for thread_id: 01a20039-0605-7f82-bb57-0384ad2af383");

    const reply = await callTool(after.client, "codex-reply", { threadId, prompt: "which word?" });
    assert.deepEqual(reply.structuredContent, { threadId, content: "after the restart" }, after.stderr());
    const input = JSON.stringify(server.requests[1]?.body.input ?? []);
    for (const seen of ["remember the word walnut", "first answer", "which word?"]) {
      assert.ok(input.includes(seen), `the resumed thread's request carries ${seen}`);
    }
  } finally {
    await after.client.close();
  }
  assert.deepEqual(rolloutFiles(ws.home), [file], "the reply appended to the thread's own file");
  const lines = readLines(file);
  assert.ok(lines.length > linesBefore);
  assert.equal(lines.filter((l) => l.type === "session_meta").length, 1, "nothing already there was written again");

  const resumed = await runCli(["exec", "--skip-git-repo-check", "resume", threadId, "and from exec?"], { cwd: ws.dir, home: ws.home });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.stdout, "from exec\n");
  assert.ok(JSON.stringify(server.requests[2]?.body.input ?? []).includes("which word?"));
  await server.close();
});

void test("mcp-server: request_user_input questions become an elicitation form, and the client's choice reaches the model", async () => {
  const questions = {
    questions: [
      { id: "scope", header: "Scope", question: "How much to change?", options: [{ label: "Parser only", description: "Small." }, { label: "Whole module", description: "Big." }] },
    ],
  };
  const server = await startModelServer([turn(fnCall("request_user_input", questions, "q1")), turn(text("whole module it is"))]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const { client, elicitations, stderr } = await connectCli(ws);
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { scope: "Whole module" } }));
  try {
    const result = await callTool(client, "codex", { prompt: "refactor", "approval-policy": "on-request" });
    assert.equal((result.structuredContent as { content: string }).content, "whole module it is");
    assert.equal(elicitations.length, 1);
    const ask = elicitations[0] ?? {};
    assert.equal(ask.codex_elicitation, "request-user-input");
    assert.equal(ask.codex_call_id, "q1");
    assert.equal(ask.message, "How much to change?");
    assert.deepEqual(ask.requestedSchema, {
      type: "object",
      properties: { scope: { type: "string", title: "Scope", description: "How much to change?", enum: ["Parser only", "Whole module"] } },
    });
    const output = (server.requests[1]?.body.input ?? []).find((i) => i.type === "function_call_output" && i.call_id === "q1")?.output;
    assert.equal(output, '{"answers":{"scope":{"answers":["Whole module"]}}}');
    assert.deepEqual(server.violations, []);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nserver stderr:\n${stderr()}`, { cause: err });
  } finally {
    await client.close();
    await server.close();
  }
});

void test("mcp-server: the codex tool's compact-prompt is what a compaction of that thread asks the model", async () => {
  const server = await startModelServer([turn(text("ARR, A SUMMARY")), turn(text("answered"))]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const { client } = await connectCli(ws);
  try {
    // A tiny auto-compact limit and a local summary: the thread compacts before its first request.
    const config = { model_auto_compact_token_limit: 200, features: { remote_compaction: false } };
    const result = await callTool(client, "codex", { prompt: "hello", config, "compact-prompt": "Summarise it like a pirate." });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const summary = server.requests[0]?.body.input?.at(-1);
    assert.deepEqual(summary, { type: "message", role: "user", content: [{ type: "input_text", text: "Summarise it like a pirate." }] });
    assert.deepEqual(server.violations, []);
  } finally {
    await client.close();
    await server.close();
  }
});
