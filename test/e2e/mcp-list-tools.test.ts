/**
 * `list_mcp_tools` through the core's seam: once start-up settles, the answer carries the ready
 * servers' tools by qualified name, their resources, and every enabled server's auth status (a
 * stdio server: unsupported; an OAuth server nobody signed in to: not_logged_in).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NO_OAUTH_SETTINGS, type McpHttpServer, type McpStdioServer } from "../../src/config/mcp.js";
import { until, withSession } from "../support/session.js";
import { STDIO_SERVER_PATH } from "../fixtures/mcp/stdio-server.js";
import { FX_QUALIFIED_TOOL_NAMES } from "../fixtures/mcp/fixture-server.js";
import { startOAuthFixture } from "../support/oauth-server.js";

const COMMON = { enabled: true, required: false, startup_timeout_sec: 10, tool_timeout_sec: 60, enabled_tools: null, disabled_tools: [] };

void test("list_mcp_tools: the ready servers' tools by qualified name, and each server's auth status", async () => {
  const fx: McpStdioServer = { ...COMMON, transport: "stdio", command: process.execPath, args: [STDIO_SERVER_PATH, "--name", "fx"], env: {}, env_vars: [], cwd: null };
  const oauth = await startOAuthFixture();
  const remote: McpHttpServer = { ...COMMON, ...NO_OAUTH_SETTINGS, transport: "streamable_http", url: oauth.url, bearer_token_env_var: null, http_headers: {}, env_http_headers: {}, scopes: [] };
  // No tokens anywhere: the credentials store is a fresh folder.
  const previous = process.env.CODEX_HOME;
  process.env.CODEX_HOME = mkdtempSync(join(tmpdir(), "codex-ts-mcp-list-"));
  try {
    await withSession(
      [],
      async (session) => {
        const id = session.submit({ type: "list_mcp_tools" });
        const events = await until(session, id, "mcp_list_tools_response");
        const answer = events.at(-1)?.msg;
        assert.ok(answer?.type === "mcp_list_tools_response");
        assert.deepEqual(Object.keys(answer.tools).sort(), [...FX_QUALIFIED_TOOL_NAMES].sort());
        assert.equal(answer.tools["mcp__fx__echo"]?.name, "echo");
        assert.ok(answer.tools["mcp__fx__echo"]?.inputSchema, "the definition is the server's");
        assert.deepEqual(answer.auth_statuses, { fx: "unsupported", remote: "not_logged_in" });
        assert.ok(Array.isArray(answer.resources.fx), "the ready server's resources are listed");
        assert.equal(answer.resources.remote, undefined, "a server that did not start has none");
      },
      { mcpServers: { fx, remote } },
    );
  } finally {
    if (previous === undefined) delete process.env.CODEX_HOME;
    else process.env.CODEX_HOME = previous;
    await oauth.close();
  }
});
