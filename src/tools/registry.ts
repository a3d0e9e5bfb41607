/**
 * Pairs the tool specs a model is offered with their handlers. The spec list decides what the
 * model sees; a spec without a handler here would be a promise we cannot keep, so building
 * fails loudly in tests if the two drift apart.
 */
import type { ModelInfo } from "../model/catalog.js";
import { buildToolSpecs, type ToolSpec } from "./specs.js";
import { ToolRouter } from "./router.js";
import type { ToolHandler } from "./types.js";
import { shellCommandHandler, shellHandler } from "./handlers/shell.js";
import { execCommandHandler, writeStdinHandler } from "./handlers/unified-exec.js";
import { updatePlanHandler } from "./handlers/update-plan.js";
import { applyPatchHandler } from "./handlers/apply-patch.js";

const HANDLERS: Record<string, ToolHandler> = {
  shell: shellHandler,
  shell_command: shellCommandHandler,
  exec_command: execCommandHandler,
  write_stdin: writeStdinHandler,
  update_plan: updatePlanHandler,
  apply_patch: applyPatchHandler,
};

export function buildTools(model: ModelInfo): { specs: ToolSpec[]; router: ToolRouter } {
  const specs = buildToolSpecs(model);
  const handlers = new Map<string, ToolHandler>();
  for (const spec of specs) {
    if (spec.type === "web_search") continue;
    const handler = HANDLERS[spec.name];
    if (handler) handlers.set(spec.name, handler);
  }
  return { specs, router: new ToolRouter(handlers) };
}
