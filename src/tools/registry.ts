/**
 * Pairs the tool specs a model is offered with their handlers. The spec list decides what the
 * model sees; a spec without a handler here would be a promise we cannot keep, so building
 * fails loudly in tests if the two drift apart. Tools from elsewhere (a session's MCP servers)
 * join through an extension that places its specs among the built-in ones.
 */
import type { ModelInfo } from "../model/catalog.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import { buildToolSpecs, type BuiltinToolOptions } from "./specs.js";
import { ToolSearchCatalog } from "./tool-search.js";
import { ToolRouter, qualifiedToolName } from "./router.js";
import type { ToolHandler } from "./types.js";
import { shellCommandHandler, shellHandler } from "./handlers/shell.js";
import { execCommandHandler, writeStdinHandler } from "./handlers/unified-exec.js";
import { updatePlanHandler } from "./handlers/update-plan.js";
import { applyPatchHandler } from "./handlers/apply-patch.js";
import { requestUserInputHandler } from "./handlers/request-user-input.js";
import { viewImageHandler } from "./handlers/view-image.js";
import { createGoalHandler, getGoalHandler, updateGoalHandler } from "./handlers/goals.js";
import { COLLAB_TOOLS, MULTI_AGENT_NAMESPACE, type CollabTool } from "./multi-agent-specs.js";

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

/** The handlers of the tools offered inside a namespace tool, by namespace and then by tool name. */
export const NAMESPACED_HANDLERS: Readonly<Record<string, Readonly<Record<string, ToolHandler>>>> = {
  [MULTI_AGENT_NAMESPACE]: Object.fromEntries(COLLAB_TOOLS.map((name) => [name, collabHandler(name)])),
};

/**
 * A collab tool's handler, loaded (with the sub-agent runtime behind it) at the tool's first
 * call, so a thread whose model never calls one does not load it.
 */
function collabHandler(name: CollabTool): ToolHandler {
  return {
    payloadKind: "function",
    handle: async (invocation) => (await import("./handlers/multi-agent.js")).MULTI_AGENT_HANDLERS[name].handle(invocation),
  };
}

/**
 * Tools a turn offers beyond the built-in ones, and where their specs go among them; with a
 * catalog (the model has tool_search), the ones worth deferring go there instead.
 */
export interface ToolExtension {
  place(builtin: ToolSpec[], deferTo: ToolSearchCatalog | null): ToolSpec[];
  handlers: ReadonlyMap<string, ToolHandler>;
}

/** The turn's tools: the model's built-in ones, plus an extension's (which never shadow them). */
export function buildTools(
  model: ModelInfo,
  extension?: ToolExtension,
  options: BuiltinToolOptions = {},
): { specs: ToolSpec[]; router: ToolRouter; deferred: ToolSearchCatalog } {
  const deferred = new ToolSearchCatalog();
  const handlers = new Map<string, ToolHandler>();
  const builtin: ToolSpec[] = [];
  for (const spec of buildToolSpecs(model, options)) {
    if (spec.type === "namespace") {
      for (const inner of spec.tools) {
        const handler = inner.type === "function" ? NAMESPACED_HANDLERS[spec.name]?.[inner.name] : undefined;
        if (!handler || inner.type !== "function") continue;
        handlers.set(qualifiedToolName(spec.name, inner.name), handler);
        // A family with tool_search finds the namespace's tools there, as the reference's gpt-5.5 does.
        if (model.toolSearch) deferred.add(spec.name, inner.name, inner, spec.description, spec.description);
      }
      if (!model.toolSearch) builtin.push(spec);
      continue;
    }
    builtin.push(spec);
    if (spec.type === "web_search" || spec.type === "tool_search") continue;
    const handler = HANDLERS[spec.name];
    if (handler) handlers.set(spec.name, handler);
  }
  if (!extension) return { specs: builtin, router: new ToolRouter(handlers, builtin, deferred), deferred };
  for (const [name, handler] of extension.handlers) if (!handlers.has(name)) handlers.set(name, handler);
  const specs = extension.place(builtin, model.toolSearch ? deferred : null);
  return { specs, router: new ToolRouter(handlers, specs, deferred), deferred };
}
