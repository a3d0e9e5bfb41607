import { test } from "node:test";
import assert from "node:assert/strict";
import type { McpStdioServer } from "../config/mcp.js";
import { mcpListLines, runMcpLogin, serverNeedingLogin } from "./mcp-view.js";

const answer = {
  type: "mcp_list_tools_response" as const,
  tools: {
    "mcp__my_docs__search": { name: "search", inputSchema: {} },
    "mcp__my_docs__fetch": { name: "fetch", inputSchema: {} },
    mcp__a_very_long_name_shortened_0123456789abcdef: { name: "long", inputSchema: {} },
  },
  resources: { "my.docs": [{ uri: "doc://1" }, { uri: "doc://2" }] },
  resource_templates: { "my.docs": [{ uriTemplate: "doc://{id}" }] },
  auth_statuses: { "my.docs": "o_auth" as const, idle: "bearer_token" as const },
};

void test("/mcp: a block per server (state, auth, tools, resources); tools of sanitised names find their server", () => {
  const lines = mcpListLines(new Map([["my.docs", "ready"], ["idle", "ready"], ["off", "failed: MCP client for `off` failed to start: boom"]]), answer);
  assert.deepEqual(lines, [
    "my.docs: ready · auth: OAuth",
    "  tools: fetch, search",
    "  resources: 2, templates: 1",
    "idle: ready · auth: bearer token",
    "  no tools",
    "off: failed",
    "  MCP client for `off` failed to start: boom",
    "other tools: mcp__a_very_long_name_shortened_0123456789abcdef",
  ]);
  assert.deepEqual(mcpListLines(new Map(), answer), ["no MCP servers configured (see `codex-ts mcp add`)"]);
});

void test("the login hint names the server; other failures name none", () => {
  assert.equal(serverNeedingLogin("The remote MCP server is not logged in. Run `codex-ts mcp login remote`."), "remote");
  assert.equal(serverNeedingLogin("MCP server 'x' needs more access (scopes: a b). Run `codex-ts mcp login x --scopes a,b`."), "x");
  assert.equal(serverNeedingLogin("MCP client for `x` timed out after 10 seconds."), null);
});

void test("/mcp login: an unknown server and a stdio server are refused with a reason", async () => {
  const stdio: McpStdioServer = { enabled: true, required: false, startup_timeout_sec: 10, tool_timeout_sec: 60, enabled_tools: null, disabled_tools: [], transport: "stdio", command: "x", args: [], env: {}, env_vars: [], cwd: null };
  const errors: string[] = [];
  const view = { print: () => assert.fail("nothing to print"), error: (m: string) => void errors.push(m) };
  await runMcpLogin("nope", { local: stdio }, {}, view);
  await runMcpLogin("local", { local: stdio }, {}, view);
  assert.deepEqual(errors, ["No MCP server named nope in config.toml (configured: local).", "local is a stdio server: it has no login; its credentials come from its command and env."]);
});
