/**
 * The MCP servers a config names, as a client sees them outside any thread (the app-server's
 * `mcpServerStatus/list` without a `threadId`): each enabled server is started just long enough
 * to say what it offers, with the config's denied paths hidden from stdio servers as a session
 * hides them. A thread answers the same from its running servers (the `list_mcp_tools` op).
 */
import type { Config } from "../config/load-config.js";
import type { McpListToolsResponse } from "../protocol/mcp-events.js";

export async function mcpInventory(config: Config, cwd: string, env: NodeJS.ProcessEnv): Promise<McpListToolsResponse> {
  const [{ discoverMcpServers }, { FileSystemGuard }] = await Promise.all([import("../core/mcp-snapshot.js"), import("../sandbox/fs-guard.js")]);
  return discoverMcpServers(config.mcpServers, cwd, env, new FileSystemGuard(config.fileSystemRules));
}
