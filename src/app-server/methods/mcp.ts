/**
 * MCP servers over the app-server: `mcpServerStatus/list` (every configured server: its
 * handshake, tools, resources, auth status and, for a thread's servers, their state) and
 * `mcpServer/oauth/login` (the browser sign-in of an HTTP server: the response carries the URL
 * for the client to open, `mcpServer/oauthLogin/completed` tells how it ended, and the thread
 * named starts the server again with the new tokens).
 *
 * `config/mcpServer/reload` has the loaded threads read their servers from the config again;
 * `mcpServer/resource/read` and `mcpServer/tool/call` go to a loaded thread's servers.
 *
 * With a `threadId` the thread's running servers answer (the `list_mcp_tools` op); without one
 * the servers of the server's config are started just long enough to list them, as the
 * reference does.
 */
import { randomUUID } from "node:crypto";
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import type { Config } from "../../config/load-config.js";
import { mcpInventory } from "../../host/mcp-inventory.js";
import { loginMcpServer, type ClientRegistration } from "../../host/mcp-auth.js";
import type { McpAuthStatus, McpListToolsResponse, McpServerDetail } from "../../protocol/mcp-events.js";
import type { LiveThread } from "../live-thread.js";
import type { Params } from "../params.js";
import type { AppServer, Method } from "../server.js";

type V2AuthStatus = "unknown" | "unsupported" | "notLoggedIn" | "bearerToken" | "oAuth";
type V2RuntimeStatus = "notStarted" | "starting" | "connected" | "authenticationRequired" | "failed" | "cancelled" | "disabled";

const AUTH_STATUS: Record<McpAuthStatus, V2AuthStatus> = { unsupported: "unsupported", not_logged_in: "notLoggedIn", bearer_token: "bearerToken", o_auth: "oAuth" };

function runtimeStatus(detail: McpServerDetail): V2RuntimeStatus {
  switch (detail.status) {
    case "ready":
      return "connected";
    case "failed":
      return detail.auth_required ? "authenticationRequired" : "failed";
    case "not_started":
      return "notStarted";
    default:
      return detail.status;
  }
}

function httpOrigin(config: Config, name: string): string | null {
  const server = config.mcpServers[name];
  if (server?.transport !== "streamable_http") return null;
  try {
    return new URL(server.url).origin;
  } catch {
    return null;
  }
}

/** One server as the reference's `McpServerStatus` shows it. */
function serverStatus(snapshot: McpListToolsResponse, detail: McpServerDetail, config: Config, opts: { fromThread: boolean; full: boolean }): object {
  const origin = httpOrigin(config, detail.name);
  const info = detail.server_info;
  return {
    name: detail.name,
    runtimeStatus: opts.fromThread ? runtimeStatus(detail) : null,
    pluginId: null,
    httpOrigin: origin,
    serverInfo: info && { name: info.name, title: info.title ?? null, version: info.version, description: info.description ?? null, icons: info.icons ?? null, websiteUrl: info.websiteUrl ?? null },
    serverCapabilities: detail.capabilities,
    toolListMeta: null,
    tools: Object.fromEntries(detail.tools.map((tool) => [tool.name, tool])),
    toolsError: detail.error === null ? null : `MCP startup failed: ${detail.error}`,
    resources: opts.full ? (snapshot.resources[detail.name] ?? []) : [],
    resourceTemplates: opts.full ? (snapshot.resource_templates[detail.name] ?? []) : [],
    authStatus: AUTH_STATUS[snapshot.auth_statuses[detail.name] as McpAuthStatus] ?? (origin === null ? "unsupported" : "unknown"),
  };
}

/** The thread a request names (loaded), or none. */
function namedThread(server: AppServer, params: Params): LiveThread | null {
  const threadId = params.optionalString("threadId");
  return threadId === undefined ? null : server.requireThread(threadId);
}

const statusList: Method = async ({ server }, params) => {
  const live = namedThread(server, params);
  const only = params.optionalString("serverName");
  const full = (params.optionalEnum("detail", ["full", "toolsAndAuthOnly"]) ?? "full") === "full";
  const limit = params.optionalInteger("limit", 1);
  const cursor = params.optionalString("cursor");
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start) || start < 0) throw invalidRequest(`Invalid request: invalid cursor ${JSON.stringify(cursor)}`);
  const cwd = live?.cwd ?? process.cwd();
  const config = server.loadConfig({ cwd });
  let snapshot: McpListToolsResponse;
  if (live) {
    snapshot = await live.request({ type: "list_mcp_tools" }, (msg) => (msg.type === "mcp_list_tools_response" ? msg : undefined));
  } else {
    const servers = only === undefined ? config.mcpServers : Object.fromEntries(Object.entries(config.mcpServers).filter(([name]) => name === only));
    snapshot = await mcpInventory({ ...config, mcpServers: servers }, cwd, server.options.env);
  }
  const details = (snapshot.servers ?? []).filter((detail) => only === undefined || detail.name === only);
  const end = limit === undefined ? details.length : Math.min(details.length, start + limit);
  const data = details.slice(start, end).map((detail) => serverStatus(snapshot, detail, config, { fromThread: live !== null, full }));
  return { data, nextCursor: end < details.length ? String(end) : null };
};

