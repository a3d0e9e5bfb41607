/**
 * The answer to `list_mcp_tools`: what the session's MCP servers offer once start-up has
 * settled (tools by qualified name, resources and templates by server), how each enabled
 * server authenticates, and each configured server's state. Auth statuses are worked out
 * concurrently: for an HTTP server with nothing stored that means a bounded metadata discovery,
 * so the answer may take a few seconds.
 *
 * `discoverMcpServers` answers the same outside any session: it starts the servers (stdio ones
 * with the denied paths hidden, as a session starts them), waits for them to settle, takes the
 * snapshot and stops them again.
 */
import type { McpServerConfig } from "../config/mcp.js";
import type { McpConnectionManager } from "../mcp/manager.js";
import type { McpAuthStatus, McpListToolsResponse, McpServerDetail } from "../protocol/mcp-events.js";
import type { FileSystemGuard } from "../sandbox/fs-guard.js";

export async function mcpSnapshot(manager: McpConnectionManager | null, servers: Record<string, McpServerConfig>, env: NodeJS.ProcessEnv): Promise<McpListToolsResponse> {
  const enabled = Object.entries(servers).filter(([, config]) => config.enabled);
  const [{ mcpAuthStatus }, tools, resources, templates, started] = await Promise.all([
    import("../mcp/oauth/status.js"),
    manager ? manager.tools() : [],
    manager ? manager.listAllResources() : new Map<string, unknown[]>(),
    manager ? manager.listAllResourceTemplates() : new Map<string, unknown[]>(),
    manager ? manager.details() : [],
  ]);
  const statuses = await Promise.all(enabled.map(async ([name, config]): Promise<[string, McpAuthStatus]> => [name, await mcpAuthStatus(name, config, env)]));
  const byName = new Map(started.map((detail) => [detail.name, detail]));
  const details = Object.keys(servers)
    .sort()
    .map((name): McpServerDetail => byName.get(name) ?? { name, status: servers[name]?.enabled ? "not_started" : "disabled", error: null, auth_required: false, server_info: null, capabilities: null, tools: [] });
  return {
    type: "mcp_list_tools_response",
    tools: Object.fromEntries(tools.map((t) => [t.qualifiedName, t.definition])),
    resources: Object.fromEntries(resources),
    resource_templates: Object.fromEntries(templates),
    auth_statuses: Object.fromEntries(statuses),
    servers: details,
  };
}

/** Starts `servers` just long enough to list what they offer (no elicitation, no sign-in), then stops them. */
export async function discoverMcpServers(servers: Record<string, McpServerConfig>, cwd: string, env: NodeJS.ProcessEnv, guard: FileSystemGuard): Promise<McpListToolsResponse> {
  if (!Object.values(servers).some((s) => s.enabled)) return mcpSnapshot(null, servers, env);
  const [{ McpConnectionManager }, { mcpStdioLauncher }] = await Promise.all([import("../mcp/manager.js"), import("./mcp-launch.js")]);
  const manager = McpConnectionManager.start(servers, { cwd, env, onEvent: () => undefined, launchStdio: mcpStdioLauncher(guard) });
  try {
    return await mcpSnapshot(manager, servers, env);
  } finally {
    await manager.shutdown();
  }
}
