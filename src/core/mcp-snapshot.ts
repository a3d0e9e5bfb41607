/**
 * The answer to `list_mcp_tools`: what the session's MCP servers offer once start-up has
 * settled (tools by qualified name, resources and templates by server) and how each enabled
 * server authenticates. Auth statuses are worked out concurrently: for an HTTP server with
 * nothing stored that means a bounded metadata discovery, so the answer may take a few seconds.
 */
import type { McpServerConfig } from "../config/mcp.js";
import type { McpConnectionManager } from "../mcp/manager.js";
import type { McpAuthStatus, McpListToolsResponse } from "../protocol/mcp-events.js";

export async function mcpSnapshot(manager: McpConnectionManager | null, servers: Record<string, McpServerConfig>, env: NodeJS.ProcessEnv): Promise<McpListToolsResponse> {
  const enabled = Object.entries(servers).filter(([, config]) => config.enabled);
  const [{ mcpAuthStatus }, tools, resources, templates] = await Promise.all([
    import("../mcp/oauth/status.js"),
    manager ? manager.tools() : [],
    manager ? manager.listAllResources() : new Map<string, unknown[]>(),
    manager ? manager.listAllResourceTemplates() : new Map<string, unknown[]>(),
  ]);
  const statuses = await Promise.all(enabled.map(async ([name, config]): Promise<[string, McpAuthStatus]> => [name, await mcpAuthStatus(name, config, env)]));
  return {
    type: "mcp_list_tools_response",
    tools: Object.fromEntries(tools.map((t) => [t.qualifiedName, t.definition])),
    resources: Object.fromEntries(resources),
    resource_templates: Object.fromEntries(templates),
    auth_statuses: Object.fromEntries(statuses),
  };
}
