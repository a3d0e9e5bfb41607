import { test } from "node:test";
import assert from "node:assert/strict";
import { mcpListLines, serverNeedingLogin } from "./mcp-view.js";

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