const oauthLogin: Method = async ({ server }, params) => {
  const name = params.string("name");
  const live = namedThread(server, params);
  const config = server.loadConfig({ cwd: live?.cwd ?? process.cwd() });
  const entry = config.mcpServers[name];
  if (!entry) {
    const known = Object.keys(config.mcpServers);
    throw invalidRequest(`No MCP server named ${name} in config.toml${known.length > 0 ? ` (configured: ${known.join(", ")})` : ""}`);
  }
  if (entry.transport !== "streamable_http") throw invalidRequest(`${name} is a stdio server: it has no login; its credentials come from its command and env`);
  const timeoutSecs = params.optionalInteger("timeoutSecs", 1);
  const registration = params.optionalEnum<ClientRegistration>("clientRegistration", ["auto", "cimd", "dcr"]);
  const scopes = params.optionalStrings("scopes");
  const loginId = randomUUID();
  const threadId = live?.threadId ?? null;
  const log = (text: string): void => {
    for (const line of text.split("\n")) if (line.trim() !== "") server.options.log(`mcp login ${name}: ${line}`);
  };
  // The client opens the URL (the server may run on another machine): the flow hands it over here.
  let handOver: (url: string) => void = () => undefined;
  const authorizationUrl = new Promise<string>((resolve) => (handOver = resolve));
  let handedOver = false;
  const ended = loginMcpServer(name, entry, {
    env: server.options.env,
    out: log,
    err: log,
    openUrl: (url) => {
      handedOver = true;
      handOver(url);
      return Promise.resolve(true);
    },
    ...(timeoutSecs !== undefined ? { timeoutMs: timeoutSecs * 1000 } : {}),
    ...(registration !== undefined && registration !== "auto" ? { registration } : {}),
    ...(scopes !== undefined ? { scopes } : {}),
  }).then(
    () => null,
    (err: unknown) => (err as Error).message,
  );
  void ended.then((error) => {
    // A flow that ended before it had a URL is the request's own error (below), not a completion.
    if (!handedOver) return;
    server.broadcast("mcpServer/oauthLogin/completed", { name, success: error === null, error, loginId, threadId });
    // The thread named starts the server again, now with the tokens (later threads read them at start).
    if (error === null && live && !live.closed) live.submit({ type: "restart_mcp_server", server: name });
  });
  const first = await Promise.race([authorizationUrl, ended.then((error) => ({ error }))]);
  if (typeof first === "string") return { authorizationUrl: first, loginId };
  throw invalidRequest(`MCP sign-in of ${name} failed: ${first.error ?? "the sign-in ended without an authorization URL"}`);
};

/**
 * Reads the MCP servers from the config again (each loaded thread's, from its folder) and has
 * every loaded thread stop its servers and start the new ones; their progress comes as
 * `mcpServer/startupStatus/updated`.
 */
const reload: Method = ({ server }) => {
  const threads = server.loadedThreadIds().flatMap((threadId) => {
    const live = server.thread(threadId);
    return live && !live.closed ? [live] : [];
  });
  // Every config first: one that no longer loads fails the request before any thread changed.
  const reloads = threads.map((live) => ({ live, servers: server.loadConfig({ cwd: live.cwd }).mcpServers }));
  for (const { live, servers } of reloads) live.submit({ type: "reload_mcp_servers", servers });
  return Promise.resolve({});
};

/** A resource of one of a thread's MCP servers (codex-ts reads them through a loaded thread's servers). */
const resourceRead: Method = async ({ server }, params) => {
  const threadId = params.optionalString("threadId");
  if (threadId === undefined) throw invalidRequest("mcpServer/resource/read needs a `threadId`: codex-ts reads resources through a loaded thread's MCP servers");
  const live = server.requireThread(threadId);
  const serverName = params.string("server");
  const uri = params.string("uri");
  const contents = await live.request({ type: "read_mcp_resource", server: serverName, uri }, (msg) => (msg.type === "mcp_resource_read_response" ? msg.contents : undefined));
  return { contents };
};

/** One tool of a thread's MCP server called for the client (its own call: no approval, not in the conversation). */
const toolCall: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  const op = { type: "call_mcp_tool" as const, server: params.string("server"), tool: params.string("tool"), arguments: params.raw("arguments") ?? null };
  const result = await live.request(op, (msg) => (msg.type === "mcp_tool_call_response" ? msg.result : undefined));
  return { content: result.content, structuredContent: result.structuredContent ?? null, isError: result.isError ?? null, _meta: result._meta ?? null };
};

export const mcpMethods: Readonly<Record<string, Method>> = {
  "mcpServer/resource/read": resourceRead,
  "mcpServer/tool/call": toolCall,
  "config/mcpServer/reload": reload,
  "mcpServerStatus/list": statusList,
  "mcpServer/oauth/login": oauthLogin,
};
