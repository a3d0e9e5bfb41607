/**
 * The MCP client against real servers, below the model: the stdio fixture (spawned with this
 * Node), the streamable-HTTP fixture (in this process), and @modelcontextprotocol/server-everything.
 * Each test starts a McpConnectionManager the way a session would and drives it directly or
 * through the tool handlers, checking events and what the model would read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { NO_OAUTH_SETTINGS, type McpHttpServer, type McpServerConfig, type McpStdioServer } from "../../src/config/mcp.js";
import type { TurnContext } from "../../src/tools/turn-context.js";
import type { TurnDiffTracker } from "../../src/patch/turn-diff.js";
import type { EventMsg } from "../../src/protocol/events.js";
import { toolName } from "../../src/protocol/tool-spec.js";
import type { ToolSpec } from "../../src/protocol/tool-spec.js";
import type { ToolHandler, ToolInvocation } from "../../src/tools/types.js";
import type { McpApprovalDecision, McpApprovalRequest } from "../../src/approval/mcp-tool-approval.js";
import type { McpEventMsg, McpStartupEventMsg, McpToolCallEventMsg } from "../../src/protocol/mcp-events.js";
import { McpConnectionManager } from "../../src/mcp/manager.js";
import type { McpToolOutput } from "../../src/mcp/result.js";
import { mcpToolset, mcpToolsetSnapshot, withMcpToolSpecs, type McpToolOptions } from "../../src/mcp/tools.js";
import { STDIO_SERVER_PATH } from "../fixtures/mcp/stdio-server.js";
import { startHttpFixture } from "../fixtures/mcp/http-server.js";
import { FX_ECHO_TOOL_SPEC, FX_QUALIFIED_TOOL_NAMES, TINY_PNG_BASE64 } from "../fixtures/mcp/fixture-server.js";

// ---------------------------------------------------------------------------------------------
// Helpers

const COMMON = { enabled: true, required: false, startup_timeout_sec: 10, tool_timeout_sec: 60, enabled_tools: null, disabled_tools: [] };
const OAUTH = NO_OAUTH_SETTINGS;

function stdio(args: string[] = [], over: Partial<McpStdioServer> = {}): McpStdioServer {
  return { ...COMMON, transport: "stdio", command: process.execPath, args: [STDIO_SERVER_PATH, ...args], env: {}, env_vars: [], cwd: null, ...over };
}

function httpConfig(url: string, over: Partial<McpHttpServer> = {}): McpHttpServer {
  return { ...COMMON, ...OAUTH, transport: "streamable_http", url, bearer_token_env_var: null, http_headers: {}, env_http_headers: {}, scopes: [], ...over };
}

function everything(over: Partial<McpStdioServer> = {}): McpStdioServer {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve("@modelcontextprotocol/server-everything/package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { bin: Record<string, string> };
  const bin = join(dirname(pkgPath), pkg.bin["mcp-server-everything"] ?? "dist/index.js");
  return { ...COMMON, transport: "stdio", command: process.execPath, args: [bin, "stdio"], env: {}, env_vars: [], cwd: null, ...over };
}

interface Started {
  manager: McpConnectionManager;
  events: McpStartupEventMsg[];
  cwd: string;
}

function start(servers: Record<string, McpServerConfig>, env: NodeJS.ProcessEnv = process.env): Started {
  const events: McpStartupEventMsg[] = [];
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-mcp-")));
  const manager = McpConnectionManager.start(servers, { cwd, env, onEvent: (msg) => events.push(msg), clientVersion: "9.9.9" });
  return { manager, events, cwd };
}

async function withManager(
  servers: Record<string, McpServerConfig>,
  body: (s: Started) => Promise<void>,
  env?: NodeJS.ProcessEnv,
): Promise<void> {
  const started = start(servers, env);
  try {
    await body(started);
  } finally {
    await started.manager.shutdown();
  }
}

const FULL_ACCESS_TURN = { approvalPolicy: "never", sandboxPolicy: { type: "danger-full-access" } } as unknown as TurnContext;
const ASKING_TURN = { approvalPolicy: "on-request", sandboxPolicy: { type: "workspace-write" } } as unknown as TurnContext;

interface Called {
  output: McpToolOutput;
  events: McpToolCallEventMsg[];
}

let nextCall = 0;

/** Runs one function call through a handler, as the router would, collecting the events it emits. */
async function call(handlers: Map<string, ToolHandler>, name: string, args: unknown, turn = FULL_ACCESS_TURN): Promise<Called> {
  const handler = handlers.get(name);
  assert.ok(handler, `no handler for ${name}; have ${[...handlers.keys()].join(", ")}`);
  const events: McpToolCallEventMsg[] = [];
  const invocation: ToolInvocation = {
    callId: `call_${nextCall++}`,
    name,
    payload: { kind: "function", arguments: typeof args === "string" ? args : JSON.stringify(args) },
    turn,
    signal: new AbortController().signal,
    emit: (msg: EventMsg) => events.push(msg as unknown as McpToolCallEventMsg),
    turnDiff: {} as TurnDiffTracker,
  };
  const output = (await handler.handle(invocation)) as McpToolOutput;
  return { output, events };
}

