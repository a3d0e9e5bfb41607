/**
 * Interactive MCP sign-in inside a session (the API a front end such as the TUI uses): the real
 * core with `mcpSignIn`, against the OAuth-protected test server (test/support/oauth-server.ts).
 * The handler plays the user's browser: it GETs the authorization URL, whose redirect lands on
 * the callback server the login started. Covered: a first sign-in at start-up, a step-up in the
 * middle of a tool call followed by a restart and the retried call, a declined sign-in, and the
 * `restart_mcp_server` op.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { NO_OAUTH_SETTINGS, type McpHttpServer } from "../../src/config/mcp.js";
import type { McpSignInRequest } from "../../src/mcp/sign-in.js";
import { callbackId } from "../../src/mcp/oauth/redirect.js";
import type { Event } from "../../src/protocol/events.js";
import { stdioFixtureServer } from "../fixtures/mcp/stdio-server.js";
import { fnCall, text, turn, type ModelServer } from "../support/model-server.js";
import { startOAuthFixture } from "../support/oauth-server.js";
import { until, withSession } from "../support/session.js";

function remote(url: string): McpHttpServer {
  return {
    ...NO_OAUTH_SETTINGS,
    oauth_credentials_store: "file",
    enabled: true,
    required: false,
    startup_timeout_sec: 20,
    tool_timeout_sec: 20,
    enabled_tools: null,
    disabled_tools: [],
    transport: "streamable_http",
    url,
    bearer_token_env_var: null,
    http_headers: {},
    env_http_headers: {},
    scopes: [],
  };
}

/** A sign-in handler that "opens" the URL by fetching it (the redirect reaches the callback server), and remembers each request. */
function browserHandler(requests: McpSignInRequest[], answer = true): (request: McpSignInRequest) => Promise<boolean> {
  return async (request) => {
    requests.push(request);
    if (answer) void fetch(request.url).then((r) => r.text());
    return answer;
  };
}

function outputOf(server: ModelServer, callId: string): string {
  for (const request of server.requests) {
    const item = (request.body.input ?? []).find((i) => i.type === "function_call_output" && i.call_id === callId);
    if (item) return typeof item.output === "string" ? item.output : JSON.stringify(item.output);
  }
  assert.fail(`no output for ${callId}`);
}

const startup = (events: Event[]): unknown[] => events.filter((e) => e.id === "" && e.msg.type.startsWith("mcp_startup")).map((e) => e.msg);

void test("a session with a sign-in handler signs in at start-up, and steps up mid-call: sign-in, restart, the call again", async () => {
  const fx = await startOAuthFixture();
  process.env.CODEX_HOME = mkdtempSync(join(tmpdir(), "codex-ts-signin-"));
  const requests: McpSignInRequest[] = [];
  try {
    fx.scopedTools = { add: "mcp:write" };
    await withSession(
      [turn(fnCall("mcp__remote__whoami", {}, "w"), fnCall("mcp__remote__add", { a: 2, b: 3 }, "a")), turn(text("done"))],
      async (session, server) => {
        const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "go" }] });
        const events = await until(session, id, "task_complete");
        // First sign-in at start-up: no extra scopes; the redirect comes back to this server's own path.
        assert.equal(requests[0]?.server, "remote");
        assert.deepEqual(requests[0]?.scopes, []);
        const first = new URL(requests[0]?.url ?? "");
        assert.match(first.searchParams.get("redirect_uri") ?? "", new RegExp(`^http://127\\.0\\.0\\.1:\\d+/callback/${callbackId(fx.url)}$`));
        assert.equal(first.searchParams.get("scope"), "mcp:read");
        assert.match(outputOf(server, "w"), /client-/);
        // The step-up: a second sign-in for the wider scope, then the same call succeeds.
        assert.equal(requests.length, 2);
        assert.ok(requests[1]?.scopes.includes("mcp:write"), JSON.stringify(requests[1]?.scopes));
        assert.match(new URL(requests[1]?.url ?? "").searchParams.get("scope") ?? "", /mcp:write/);
        assert.match(outputOf(server, "a"), /5/);
        assert.doesNotMatch(outputOf(server, "a"), /needs more access|failed/);
        // Start-up, then the restart after the step-up, as start-up events.
        assert.deepEqual(startup(events), [
          { type: "mcp_startup_update", server: "remote", status: { state: "starting" } },
          { type: "mcp_startup_update", server: "remote", status: { state: "ready" } },
          { type: "mcp_startup_complete", ready: ["remote"], failed: [], cancelled: [] },
          { type: "mcp_startup_update", server: "remote", status: { state: "starting" } },
          { type: "mcp_startup_update", server: "remote", status: { state: "ready" } },
          { type: "mcp_startup_complete", ready: ["remote"], failed: [], cancelled: [] },
        ]);
        // No token in any event.
        const all = JSON.stringify(events);
        for (const token of fx.issued) assert.ok(!all.includes(token), "a token leaked into the events");
      },
      { mcpServers: { remote: remote(fx.url) }, mcpSignIn: browserHandler(requests) },
    );
  } finally {
    await fx.close();
  }
});

void test("a declined sign-in fails the server's start with the login hint, and no token is asked for", async () => {
  const fx = await startOAuthFixture();
  process.env.CODEX_HOME = mkdtempSync(join(tmpdir(), "codex-ts-signin-"));
  const requests: McpSignInRequest[] = [];
  try {
    await withSession(
      [turn(text("no tools"))],
      async (session) => {
        const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "go" }] });
        const events = await until(session, id, "task_complete");
        assert.equal(requests.length, 1);
        const failed = startup(events).find((m) => (m as { status?: { state: string } }).status?.state === "failed") as { status: { error: string } } | undefined;
        assert.match(failed?.status.error ?? "", /Run `codex-ts mcp login remote`/);
        assert.equal(fx.tokenRequests.length, 0);
      },
      { mcpServers: { remote: remote(fx.url) }, mcpSignIn: browserHandler(requests, false) },
    );
  } finally {
    await fx.close();
  }
});

void test("restart_mcp_server restarts one server with start-up events; an unknown name is an error", async () => {
  const fx = stdioFixtureServer(["--name", "fx"]);
  await withSession(
    [turn(fnCall("mcp__fx__echo", { text: "first" }, "e1")), turn(text("one")), turn(fnCall("mcp__fx__echo", { text: "again" }, "e2")), turn(text("two"))],
    async (session, server) => {
      const first = session.submit({ type: "user_turn", items: [{ type: "text", text: "one" }] });
      const seen = await until(session, first, "task_complete");
      const restart = session.submit({ type: "restart_mcp_server", server: "fx" });
      const second = session.submit({ type: "user_turn", items: [{ type: "text", text: "two" }] });
      const events = await until(session, second, "task_complete", []);
      assert.deepEqual(startup(events), [
        { type: "mcp_startup_update", server: "fx", status: { state: "starting" } },
        { type: "mcp_startup_update", server: "fx", status: { state: "ready" } },
        { type: "mcp_startup_complete", ready: ["fx"], failed: [], cancelled: [] },
      ]);
      assert.match(outputOf(server, "e1"), /first/);
      assert.match(outputOf(server, "e2"), /again/);
      assert.ok(restart !== second && seen.length > 0);
      const bad = session.submit({ type: "restart_mcp_server", server: "nope" });
      const err = await until(session, bad, "error");
      assert.deepEqual(err.at(-1)?.msg, { type: "error", message: "unknown MCP server 'nope'", codex_error_info: "other" });
    },
    { mcpServers: { fx } },
  );
});
