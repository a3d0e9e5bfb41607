/**
 * `codex-ts mcp-server` end to end: the SDK's Client spawns the real CLI over stdio, with a
 * temporary CODEX_HOME whose config points the built-in provider at the scripted model server.
 * One thread: `codex` (the model runs a command, which is approved through elicitation), then
 * `codex-reply` on the same thread.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, ElicitRequestSchema, type JSONRPCMessage, type Notification } from "@modelcontextprotocol/sdk/types.js";
import { CLI_PATH, makeWorkspace, testEnv } from "../support/cli.js";
import { fnCall, startModelServer, text, turn } from "../support/model-server.js";

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

void test("mcp-server: codex runs a tool-using turn with an elicited approval, codex-reply continues the thread", async () => {
  const server = await startModelServer([
    turn(fnCall("exec_command", { cmd: "echo made > made.txt", yield_time_ms: 5000 }, "c1")),
    turn(text("made the file")),
    turn(text("second answer")),
  ]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), `# test config\nopenai_base_url = "${server.url}"\n`);

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
  try {
    await client.connect(transport);
    // The SDK's parsed request drops fields it does not know; record the raw ones.
    const deliver = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage) => {
      if ("method" in message && message.method === "elicitation/create") elicitations.push(message.params ?? {});
      deliver?.(message);
    };
    assert.equal(client.getServerVersion()?.name, "codex-mcp-server");
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["codex", "codex-reply"],
    );

    const first = CallToolResultSchema.parse(
      await client.callTool(
        { name: "codex", arguments: { prompt: "make a file", "approval-policy": "untrusted", sandbox: "workspace-write" } },
        undefined,
        { timeout: 30_000 },
      ),
    );
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

    const second = CallToolResultSchema.parse(
      await client.callTool({ name: "codex-reply", arguments: { threadId, prompt: "and now?" } }, undefined, { timeout: 30_000 }),
    );
    assert.deepEqual(second.structuredContent, { threadId, content: "second answer" });
    assert.equal(server.requests.length, 3);
    const input = JSON.stringify(server.requests[2]?.body.input ?? []);
    for (const seen of ["make a file", '"call_id":"c1"', "made the file", "and now?"]) {
      assert.ok(input.includes(seen), `the reply's model request carries the first turn's ${seen}`);
    }
    assert.deepEqual(server.violations, []);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nserver stderr:\n${stderr}`, { cause: err });
  } finally {
    await client.close();
    await server.close();
  }
});