function endOf(events: McpToolCallEventMsg[]): Extract<McpToolCallEventMsg, { type: "mcp_tool_call_end" }> {
  const end = events.find((e) => e.type === "mcp_tool_call_end");
  assert.ok(end && end.type === "mcp_tool_call_end", `no end event in ${JSON.stringify(events)}`);
  return end;
}

function names(specs: ToolSpec[]): string[] {
  return specs.map(toolName);
}

function statuses(events: McpEventMsg[], server: string): string[] {
  return events.flatMap((e) => (e.type === "mcp_startup_update" && e.server === server ? [e.status.state] : []));
}

// ---------------------------------------------------------------------------------------------
// Start-up

void test("a stdio server starts in the background, reports starting → ready → complete, and its tools get qualified names", async () => {
  await withManager({ fx: stdio() }, async ({ manager, events }) => {
    // start() returned before anything was spawned or answered.
    assert.deepEqual(events, [{ type: "mcp_startup_update", server: "fx", status: { state: "starting" } }]);
    assert.equal(manager.status("fx"), "starting");
    const toolset = await mcpToolset(manager);
    assert.deepEqual(events.slice(1), [
      { type: "mcp_startup_update", server: "fx", status: { state: "ready" } },
      { type: "mcp_startup_complete", ready: ["fx"], failed: [], cancelled: [] },
    ]);
    assert.deepEqual(names(toolset.resourceSpecs), ["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"]);
    assert.deepEqual(names(toolset.toolSpecs), FX_QUALIFIED_TOOL_NAMES);
    const echo = toolset.toolSpecs.find((s) => s.type === "function" && s.name === "mcp__fx__echo");
    assert.deepEqual(echo, FX_ECHO_TOOL_SPEC);
    const messy = toolset.toolSpecs.find((s) => s.type === "function" && s.name === "mcp__fx__messy_schema");
    assert.ok(messy?.type === "function");
    assert.deepEqual(messy.parameters.properties?.nested, { type: "object", properties: { deep: { type: "number" } } });
    assert.deepEqual(messy.parameters.properties?.choice, { type: "string", enum: ["a", "b"] });
    // The dotted tool is still called by its raw name.
    const dotted = await call(toolset.handlers, "mcp__fx__tool_with_dots", {});
    assert.deepEqual(endOf(dotted.events).invocation, { server: "fx", tool: "tool.with.dots", arguments: {} });
    assert.equal(dotted.output.text, '[{"type":"text","text":"tool.with.dots ok"}]');
  });
});

