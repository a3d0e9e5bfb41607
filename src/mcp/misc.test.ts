/** Small pure pieces: start-up hints, approval rules, error chains, exec items, durations. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { NO_OAUTH_SETTINGS, type McpHttpServer, type McpStdioServer } from "../config/mcp.js";
import { isFullAccessMode, requiresMcpToolApproval } from "../approval/mcp-tool-approval.js";
import { httpServerHeaders, stdioServerEnv } from "./connection.js";
import { chainDebug, chainText, withContext } from "./errors.js";
import { eventDuration } from "./events.js";
import { McpItemMapper } from "../presentation/mcp-items.js";
import { McpStartupError, startupFailureDisplay } from "./startup-errors.js";
import { formatDuration } from "./time.js";

const COMMON = { enabled: true, required: false, startup_timeout_sec: 10, tool_timeout_sec: 60, enabled_tools: null, disabled_tools: [] };
const OAUTH = NO_OAUTH_SETTINGS;
const stdio: McpStdioServer = { ...COMMON, transport: "stdio", command: "x", args: [], env: { A: "from-config" }, env_vars: ["EXTRA"], cwd: null };
const httpServer = (over: Partial<McpHttpServer> = {}): McpHttpServer => ({
  ...COMMON,
  ...OAUTH,
  transport: "streamable_http",
  url: "https://example.com/mcp",
  bearer_token_env_var: null,
  http_headers: {},
  env_http_headers: {},
  scopes: [],
  ...over,
});

void test("start-up failure texts carry the reference's hints", () => {
  assert.equal(
    startupFailureDisplay("slow", { ...stdio, startup_timeout_sec: 10 }, new McpStartupError("timed out handshaking with MCP server after 10s", "timeout")),
    "MCP client for `slow` timed out after 10 seconds. Add or adjust `startup_timeout_sec` in your config.toml:\n[mcp_servers.slow]\nstartup_timeout_sec = XX",
  );
  assert.equal(
    startupFailureDisplay("custom", stdio, new McpStartupError("boom")),
    "MCP client for `custom` failed to start: MCP startup failed: boom",
  );
  assert.equal(
    startupFailureDisplay("example", httpServer(), new McpStartupError("401", "auth")),
    "The example MCP server is not logged in. Run `codex-ts mcp login example`.",
  );
  assert.match(
    startupFailureDisplay("github", httpServer({ url: "https://api.githubcopilot.com/mcp/" }), new McpStartupError("x")),
    /^GitHub MCP does not support OAuth\. .*\n\[mcp_servers\.github\]\nbearer_token_env_var = CODEX_GITHUB_PERSONAL_ACCESS_TOKEN$/,
  );
});

void test("approval is needed for destructive tools, not read-only ones, and by default when hints are unset", () => {
  assert.equal(requiresMcpToolApproval({ destructiveHint: true, readOnlyHint: true }), true);
  assert.equal(requiresMcpToolApproval({ readOnlyHint: true }), false);
  assert.equal(requiresMcpToolApproval({}), true);
  assert.equal(requiresMcpToolApproval({ destructiveHint: false }), true); // open world unset
  assert.equal(requiresMcpToolApproval({ destructiveHint: false, openWorldHint: false }), false);
  assert.equal(isFullAccessMode("never", { type: "danger-full-access" }), true);
  assert.equal(isFullAccessMode("on-request", { type: "danger-full-access" }), false);
  assert.equal(isFullAccessMode("never", { type: "read-only" }), false);
});

void test("error chains print on one line or in the reference's debug form", () => {
  const err = withContext("tool call failed for `s/t`", new Error("timed out awaiting tools/call after 1s"));
  assert.equal(chainText(err), "tool call failed for `s/t`: timed out awaiting tools/call after 1s");
  assert.equal(chainDebug(err), "tool call failed for `s/t`\n\nCaused by:\n    timed out awaiting tools/call after 1s");
  const deep = withContext("a", withContext("b", new Error("c")));
  assert.equal(chainDebug(deep), "a\n\nCaused by:\n    0: b\n    1: c");
  assert.equal(chainDebug(new Error("plain")), "plain");
});

void test("durations print like Rust's Debug and serialize like serde's Duration", () => {
  assert.equal(formatDuration(10_000), "10s");
  assert.equal(formatDuration(1_500), "1.5s");
  assert.equal(formatDuration(300), "300ms");
  assert.deepEqual(eventDuration(1234.5), { secs: 1, nanos: 234_500_000 });
});

void test("a stdio server gets the basic variables, the named ones, then env", () => {
  const env = stdioServerEnv(stdio, { PATH: "/bin", HOME: "/h", EXTRA: "e", SECRET: "no", A: "from-parent" });
  assert.deepEqual(env, { HOME: "/h", PATH: "/bin", EXTRA: "e", A: "from-config" });
});

void test("HTTP headers: static, then from the environment (blank skipped), then the bearer token", () => {
  const config = httpServer({ http_headers: { "X-Static": "1" }, env_http_headers: { "X-Env": "HDR", "X-Blank": "BLANK", "X-Unset": "NOPE" }, bearer_token_env_var: "TOKEN" });
  assert.deepEqual(httpServerHeaders("h", config, { HDR: "v", BLANK: "  ", TOKEN: "t0k" }), { "X-Static": "1", "X-Env": "v", Authorization: "Bearer t0k" });
  assert.throws(() => httpServerHeaders("h", config, {}), /^McpStartupError: Environment variable TOKEN for MCP server 'h' is not set$/);
  assert.throws(() => httpServerHeaders("h", config, { TOKEN: "" }), /Environment variable TOKEN for MCP server 'h' is empty/);
});

void test("exec items: begin opens an in-progress item, end completes the same id", () => {
  let n = 0;
  const mapper = new McpItemMapper(() => `item_${n++}`);
  const invocation = { server: "s", tool: "t", arguments: { a: 1 } };
  assert.deepEqual(mapper.map({ type: "mcp_tool_call_begin", call_id: "c1", invocation }), {
    type: "item.started",
    item: { id: "item_0", type: "mcp_tool_call", server: "s", tool: "t", arguments: { a: 1 }, result: null, error: null, status: "in_progress" },
  });
  const duration = { secs: 0, nanos: 5 };
  assert.deepEqual(mapper.map({ type: "mcp_tool_call_end", call_id: "c1", invocation, duration, result: { Ok: { content: [{ type: "text", text: "x" }] } } }).item, {
    id: "item_0",
    type: "mcp_tool_call",
    server: "s",
    tool: "t",
    arguments: { a: 1 },
    result: { content: [{ type: "text", text: "x" }], structured_content: null },
    error: null,
    status: "completed",
  });
  mapper.map({ type: "mcp_tool_call_begin", call_id: "c2", invocation });
  const failed = mapper.map({ type: "mcp_tool_call_end", call_id: "c2", invocation, duration, result: { Err: "boom" } }).item;
  assert.deepEqual([failed.id, failed.status, failed.result, failed.error], ["item_1", "failed", null, { message: "boom" }]);
  mapper.map({ type: "mcp_tool_call_begin", call_id: "c3", invocation });
  const toolError = mapper.map({ type: "mcp_tool_call_end", call_id: "c3", invocation, duration, result: { Ok: { content: [], isError: true } } }).item;
  assert.deepEqual([toolError.status, toolError.result], ["failed", { content: [], structured_content: null }]);
});
