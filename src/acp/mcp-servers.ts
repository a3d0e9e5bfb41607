/**
 * The editor's MCP servers (`session/new`'s `mcpServers`) joined to the session's own
 * (`[mcp_servers]` in config.toml): stdio servers and streamable HTTP servers, with the defaults a
 * config entry gets. A name the config already uses keeps the config's server, and the editor's
 * is reported as left out; SSE servers are not offered (`mcpCapabilities.sse` is false) and are
 * reported the same way.
 */
import type { McpServer } from "@agentclientprotocol/sdk";
import { mcpServersFromToml, type McpServerConfig } from "../config/mcp.js";

export interface JoinedServers {
  servers: Record<string, McpServerConfig>;
  /** Why editor servers were left out, one line each. */
  skipped: string[];
}

export function joinEditorServers(own: Record<string, McpServerConfig>, editor: readonly McpServer[]): JoinedServers {
  const servers = { ...own };
  const skipped: string[] = [];
  for (const server of editor) {
    if (server.name in servers) {
      skipped.push(`the editor's MCP server '${server.name}' was left out: config.toml has a server with that name`);
      continue;
    }
    const table = tableOf(server);
    if (table === null) {
      skipped.push(`the editor's MCP server '${server.name}' was left out: codex-ts does not speak MCP over SSE (use streamable HTTP)`);
      continue;
    }
    const parsed = mcpServersFromToml({ [server.name]: table })[server.name];
    if (parsed) servers[server.name] = parsed;
  }
  return { servers, skipped };
}

/** The server as a config.toml table would give it. */
function tableOf(server: McpServer): Record<string, unknown> | null {
  if ("url" in server) {
    if (server.type === "sse") return null;
    return { url: server.url, http_headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])) };
  }
  return { command: server.command, args: server.args, env: Object.fromEntries(server.env.map((v) => [v.name, v.value])) };
}
