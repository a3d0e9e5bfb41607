/**
 * What a turn gets from MCP, and where it goes among the built-in tools. Kept apart from the
 * handlers (tools.ts) so the tool registry can place MCP tools without loading any MCP code:
 * sessions without servers never import the rest of src/mcp.
 */
import type { ToolSpec } from "../protocol/tool-spec.js";
import type { ToolHandler } from "../tools/types.js";

export interface McpToolset {
  /** list_mcp_resources, list_mcp_resource_templates, read_mcp_resource (empty without servers). */
  resourceSpecs: ToolSpec[];
  /** One function tool per server tool, sorted by name. */
  toolSpecs: ToolSpec[];
  /** Handlers for every spec above, by tool name. */
  handlers: Map<string, ToolHandler>;
}

const COMMAND_TOOLS = new Set(["exec_command", "write_stdin", "shell", "shell_command", "local_shell"]);

/**
 * The built-in specs with the MCP ones placed where the reference puts them: resource tools after
 * the last command tool (or first when there is none), server tools at the end.
 */
export function withMcpToolSpecs(builtin: ToolSpec[], toolset: McpToolset): ToolSpec[] {
  let insertAt = 0;
  builtin.forEach((spec, i) => {
    if (spec.type !== "web_search" && COMMAND_TOOLS.has(spec.name)) insertAt = i + 1;
  });
  return [...builtin.slice(0, insertAt), ...toolset.resourceSpecs, ...builtin.slice(insertAt), ...toolset.toolSpecs];
}
