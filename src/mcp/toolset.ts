/**
 * What a turn gets from MCP, and where it goes among the built-in tools. Kept apart from the
 * handlers (tools.ts) so the tool registry can place MCP tools without loading any MCP code:
 * sessions without servers never import the rest of src/mcp.
 */
import { toolName, type ToolSpec } from "../protocol/tool-spec.js";
import type { ToolHandler } from "../tools/types.js";
import type { ToolSearchCatalog } from "../tools/tool-search.js";

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
export function withMcpToolSpecs(builtin: ToolSpec[], toolset: McpToolset, deferTo: ToolSearchCatalog | null): ToolSpec[] {
  let insertAt = 0;
  builtin.forEach((spec, i) => {
    if (COMMAND_TOOLS.has(toolName(spec))) insertAt = i + 1;
  });
  const direct = deferTo === null ? toolset.toolSpecs : toolset.toolSpecs.filter((spec) => !defer(spec, deferTo));
  return [...builtin.slice(0, insertAt), ...toolset.resourceSpecs, ...builtin.slice(insertAt), ...direct];
}

/**
 * Puts a server tool in the tool_search catalog under its server's namespace (`mcp__<server>`,
 * the qualified name's first part); false for a name that does not split that way.
 */
function defer(spec: ToolSpec, catalog: ToolSearchCatalog): boolean {
  if (spec.type !== "function") return false;
  const at = spec.name.indexOf("__", "mcp__".length);
  if (!spec.name.startsWith("mcp__") || at < 0) return false;
  const namespace = spec.name.slice(0, at);
  catalog.add(namespace, spec.name.slice(at + 2), spec, `The tools of MCP server ${namespace.slice("mcp__".length)}.`);
  return true;
}
