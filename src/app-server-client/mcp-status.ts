/**
 * The app-server's `mcpServerStatus/list` answer turned back into what a local session says of
 * its MCP servers: a start-up state per started server (`mcp_startup_update`) and the
 * `mcp_list_tools_response` the UI's `/mcp` prints. Tool names are qualified as the session
 * qualifies them (`mcp__<server>__<tool>`, sanitized); a name a local session would have
 * shortened with a hash keeps its full length here, which only shows in `/mcp`.
 */
import type { EventMsg } from "../protocol/events.js";
import { sanitizeToolName, type McpAuthStatus, type McpListToolsResponse, type McpStartupStatus, type McpToolDefinition } from "../protocol/mcp-events.js";

/** One server as `mcpServerStatus/list` gives it (the fields used here). */
export interface V2McpServerStatus {
  name: string;
  runtimeStatus: string | null;
  toolsError: string | null;
  tools: Record<string, McpToolDefinition>;
  resources: unknown[];
  resourceTemplates: unknown[];
  authStatus: string;
}

const AUTH_FROM_V2: Record<string, McpAuthStatus> = { unsupported: "unsupported", notLoggedIn: "not_logged_in", bearerToken: "bearer_token", oAuth: "o_auth" };

/** A thread's server state; null for a server the thread does not run (disabled, not started). */
function startupStatus(server: V2McpServerStatus): McpStartupStatus | null {
  switch (server.runtimeStatus) {
    case "connected":
      return { state: "ready" };
    case "starting":
      return { state: "starting" };
    case "cancelled":
      return { state: "cancelled" };
    case "failed":
    case "authenticationRequired":
      return { state: "failed", error: (server.toolsError ?? "failed to start").replace(/^MCP startup failed: /, "") };
    default:
      return null;
  }
}

export function mcpStatusEvents(servers: V2McpServerStatus[]): EventMsg[] {
  const events: EventMsg[] = [];
  const answer: McpListToolsResponse = { type: "mcp_list_tools_response", tools: {}, resources: {}, resource_templates: {}, auth_statuses: {} };
  for (const server of servers) {
    const status = startupStatus(server);
    if (status === null) continue;
    events.push({ type: "mcp_startup_update", server: server.name, status });
    for (const tool of Object.values(server.tools)) answer.tools[`mcp__${sanitizeToolName(server.name)}__${sanitizeToolName(tool.name)}`] = tool;
    answer.resources[server.name] = server.resources;
    answer.resource_templates[server.name] = server.resourceTemplates;
    const auth = AUTH_FROM_V2[server.authStatus];
    if (auth) answer.auth_statuses[server.name] = auth;
  }
  events.push(answer);
  return events;
}