void test("a server whose command does not exist fails with the reference's wording; the others carry on", async () => {
  await withManager({ bad: stdio([], { command: "/nonexistent/mcp-server-binary" }), fx: stdio() }, async ({ manager, events }) => {
    const toolset = await mcpToolset(manager);
    const failed = events.find((e) => e.type === "mcp_startup_update" && e.server === "bad" && e.status.state === "failed");
    assert.deepEqual(failed, {
      type: "mcp_startup_update",
      server: "bad",
      status: {
        state: "failed",
        error: "MCP client for `bad` failed to start: MCP startup failed: failed to spawn `/nonexistent/mcp-server-binary`: No such file or directory (os error 2)",
      },
    });
    const complete = events.at(-1);
    assert.ok(complete?.type === "mcp_startup_complete");
    assert.deepEqual(complete.ready, ["fx"]);
    assert.deepEqual(complete.failed.map((f) => f.server), ["bad"]);
    assert.equal(manager.status("bad"), "failed");
    await manager.waitForRequired(); // nobody is required
    assert.ok(names(toolset.toolSpecs).every((n) => n.startsWith("mcp__fx__")));
    const echo = await call(toolset.handlers, "mcp__fx__echo", { text: "still here" });
    assert.equal(echo.output.text, '[{"type":"text","text":"echo: still here"}]');
    // Calling the failed server says why.
    await assert.rejects(manager.callServerTool("bad", "echo", {}), (err: Error) => {
      assert.equal(err.message, "failed to get client");
      assert.match(String((err.cause as Error).message), /^MCP startup failed: failed to spawn/);
      return true;
    });
  });
});

void test("a required server that fails makes waitForRequired reject with every reason", async () => {
  await withManager(
    { bad: stdio([], { command: "/nonexistent/mcp-server-binary", required: true }), fx: stdio([], { required: true }) },
    async ({ manager }) => {
      await assert.rejects(manager.waitForRequired(), {
        message: "required MCP servers failed to initialize: bad: failed to spawn `/nonexistent/mcp-server-binary`: No such file or directory (os error 2)",
      });
    },
  );
});

void test("a slow server delays only its own tools; past startup_timeout_sec it fails with the timeout hint", async () => {
  await withManager(
    { fast: stdio(), slow: stdio(["--delay-init", "1500"]), stuck: stdio(["--delay-init", "5000"], { startup_timeout_sec: 1 }) },
    async ({ manager, events }) => {
      assert.equal(await manager.waitForServer("fast"), true);
      assert.equal(manager.status("slow"), "starting");
      const early = mcpToolsetSnapshot(manager);
      assert.ok(names(early.toolSpecs).length > 0);
      assert.ok(names(early.toolSpecs).every((n) => n.startsWith("mcp__fast__")));
      const echo = await call(early.handlers, "mcp__fast__echo", { text: "now" });
      assert.equal(echo.output.success, true);
      assert.equal(manager.status("slow"), "starting", "the fast call did not wait for the slow server");

      const all = await mcpToolset(manager);
      assert.ok(names(all.toolSpecs).includes("mcp__slow__echo"));
      assert.ok(!names(all.toolSpecs).some((n) => n.startsWith("mcp__stuck__")));
      assert.deepEqual(statuses(events, "stuck"), ["starting", "failed"]);
      const failed = events.find((e) => e.type === "mcp_startup_update" && e.server === "stuck" && e.status.state === "failed");
      assert.ok(failed?.type === "mcp_startup_update" && failed.status.state === "failed");
      assert.equal(
        failed.status.error,
        "MCP client for `stuck` timed out after 1 seconds. Add or adjust `startup_timeout_sec` in your config.toml:\n[mcp_servers.stuck]\nstartup_timeout_sec = XX",
      );
    },
  );
});

void test("shutting down while a server starts cancels it", async () => {
  const { manager, events } = start({ slow: stdio(["--delay-init", "5000"]) });
  await new Promise((resolve) => setTimeout(resolve, 200));
  await manager.shutdown();
  assert.equal(manager.status("slow"), "cancelled");
  assert.deepEqual(events.at(-1), { type: "mcp_startup_complete", ready: [], failed: [], cancelled: ["slow"] });
});

void test("a server name outside [a-zA-Z0-9_-] fails start-up", async () => {
  await withManager({ "bad.name": stdio() }, async ({ manager, events }) => {
    await manager.whenSettled();
    const failed = events.find((e) => e.type === "mcp_startup_update" && e.status.state === "failed");
    assert.ok(failed?.type === "mcp_startup_update" && failed.status.state === "failed");
    assert.equal(
      failed.status.error,
      "MCP client for `bad.name` failed to start: MCP startup failed: Invalid MCP server name 'bad.name': must match pattern ^[a-zA-Z0-9_-]+$",
    );
  });
});

