/**
 * The client the MCP conformance suite (`@modelcontextprotocol/conformance client`) runs once per
 * scenario: `node client-driver.js <server-url>`, with the scenario's name in
 * MCP_CONFORMANCE_SCENARIO and, for some, data in MCP_CONFORMANCE_CONTEXT (a pre-registered
 * client's id and secret).
 *
 * It is our real client: `McpServerConnection` (initialize, tools/list, tools/call, elicitation
 * with form defaults, SSE resumption) and, for the auth scenarios, our OAuth provider and fetch
 * with the credentials file in a throw-away CODEX_HOME. The suite's authorization servers approve
 * at once, so the browser step is a plain GET of the authorization URL whose redirect carries
 * the code; the driver reads it from the Location header instead of following it.
 *
 * After connecting it calls every tool the server lists, with arguments made up from each input
 * schema, and accepts every elicitation without filling anything in (so the form's defaults
 * apply). It exits 0 when all of that worked, 1 otherwise.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NO_OAUTH_SETTINGS, type McpHttpServer } from "../../src/config/mcp.js";
import { McpServerConnection } from "../../src/mcp/connection.js";

const REDIRECT_URL = "http://127.0.0.1/callback";
/** The client ID metadata document the suite's CIMD scenario expects a client to name. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

interface ConformanceContext {
  client_id?: string;
  client_secret?: string;
}

function context(): ConformanceContext {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return {};
  try {
    return JSON.parse(raw) as ConformanceContext;
  } catch {
    return {};
  }
}

/** The "browser": the authorization server approves at once and redirects to us with the code. */
async function approve(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  const back = new URL(location, url);
  const error = back.searchParams.get("error");
  if (error) throw new Error(`the authorization server refused: ${error} ${back.searchParams.get("error_description") ?? ""}`.trim());
  const code = back.searchParams.get("code");
  if (!code) throw new Error("the redirect carried no code");
  const state = url.searchParams.get("state");
  if (state !== null && back.searchParams.get("state") !== state) throw new Error("the redirect's state does not match the request's");
  return code;
}

/** A value of the right type for each required property (numbers 1, strings "x", …). */
function sampleArguments(schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof schema !== "object" || schema === null) return out;
  const { properties, required } = schema as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  if (!properties) return out;
  const wanted = Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : [];
  for (const name of wanted) {
    const type = properties[name]?.type;
    out[name] = type === "number" || type === "integer" ? 1 : type === "boolean" ? true : type === "array" ? [] : type === "object" ? {} : "x";
  }
  return out;
}

async function main(): Promise<number> {
  const serverUrl = process.argv[2];
  if (!serverUrl) {
    process.stderr.write("usage: client-driver <server-url>\n");
    return 2;
  }
  const home = mkdtempSync(join(tmpdir(), "codex-ts-conformance-"));
  const ctx = context();
  const config: McpHttpServer = {
    ...NO_OAUTH_SETTINGS,
    enabled: true,
    required: true,
    startup_timeout_sec: 20,
    tool_timeout_sec: 20,
    enabled_tools: null,
    disabled_tools: [],
    transport: "streamable_http",
    url: serverUrl,
    bearer_token_env_var: null,
    http_headers: {},
    env_http_headers: {},
    scopes: [],
    oauth_credentials_store: "file",
    oauth_client_metadata_url: CLIENT_METADATA_URL,
    oauth: { client_id: ctx.client_id ?? null, client_secret: ctx.client_secret ?? null, token_endpoint_auth_method: null, callback_url: null },
  };
  const controller = new AbortController();
  let connection: McpServerConnection | undefined;
  try {
    connection = await McpServerConnection.connect("conformance", config, {
      cwd: process.cwd(),
      env: { ...process.env, CODEX_HOME: home },
      clientVersion: "0.0.0",
      signal: controller.signal,
      onElicitation: () => Promise.resolve({ action: "accept", content: {} }),
      oauth: { authorize: approve, redirectUrl: REDIRECT_URL },
    });
    for (const tool of connection.tools) {
      const result = await connection.callTool(tool.name, sampleArguments(tool.inputSchema));
      process.stdout.write(`${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}\n`);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`conformance client failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await connection?.close();
    rmSync(home, { recursive: true, force: true });
  }
}

process.exitCode = await main();
