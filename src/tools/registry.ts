/**
 * Pairs the tool specs a model is offered with their handlers. The spec list decides what the
 * model sees; a spec without a handler here would be a promise we cannot keep, so building
 * fails loudly in tests if the two drift apart. Tools from elsewhere (a session's MCP servers)
 * join through an extension that places its specs among the built-in ones.
 */
import type { ModelInfo } from "../model/catalog.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import { buildToolSpecs } from "./specs.js";
import { ToolSearchCatalog } from "./tool-search.js";
import { ToolRouter } from "./router.js";
import type { ToolHandler } from "./types.js";
import { shellCommandHandler, shellHandler } from "./handlers/shell.js";
import { execCommandHandler, writeStdinHandler } from "./handlers/unified-exec.js";
import { updatePlanHandler } from "./handlers/update-plan.js";
import { applyPatchHandler } from "./handlers/apply-patch.js";
import { requestUserInputHandler } from "./handlers/request-user-input.js";
import { viewImageHandler } from "./handlers/view-image.js";
import { createGoalHandler, getGoalHandler, updateGoalHandler } from "./handlers/goals.js";

/** Every built-in tool's handler, by tool name (exported for the test that pairs them with the catalog). */
export const HANDLERS: Readonly<Record<string, ToolHandler>> = {
  shell: shellHandler,
  shell_command: shellCommandHandler,
  exec_command: execCommandHandler,
  write_stdin: writeStdinHandler,
  update_plan: updatePlanHandler,
  request_user_input: requestUserInputHandler,
  apply_patch: applyPatchHandler,
  view_image: viewImageHandler,
  get_goal: getGoalHandler,
  create_goal: createGoalHandler,
  update_goal: updateGoalHandler,
};

/**
 * Tools a turn offers beyond the built-in ones, and where their specs go among them; with a
 * catalog (the model has tool_search), the ones worth deferring go there instead.
 */
export interface ToolExtension {
  place(builtin: ToolSpec[], deferTo: ToolSearchCatalog | null): ToolSpec[];
  handlers: ReadonlyMap<string, ToolHandler>;
}

/** The turn's tools: the model's built-in ones, plus an extension's (which never shadow them). */
export function buildTools(model: ModelInfo, extension?: ToolExtension): { specs: ToolSpec[]; router: ToolRouter; deferred: ToolSearchCatalog } {
  const builtin = buildToolSpecs(model);
  const deferred = new ToolSearchCatalog();
  const handlers = new Map<string, ToolHandler>();
  for (const spec of builtin) {
    if (spec.type === "web_search" || spec.type === "tool_search") continue;
    const handler = HANDLERS[spec.name];
    if (handler) handlers.set(spec.name, handler);
  }
  if (!extension) return { specs: builtin, router: new ToolRouter(handlers, builtin, deferred), deferred };
  for (const [name, handler] of extension.handlers) if (!handlers.has(name)) handlers.set(name, handler);
  const specs = extension.place(builtin, model.toolSearch ? deferred : null);
  return { specs, router: new ToolRouter(handlers, specs, deferred), deferred };
}
