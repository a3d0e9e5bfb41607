/**
 * The MCP server in process, over the SDK's InMemoryTransport: a real core Session (config from
 * a temporary CODEX_HOME) against the scripted model server, driven by the SDK's Client.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, ElicitRequestSchema, type ElicitRequest, type ElicitResult, type Notification } from "@modelcontextprotocol/sdk/types.js";
import { customCall, fnCall, startModelServer, text, turn, type ModelServer } from "../../test/support/model-server.js";
import { decisionFromElicitResult, serveMcp } from "./server.js";
import { parseCodexParams, parseReplyParams } from "./tools.js";
import { configOverrides } from "./start-session.js";

interface Harness {
  client: Client;
  notifications: Notification[];
  /** `elicitation/create` params as sent (the SDK's parsed copy drops the `codex_*` fields). */
  elicitations: Array<Record<string, unknown>>;
  served: Promise<void>;
  cwd: string;
}

async function connect(server: ModelServer, answer: (params: ElicitRequest["params"]) => ElicitResult = () => ({ action: "accept" })): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-mcp-server-"));
  const home = join(root, "home");
  const cwd = join(root, "work");
  mkdirSync(home);
  mkdirSync(cwd);
  writeFileSync(join(home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveMcp(serverSide, { env: { ...process.env, CODEX_HOME: home, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: undefined }, cwd });
  const client = new Client({ name: "test-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const notifications: Notification[] = [];
  const elicitations: Array<Record<string, unknown>> = [];
  client.fallbackNotificationHandler = (n) => {
    notifications.push(n);
    return Promise.resolve();
  };
  client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params));
  await client.connect(clientSide);
  const deliver = clientSide.onmessage;
  clientSide.onmessage = (message, extra) => {
    if ("method" in message && message.method === "elicitation/create") elicitations.push(message.params ?? {});
    deliver?.(message, extra);
  };
  return { client, notifications, elicitations, served, cwd };
}

const eventsOf = (h: Harness, type: string): Array<Record<string, unknown>> =>
  h.notifications
    .filter((n) => n.method === "codex/event")
    .map((n) => n.params as Record<string, unknown>)
    .filter((p) => (p.msg as { type: string }).type === type);

void test("lists the reference's two tools with their schemas", async () => {
  const server = await startModelServer([]);
  const h = await connect(server);
  try {
    const { tools } = await h.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["codex", "codex-reply"],
    );
    const codex = tools[0];
    assert.deepEqual(codex?.inputSchema.required, ["prompt"]);
    assert.deepEqual(Object.keys(codex?.inputSchema.properties ?? {}).sort(), [
      "approval-policy",
      "base-instructions",
      "compact-prompt",
      "config",
      "cwd",
      "developer-instructions",
      "model",
      "profile",
      "prompt",
      "sandbox",
    ]);
    assert.deepEqual(codex?.outputSchema?.required, ["threadId", "content"]);
    assert.equal(h.client.getServerVersion()?.name, "codex-mcp-server");
  } finally {
    await h.client.close();
    await h.served;
    await server.close();
  }
});

void test("codex runs a tool-using turn with an approval via elicitation; codex-reply continues the thread", async () => {
  const server = await startModelServer([
    turn(fnCall("exec_command", { cmd: "echo made > made.txt", yield_time_ms: 5000 }, "c1")),
    turn(text("made the file")),
    turn(text("second answer")),
  ]);
  const h = await connect(server);
  try {
    await h.client.listTools();
    const first = CallToolResultSchema.parse(
      await h.client.callTool({
        name: "codex",
        arguments: { prompt: "make a file", cwd: h.cwd, "approval-policy": "untrusted", sandbox: "workspace-write" },
      }),
    );
    assert.equal(first.isError, undefined);
    assert.deepEqual(first.content, [{ type: "text", text: "made the file" }]);
    const threadId = (first.structuredContent as { threadId: string }).threadId;
    assert.deepEqual(first.structuredContent, { threadId, content: "made the file" });
    assert.equal(readFileSync(join(h.cwd, "made.txt"), "utf8"), "made\n");

    assert.equal(h.elicitations.length, 1);
    const ask = h.elicitations[0] ?? {};
    assert.equal(ask.codex_elicitation, "exec-approval");
    assert.equal(ask.codex_call_id, "c1");
    assert.equal(ask.threadId, threadId);
    assert.equal(ask.codex_cwd, h.cwd);
    assert.deepEqual((ask.codex_command as string[]).slice(1), ["-lc", "echo made > made.txt"]);
    assert.match(String(ask.message), /^Allow Codex to run `.*'echo made > made\.txt'` in `.*`\?$/);

    const configured = eventsOf(h, "session_configured")[0];
    assert.ok(configured, "session_configured was sent");
    assert.deepEqual(Object.keys(configured).sort(), ["_meta", "id", "msg"]);
    const meta = configured._meta as { requestId: unknown; threadId: string };
    assert.equal(meta.threadId, threadId);
    assert.equal(typeof meta.requestId, "number");
    for (const type of ["task_started", "exec_approval_request", "exec_command_begin", "exec_command_end", "agent_message", "task_complete"]) {
      assert.equal(eventsOf(h, type).length, 1, `one ${type} notification`);
    }

    const second = CallToolResultSchema.parse(await h.client.callTool({ name: "codex-reply", arguments: { threadId, prompt: "and now?" } }));
    assert.deepEqual(second.structuredContent, { threadId, content: "second answer" });
    assert.equal(server.requests.length, 3);
    const input = JSON.stringify(server.requests[2]?.body.input ?? []);
    for (const seen of ["make a file", '"call_id":"c1"', "made the file", "and now?"]) assert.ok(input.includes(seen), `third request carries ${seen}`);
    const replyMeta = eventsOf(h, "task_complete")[1]?._meta as { requestId: unknown; threadId: string };
    assert.equal(replyMeta.threadId, threadId);
    assert.notEqual(replyMeta.requestId, meta.requestId);

    const legacy = CallToolResultSchema.parse(await h.client.callTool({ name: "codex-reply", arguments: { conversationId: "nope", prompt: "x" } }));
    assert.equal(legacy.isError, true);
    assert.deepEqual(legacy.content, [{ type: "text", text: "Session not found for thread_id: nope" }]);
    assert.deepEqual(server.violations, []);
  } finally {
    await h.client.close();
    await h.served;
    await server.close();
  }
});

