/**
 * Pairs the tool specs a model is offered with their handlers. The spec list decides what the
 * model sees; a spec without a handler here would be a promise we cannot keep, so building
 * fails loudly in tests if the two drift apart. A session's MCP tools (server tools and the
 * resource tools) join the built-in ones when it has servers.
 */
import type { ModelInfo } from "../model/catalog.js";
import { buildToolSpecs, type ToolSpec } from "./specs.js";
import { ToolRouter } from "./router.js";
import type { ToolHandler } from "./types.js";
import { shellCommandHandler, shellHandler } from "./handlers/shell.js";
import { execCommandHandler, writeStdinHandler } from "./handlers/unified-exec.js";
import { updatePlanHandler } from "./handlers/update-plan.js";
import { applyPatchHandler } from "./handlers/apply-patch.js";
import { withMcpToolSpecs, type McpToolset } from "../mcp/toolset.js";

const HANDLERS: Record<string, ToolHandler> = {
  shell: shellHandler,
  shell_command: shellCommandHandler,
  exec_command: execCommandHandler,
  write_stdin: writeStdinHandler,
  update_plan: updatePlanHandler,
  apply_patch: applyPatchHandler,
};

/** The turn's tools: the model's built-in ones, plus `mcp`'s (placed as the reference does). */
export function buildTools(model: ModelInfo, mcp?: McpToolset): { specs: ToolSpec[]; router: ToolRouter } {
  const builtin = buildToolSpecs(model);
  const handlers = new Map<string, ToolHandler>();
  for (const spec of builtin) {
    if (spec.type === "web_search") continue;
    const handler = HANDLERS[spec.name];
    if (handler) handlers.set(spec.name, handler);
  }
  if (!mcp) return { specs: builtin, router: new ToolRouter(handlers) };
  // A server tool never shadows a built-in one (qualified names start with mcp__ anyway).
  for (const [name, handler] of mcp.handlers) if (!handlers.has(name)) handlers.set(name, handler);
  return { specs: withMcpToolSpecs(builtin, mcp), router: new ToolRouter(handlers) };
}