void test("disabled servers are not started at all", async () => {
  await withManager({ off: stdio([], { enabled: false }) }, async ({ manager, events }) => {
    assert.equal(manager.hasServers, false);
    assert.deepEqual(events, []);
    const toolset = await mcpToolset(manager);
    assert.deepEqual(toolset, { resourceSpecs: [], toolSpecs: [], handlers: new Map() });
  });
});

// ---------------------------------------------------------------------------------------------
// Calls

void test("results reach the model as the reference converts them: text, structured, images, tool errors", async () => {
  await withManager({ fx: stdio() }, async ({ manager }) => {
    const { handlers } = await mcpToolset(manager);

    const echo = await call(handlers, "mcp__fx__echo", { text: "hi" });
    // PostToolUse hooks are told the server's result as it came (`tool_response`).
    assert.deepEqual(echo.output, { text: '[{"type":"text","text":"echo: hi"}]', success: true, ran: true, hookResponse: { content: [{ type: "text", text: "echo: hi" }] } });
    assert.equal(echo.events.length, 2);
    const [begin, end] = echo.events;
    assert.deepEqual(begin, { type: "mcp_tool_call_begin", call_id: end?.call_id, invocation: { server: "fx", tool: "echo", arguments: { text: "hi" } } });
    assert.ok(end?.type === "mcp_tool_call_end");
    assert.deepEqual(end.result, { Ok: { content: [{ type: "text", text: "echo: hi" }] } });
    assert.deepEqual(Object.keys(end.duration), ["secs", "nanos"]);

    const add = await call(handlers, "mcp__fx__add", { a: 2, b: 3 });
    assert.deepEqual(add.output, { text: '{"sum":5}', success: true, ran: true, hookResponse: { content: [{ type: "text", text: "sum is 5" }], structuredContent: { sum: 5 } } });
    assert.deepEqual(endOf(add.events).result, { Ok: { content: [{ type: "text", text: "sum is 5" }], structuredContent: { sum: 5 } } });

    const image = await call(handlers, "mcp__fx__image", "");
    assert.deepEqual(endOf(image.events).invocation.arguments, null);
    assert.deepEqual(image.output.contentItems, [
      { type: "input_text", text: "a tiny image" },
      { type: "input_image", image_url: `data:image/png;base64,${TINY_PNG_BASE64}`, detail: "high" },
    ]);
    assert.equal(image.output.text, "a tiny image");

    const fail = await call(handlers, "mcp__fx__fail", {});
    assert.deepEqual(fail.output, { text: '[{"type":"text","text":"it broke"}]', success: false, ran: true, hookResponse: { content: [{ type: "text", text: "it broke" }], isError: true } });
    assert.deepEqual(endOf(fail.events).result, { Ok: { content: [{ type: "text", text: "it broke" }], isError: true } });

    const badJson = await call(handlers, "mcp__fx__echo", "{not json");
    assert.equal(badJson.output.success, false);
    assert.match(badJson.output.text, /^\[\{"type":"text","text":"err: /);
    assert.deepEqual(badJson.events, [], "unparseable arguments never reach the server");
  });
});

void test("a model without image input gets a note instead of the image", async () => {
  await withManager({ fx: stdio() }, async ({ manager }) => {
    const { handlers } = await mcpToolset(manager, { supportsImages: () => false });
    const image = await call(handlers, "mcp__fx__image", {});
    assert.equal(image.output.contentItems, undefined);
    assert.equal(
      image.output.text,
      '[{"type":"text","text":"a tiny image"},{"type":"text","text":"<image content omitted because you do not support image input>"}]',
    );
  });
});

void test("tool_timeout_sec bounds each call; the model reads the reference's timeout error", async () => {
  await withManager({ fx: stdio([], { tool_timeout_sec: 0.3 }) }, async ({ manager }) => {
    const { handlers } = await mcpToolset(manager);
    const started = Date.now();
    const slow = await call(handlers, "mcp__fx__sleep", { ms: 3000 });
    assert.ok(Date.now() - started < 2500, "the call returned at the timeout, not when the tool finished");
    const message = "tool call error: tool call failed for `fx/sleep`\n\nCaused by:\n    timed out awaiting tools/call after 300ms";
    assert.deepEqual(slow.output, { text: JSON.stringify([{ type: "text", text: message }]), success: false });
    assert.deepEqual(endOf(slow.events).result, { Err: message });
    // The server is still usable afterwards.
    const quick = await call(handlers, "mcp__fx__sleep", { ms: 10 });
    assert.equal(quick.output.success, true);
  });
});

void test("enabled_tools then disabled_tools decide which tools are offered and callable", async () => {
  await withManager(
    {
      only: stdio([], { enabled_tools: ["echo", "add", "fail"], disabled_tools: ["fail"] }),
      most: stdio([], { disabled_tools: ["echo"] }),
    },
    async ({ manager }) => {
      const toolset = await mcpToolset(manager);
      const offered = names(toolset.toolSpecs);
      assert.deepEqual(offered.filter((n) => n.startsWith("mcp__only__")), ["mcp__only__add", "mcp__only__echo"]);
      assert.ok(!offered.includes("mcp__most__echo"));
      assert.ok(offered.includes("mcp__most__add"));
      await assert.rejects(manager.callServerTool("most", "echo", { text: "x" }), { message: "tool 'echo' is disabled for MCP server 'most'" });
    },
  );
});

void test("stdio servers get env, env_vars and cwd; nothing else leaks from our environment", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-mcp-cwd-")));
  const env = { ...process.env, PASSED_THROUGH: "yes", NOT_PASSED: "secret" };
  await withManager(
    { fx: stdio([], { env: { FROM_CONFIG: "cfg" }, env_vars: ["PASSED_THROUGH"], cwd: dir }) },
    async ({ manager }) => {
      const value = async (name: string): Promise<unknown> => {
        const result = await manager.callServerTool("fx", "env", { name });
        const block = result.content[0] as { text: string };
        return JSON.parse(block.text) as unknown;
      };
      assert.deepEqual(await value("FROM_CONFIG"), { value: "cfg", cwd: dir });
      assert.deepEqual(await value("PASSED_THROUGH"), { value: "yes", cwd: dir });
      assert.deepEqual(await value("NOT_PASSED"), { value: null, cwd: dir });
    },
    env,
  );
});

void test("approval: annotated tools that may change things go through the hook; read-only and full-access calls do not", async () => {
  const asked: McpApprovalRequest[] = [];
  let answer: McpApprovalDecision = "decline";
  const opts: McpToolOptions = {
    approve: (request) => {
      asked.push(request);
      return Promise.resolve(answer);
    },
  };
  await withManager({ fx: stdio() }, async ({ manager }) => {
    const { handlers } = await mcpToolset(manager, opts);
    const declined = await call(handlers, "mcp__fx__delete_everything", {}, ASKING_TURN);
    assert.deepEqual(declined.output, { text: '[{"type":"text","text":"user rejected MCP tool call"}]', success: false });
    assert.deepEqual(endOf(declined.events).result, { Err: "user rejected MCP tool call" });
    assert.deepEqual(endOf(declined.events).duration, { secs: 0, nanos: 0 });
    assert.equal(asked[0]?.question, 'Allow the fx MCP server to run tool "delete_everything"?');
    assert.deepEqual(asked[0]?.annotations, { destructiveHint: true });

    answer = "cancel";
    const cancelled = await call(handlers, "mcp__fx__delete_everything", {}, ASKING_TURN);
    assert.deepEqual(endOf(cancelled.events).result, { Err: "user cancelled MCP tool call" });

    answer = "accept_for_session";
    assert.equal((await call(handlers, "mcp__fx__delete_everything", {}, ASKING_TURN)).output.success, true);
    assert.equal((await call(handlers, "mcp__fx__delete_everything", {}, ASKING_TURN)).output.success, true);
    assert.equal(asked.length, 3, "the session-wide answer was remembered");

    await call(handlers, "mcp__fx__peek", {}, ASKING_TURN); // read-only
    await call(handlers, "mcp__fx__echo", {}, ASKING_TURN); // no annotations
    assert.equal(asked.length, 3);
  });
  // In full-access mode nothing is asked even for destructive tools.
  await withManager({ fx: stdio() }, async ({ manager }) => {
    const { handlers } = await mcpToolset(manager, opts);
    answer = "decline";
    assert.equal((await call(handlers, "mcp__fx__delete_everything", {}, FULL_ACCESS_TURN)).output.success, true);
    assert.equal(asked.length, 3);
  });
});

// ---------------------------------------------------------------------------------------------
// HTTP

void test("a streamable-HTTP server gets the bearer token from bearer_token_env_var and the configured headers", async () => {
  const fixture = await startHttpFixture({ requiredToken: "s3cret" });
  try {
    const env = { ...process.env, MCP_TEST_TOKEN: "s3cret", MCP_TEST_HEADER: "from-env" };
    const config = httpConfig(fixture.url, {
      bearer_token_env_var: "MCP_TEST_TOKEN",
      http_headers: { "X-Static": "static" },
      env_http_headers: { "X-From-Env": "MCP_TEST_HEADER" },
    });
    await withManager(
      { web: config },
      async ({ manager, events }) => {
        const { handlers, toolSpecs } = await mcpToolset(manager);
        assert.deepEqual(statuses(events, "web"), ["starting", "ready"]);
        assert.ok(names(toolSpecs).includes("mcp__web__whoami"));
        const who = await call(handlers, "mcp__web__whoami", {});
        assert.equal(who.output.text, '[{"type":"text","text":"Bearer s3cret"}]');
        assert.ok(fixture.authorizations.length >= 3);
        assert.ok(fixture.authorizations.every((a) => a === "Bearer s3cret"), JSON.stringify(fixture.authorizations));
        assert.ok(fixture.headers.every((h) => h["x-static"] === "static" && h["x-from-env"] === "from-env"));
      },
      env,
    );
  } finally {
    await fixture.close();
  }
});

void test("HTTP start-up failures: a missing token variable, and a server that wants a login", async () => {
  const fixture = await startHttpFixture({ requiredToken: "s3cret" });
  try {
    const env = { ...process.env };
    delete env.MCP_TEST_MISSING;
    await withManager(
      { notoken: httpConfig(fixture.url, { bearer_token_env_var: "MCP_TEST_MISSING" }), login: httpConfig(fixture.url) },
      async ({ manager, events }) => {
        await manager.whenSettled();
        const error = (server: string): string | undefined => {
          const e = events.find((x) => x.type === "mcp_startup_update" && x.server === server && x.status.state === "failed");
          return e?.type === "mcp_startup_update" && e.status.state === "failed" ? e.status.error : undefined;
        };
        assert.equal(
          error("notoken"),
          "MCP client for `notoken` failed to start: MCP startup failed: Environment variable MCP_TEST_MISSING for MCP server 'notoken' is not set",
        );
        assert.equal(error("login"), "The login MCP server is not logged in. Run `codex-ts mcp login login`.");
      },
      env,
    );
  } finally {
    await fixture.close();
  }
});

// ---------------------------------------------------------------------------------------------
// Resources (server-everything)

void test("resource tools against server-everything and the fixture: list, templates, read, in the reference's JSON shapes", async () => {
  await withManager({ everything: everything(), fx: stdio(["--name", "fx"]) }, async ({ manager }) => {
    const { handlers } = await mcpToolset(manager);

    const one = await call(handlers, "list_mcp_resources", { server: "everything" });
    const listed = JSON.parse(one.output.text) as { server: string; resources: Array<{ server: string; uri: string; name: string }>; nextCursor?: string };
    assert.equal(listed.server, "everything");
    assert.ok(listed.resources.length > 0);
    assert.ok(listed.resources.every((r) => r.server === "everything"));
    const doc = listed.resources.find((r) => r.uri.startsWith("demo://resource/static/document/"));
    assert.ok(doc, one.output.text.slice(0, 500));
    assert.deepEqual(endOf(one.events).invocation, { server: "everything", tool: "list_mcp_resources", arguments: { server: "everything" } });
    assert.deepEqual(endOf(one.events).result, { Ok: { content: [{ type: "text", text: one.output.text }], isError: false } });

    const all = await call(handlers, "list_mcp_resources", {});
    const aggregated = JSON.parse(all.output.text) as { server?: string; resources: Array<{ server: string; uri: string }> };
    assert.equal(aggregated.server, undefined);
    const servers = aggregated.resources.map((r) => r.server);
    assert.deepEqual([...new Set(servers)], ["everything", "fx"], "servers in name order");
    assert.ok(aggregated.resources.some((r) => r.uri === "fixture://fx/greeting"));
    assert.equal(endOf(all.events).invocation.server, "codex");

    const templates = await call(handlers, "list_mcp_resource_templates", { server: "everything" });
    const t = JSON.parse(templates.output.text) as { resourceTemplates: Array<{ server: string; uriTemplate: string }> };
    assert.ok(t.resourceTemplates.some((x) => x.uriTemplate === "demo://resource/dynamic/text/{resourceId}"), templates.output.text);
    const allTemplates = JSON.parse((await call(handlers, "list_mcp_resource_templates", "")).output.text) as { resourceTemplates: Array<{ server: string }> };
    assert.ok(allTemplates.resourceTemplates.some((x) => x.server === "fx"));

    const read = await call(handlers, "read_mcp_resource", { server: "everything", uri: doc.uri });
    const content = JSON.parse(read.output.text) as { server: string; uri: string; contents: Array<{ uri: string; text?: string; mimeType?: string }> };
    assert.deepEqual(Object.keys(content), ["server", "uri", "contents"]);
    assert.equal(content.server, "everything");
    assert.equal(content.uri, doc.uri);
    assert.ok((content.contents[0]?.text ?? "").length > 0);

    const dynamic = JSON.parse((await call(handlers, "read_mcp_resource", { server: "everything", uri: "demo://resource/dynamic/text/7" })).output.text) as {
      contents: Array<{ text: string }>;
    };
    assert.match(dynamic.contents[0]?.text ?? "", /^Resource 7: /);

    const fx = JSON.parse((await call(handlers, "read_mcp_resource", { server: "fx", uri: "fixture://fx/greeting" })).output.text) as unknown;
    assert.deepEqual(fx, { server: "fx", uri: "fixture://fx/greeting", contents: [{ uri: "fixture://fx/greeting", mimeType: "text/plain", text: "hello from fx" }] });
  });
});

void test("resource tools explain bad requests to the model", async () => {
  await withManager({ fx: stdio() }, async ({ manager }) => {
    const { handlers } = await mcpToolset(manager);
    const cursorOnly = await call(handlers, "list_mcp_resources", { cursor: "abc" });
    assert.deepEqual(cursorOnly.output, { text: "cursor can only be used when a server is specified", success: false });
    assert.deepEqual(cursorOnly.events, []);

    const unknown = await call(handlers, "list_mcp_resources", { server: "nope" });
    assert.deepEqual(unknown.output, { text: "resources/list failed: unknown MCP server 'nope'", success: false });
    assert.deepEqual(endOf(unknown.events).result, { Err: "resources/list failed: unknown MCP server 'nope'" });

    assert.deepEqual((await call(handlers, "read_mcp_resource", { server: "fx", uri: "  " })).output, { text: "uri must be provided", success: false });
    assert.deepEqual((await call(handlers, "read_mcp_resource", { server: "fx" })).output, {
      text: "failed to parse function arguments: missing field `uri`",
      success: false,
    });
    const parse = await call(handlers, "list_mcp_resources", "{oops");
    assert.match(parse.output.text, /^failed to parse function arguments: /);
  });
});

void test("withMcpToolSpecs puts the resource tools after the command tools and the server tools last", async () => {
  await withManager({ fx: stdio() }, async ({ manager }) => {
    const toolset = await mcpToolset(manager);
    const fn = (name: string): ToolSpec => ({ type: "function", name, description: "", strict: false, parameters: { type: "object" } });
    const merged = withMcpToolSpecs([fn("exec_command"), fn("write_stdin"), fn("update_plan"), fn("view_image")], toolset, null);
    const order = names(merged);
    assert.deepEqual(order.slice(0, 7), [
      "exec_command",
      "write_stdin",
      "list_mcp_resources",
      "list_mcp_resource_templates",
      "read_mcp_resource",
      "update_plan",
      "view_image",
    ]);
    assert.deepEqual(order.slice(7), names(toolset.toolSpecs));
  });
});