void test("a declined approval is denied: the command does not run and the model is told", async () => {
  const server = await startModelServer([turn(fnCall("exec_command", { cmd: "touch nope.txt" }, "c")), turn(text("ok, not running it"))]);
  const h = await connect(server, () => ({ action: "decline" }));
  try {
    const result = CallToolResultSchema.parse(
      await h.client.callTool({ name: "codex", arguments: { prompt: "touch", cwd: h.cwd, "approval-policy": "untrusted", sandbox: "workspace-write" } }),
    );
    assert.deepEqual(result.content, [{ type: "text", text: "ok, not running it" }]);
    assert.equal(eventsOf(h, "exec_command_begin").length, 0);
    const output = JSON.stringify(server.requests[1]?.body.input ?? []);
    assert.match(output, /rejected|denied|declined/i);
  } finally {
    await h.client.close();
    await h.served;
    await server.close();
  }
});

void test("a patch approval is elicited with the reference's patch-approval fields", async () => {
  // Under no writable root: npm test's scratch folder outside /tmp (scripts/in-scratch.mjs), else /var/tmp.
  const outside = mkdtempSync(join(process.env.CODEX_TS_TEST_OUTSIDE ?? "/var/tmp", "codex-ts-mcp-outside-"));
  const target = join(outside, "one.txt");
  const server = await startModelServer([turn(customCall("apply_patch", `*** Begin Patch\n*** Add File: ${target}\n+hi\n*** End Patch\n`, "p1")), turn(text("patched"))]);
  const h = await connect(server);
  try {
    const result = CallToolResultSchema.parse(
      await h.client.callTool({ name: "codex", arguments: { prompt: "patch", cwd: h.cwd, "approval-policy": "on-request", sandbox: "workspace-write" } }),
    );
    assert.deepEqual(result.content, [{ type: "text", text: "patched" }]);
    assert.equal(readFileSync(target, "utf8"), "hi\n");
    const ask = h.elicitations[0] ?? {};
    const reason = `grant write access to ${outside} for this session`;
    assert.equal(ask.codex_elicitation, "patch-approval");
    assert.equal(ask.message, `${reason}\nAllow Codex to apply proposed code changes?`);
    assert.equal(ask.codex_reason, reason);
    assert.equal(ask.codex_grant_root, outside);
    assert.equal(ask.codex_call_id, "p1");
    assert.deepEqual(ask.codex_changes, { [target]: { type: "add", content: "hi\n" } });
    assert.deepEqual(ask.requestedSchema, { type: "object", properties: {} });
  } finally {
    await h.client.close();
    await h.served;
    await server.close();
    rmSync(outside, { recursive: true, force: true });
  }
});

void test("bad arguments and unknown tools are tool errors", async () => {
  const server = await startModelServer([]);
  const h = await connect(server);
  try {
    const missing = CallToolResultSchema.parse(await h.client.callTool({ name: "codex", arguments: {} }));
    assert.equal(missing.isError, true);
    assert.deepEqual(missing.content, [{ type: "text", text: "Failed to parse configuration for Codex tool: missing field `prompt`" }]);
    const badPolicy = CallToolResultSchema.parse(await h.client.callTool({ name: "codex", arguments: { prompt: "x", "approval-policy": "sometimes" } }));
    assert.equal(badPolicy.isError, true);
    const unknown = CallToolResultSchema.parse(await h.client.callTool({ name: "nope", arguments: {} }));
    assert.deepEqual(unknown.content, [{ type: "text", text: "Unknown tool 'nope'" }]);
  } finally {
    await h.client.close();
    await h.served;
    await server.close();
  }
});

void test("argument parsing and elicitation answers", () => {
  assert.deepEqual(parseReplyParams({ conversationId: "t", prompt: "p" }), { threadId: "t", prompt: "p" });
  assert.throws(() => parseReplyParams({ prompt: "p" }), /either threadId or conversationId must be provided/);
  const params = parseCodexParams({ prompt: "p", config: { "sandbox_workspace_write.network_access": true, model: "o3", n: null }, "compact-prompt": "c" });
  assert.deepEqual(configOverrides(params), ["sandbox_workspace_write.network_access=true", 'model="o3"', 'compact_prompt="c"']);
  assert.equal(decisionFromElicitResult({ action: "accept" }), "approved");
  assert.equal(decisionFromElicitResult({ action: "decline" }), "denied");
  assert.equal(decisionFromElicitResult({ action: "cancel" }), "denied");
  assert.equal(decisionFromElicitResult({ decision: "approved_for_session" }), "approved_for_session");
  assert.equal(decisionFromElicitResult({ action: "accept", content: { decision: "denied" } }), "denied");
  assert.equal(decisionFromElicitResult({}), "denied");
});
