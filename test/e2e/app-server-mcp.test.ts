/**
 * MCP servers over the app-server, end to end over stdio with every message checked against the
 * reference's schema: `mcpServerStatus/list` outside any thread (the config's servers started
 * just to list them) and for a thread's running servers, its paging and filters, and
 * a thread's servers reloaded from the config, the client's own resource reads and tool calls, and
 * `mcpServer/oauth/login` against a real OAuth-protected MCP server (test/support/oauth-server.ts),
 * the client following the authorization URL as a browser would.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServerClient, RpcErrorResponse, assertNoViolations } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { startModelServer } from "../support/model-server.js";
import { startOAuthFixture } from "../support/oauth-server.js";
import { STDIO_SERVER_PATH } from "../fixtures/mcp/stdio-server.js";

type Json = Record<string, unknown>;
interface Status {
  name: string;
  runtimeStatus: string | null;
  httpOrigin: string | null;
  serverInfo: Json | null;
  serverCapabilities: Json | null;
  tools: Record<string, Json>;
  toolsError: string | null;
  resources: Json[];
  resourceTemplates: Json[];
  authStatus: string;
}

const stdioServers = [
  "[mcp_servers.fixture]",
  `command = ${JSON.stringify(process.execPath)}`,
  `args = [${JSON.stringify(STDIO_SERVER_PATH)}, "--name", "fx"]`,
  'disabled_tools = ["flood"]',
  "[mcp_servers.broken]",
  'command = "/nonexistent/mcp-server"',
  "[mcp_servers.off]",
  'command = "true"',
  "enabled = false",
  "",
].join("\n");

void test("mcpServerStatus/list: the config's servers without a thread, a thread's running ones with their state, in pages", async () => {
  const ws = makeWorkspace();
  const model = await startModelServer([]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n${stdioServers}`);
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: "sk-test" } });
  try {
    await client.initialize();
    const list = (params: Json): Promise<{ data: Status[]; nextCursor: string | null }> => client.request("mcpServerStatus/list", params);

    const all = await list({});
    assert.deepEqual(all.data.map((s) => s.name), ["broken", "fixture", "off"], "every configured server, by name");
    assert.equal(all.nextCursor, null);
    const [broken, fixture, off] = all.data as [Status, Status, Status];
    assert.equal(fixture.runtimeStatus, null, "outside a thread there is no runtime state, as in the reference");
    assert.deepEqual(fixture.serverInfo, { name: "fx", title: null, version: "1.0.0", description: null, icons: null, websiteUrl: null });
    assert.ok(fixture.serverCapabilities && "tools" in fixture.serverCapabilities);
    assert.ok(fixture.tools.echo, "tools by their own names");
    assert.equal((fixture.tools.echo as Json).name, "echo");
    assert.equal(fixture.tools.flood, undefined, "disabled_tools are left out");
    assert.deepEqual(fixture.resources.map((r) => r.uri), ["fixture://fx/greeting"]);
    assert.deepEqual(fixture.resourceTemplates.map((r) => r.uriTemplate), ["fixture://fx/{id}"]);
    assert.equal(fixture.authStatus, "unsupported");
    assert.equal(fixture.toolsError, null);
    assert.match(broken.toolsError ?? "", /^MCP startup failed: .*\/nonexistent\/mcp-server/);
    assert.deepEqual(broken.tools, {});
    assert.equal(off.toolsError, null);
    assert.deepEqual(off.tools, {});

    const first = await list({ limit: 2, detail: "toolsAndAuthOnly" });
    assert.deepEqual(first.data.map((s) => s.name), ["broken", "fixture"]);
    assert.deepEqual(first.data[1]?.resources, [], "toolsAndAuthOnly leaves resources out");
    assert.ok(first.data[1]?.tools.echo);
    assert.equal(first.nextCursor, "2");
    const second = await list({ limit: 2, cursor: first.nextCursor });
    assert.deepEqual(second.data.map((s) => s.name), ["off"]);
    assert.equal(second.nextCursor, null);
    assert.deepEqual((await list({ serverName: "fixture" })).data.map((s) => s.name), ["fixture"]);
    assert.deepEqual(await list({ serverName: "nope" }), { data: [], nextCursor: null });
    await assert.rejects(list({ cursor: "x" }), /invalid cursor/);

    // A thread's servers: what it runs, with their state.
    const threadId = String(((await client.request("thread/start", { cwd: ws.dir })).thread as Json).id);
    const running = await list({ threadId });
    assert.deepEqual(running.data.map((s) => [s.name, s.runtimeStatus]), [["broken", "failed"], ["fixture", "connected"], ["off", "disabled"]]);
    assert.ok(running.data[1]?.tools.echo);
    await assert.rejects(list({ threadId: "00000000-0000-0000-0000-000000000000" }), /thread not found/);

    // The client's own calls to the thread's servers: a resource read, tool calls; the conversation never sees them.
    const read = await client.request<{ contents: Json[] }>("mcpServer/resource/read", { threadId, server: "fixture", uri: "fixture://fx/greeting" });
    assert.equal(read.contents[0]?.uri, "fixture://fx/greeting");
    assert.equal(typeof read.contents[0]?.text, "string");
    assert.deepEqual(await client.request("mcpServer/tool/call", { threadId, server: "fixture", tool: "echo", arguments: { text: "hi" } }), { content: [{ type: "text", text: "echo: hi" }], structuredContent: null, isError: null, _meta: null });
    const added = await client.request<Json>("mcpServer/tool/call", { threadId, server: "fixture", tool: "add", arguments: { a: 2, b: 3 } });
    assert.deepEqual(added.structuredContent, { sum: 5 });
    await assert.rejects(client.request("mcpServer/tool/call", { threadId, server: "nope", tool: "echo", arguments: {} }), /unknown MCP server 'nope'/);
    await assert.rejects(client.request("mcpServer/resource/read", { server: "fixture", uri: "fixture://fx/greeting" }), /needs a `threadId`/);
    assert.equal(model.requests.length, 0, "no model request for the client's own calls");

    // The config changes: a reload has the thread stop its servers and start the new set.
    const secondServer = ["[mcp_servers.second]", `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(STDIO_SERVER_PATH)}, "--name", "two"]`, ""].join("\n");
    writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n${stdioServers.replace(/\[mcp_servers\.broken\]\ncommand = .*\n/, "")}${secondServer}`);
    assert.deepEqual(await client.request("config/mcpServer/reload"), {});
    const ready = await client.next((m) => m.method === "mcpServer/startupStatus/updated" && (m.params as Json).name === "second" && (m.params as Json).status === "ready");
    assert.deepEqual(ready.params, { threadId, name: "second", status: "ready", error: null, failureReason: null });
    let reloaded = await list({ threadId });
    for (let i = 0; i < 50 && reloaded.data.some((s) => s.runtimeStatus === "starting"); i++) reloaded = await list({ threadId });
    assert.deepEqual(reloaded.data.map((s) => [s.name, s.runtimeStatus]), [["fixture", "connected"], ["off", "disabled"], ["second", "connected"]]);
    assert.equal((reloaded.data[2]?.serverInfo as Json).name, "two");

    await assert.rejects(client.request("mcpServer/oauth/login", { name: "fixture" }), /stdio server: it has no login/);
    await assert.rejects(client.request("mcpServer/oauth/login", { name: "nope" }), (err: RpcErrorResponse) => err.code === -32600 && /No MCP server named nope in config\.toml \(configured: fixture, off, second\)/.test(err.message));
    // A config that no longer loads: the reload says so and changes nothing.
    writeFileSync(join(ws.home, "config.toml"), "model = [broken\n");
    await assert.rejects(client.request("config/mcpServer/reload"), /Invalid config/);
    assertNoViolations(client);
  } finally {
    await client.close();
    await model.close();
  }
});

void test("mcpServer/oauth/login: the client gets the URL, the sign-in completes through it, and the thread's server starts with the tokens", async () => {
  const fx = await startOAuthFixture();
  const model = await startModelServer([]);
  const ws = makeWorkspace();
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${model.url}"\n[mcp_servers.remote]\nurl = ${JSON.stringify(fx.url)}\n`);
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: "sk-test" } });
  try {
    await client.initialize();
    const threadId = String(((await client.request("thread/start", { cwd: ws.dir })).thread as Json).id);
    const list = async (): Promise<Status> => ((await client.request<{ data: Status[] }>("mcpServerStatus/list", { threadId })).data[0] as Status);
    const before = await list();
    assert.equal(before.authStatus, "notLoggedIn");
    assert.equal(before.runtimeStatus, "authenticationRequired");
    assert.equal(before.httpOrigin, new URL(fx.url).origin);

    const started = await client.request<{ authorizationUrl: string; loginId: string }>("mcpServer/oauth/login", { name: "remote", threadId });
    assert.match(started.authorizationUrl, /^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    assert.ok(started.loginId);
    // The client's browser: the authorization server redirects to the server's callback.
    const page = await (await fetch(started.authorizationUrl)).text();
    assert.match(page, /Signed in/);
    const completed = await client.nextMethod("mcpServer/oauthLogin/completed");
    assert.deepEqual(completed.params, { name: "remote", success: true, error: null, loginId: started.loginId, threadId });
    assert.ok(existsSync(join(ws.home, ".credentials.json")), "the tokens are stored where `codex-ts mcp login` keeps them");

    // The thread starts the server again with the tokens.
    let after = await list();
    for (let i = 0; i < 50 && after.runtimeStatus !== "connected"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await list();
    }
    assert.equal(after.runtimeStatus, "connected");
    assert.equal(after.authStatus, "oAuth");
    assert.ok(Object.keys(after.tools).length > 0);
    assertNoViolations(client);
  } finally {
    await client.close();
    await model.close();
    await fx.close();
  }
});
