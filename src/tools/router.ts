/**
 * Routes the model's tool calls to handlers and wraps what they return in the output item the
 * model expects (function_call_output for function tools, custom_tool_call_output for freeform
 * ones). A tool the model names but we do not offer gets a plain explanation, so it can adapt.
 * A function call's arguments are checked once, here, against the schema the model was offered:
 * a call that does not fit gets one error naming the field, and its handler never runs. Calls
 * that pass go through the PreToolUse / PostToolUse hooks (tool-hooks.ts).
 */
import type { FunctionCallOutputContentItem, ResponseItem, ToolCallItem, ToolSearchCallItem } from "../protocol/items.js";
import { ToolSearchCatalog } from "./tool-search.js";
import type { EventMsg } from "../protocol/events.js";
import type { JsonSchema, ToolSpec } from "../protocol/tool-spec.js";
import type { TurnContext } from "./turn-context.js";
import type { TurnDiffTracker } from "../patch/turn-diff.js";
import { checkFunctionArguments } from "./argument-check.js";
import { ToolError, type ToolHandler, type ToolInvocation } from "./types.js";
import { afterTool, beforeTool } from "./tool-hooks.js";
import { errorMessage } from "../util/errors.js";

export interface DispatchContext {
  turn: TurnContext;
  signal: AbortSignal;
  emit: (msg: EventMsg) => void;
  turnDiff: TurnDiffTracker;
  /** Takes text lifecycle hooks add for the model (it follows the calls' outputs); absent: dropped. */
  noteForModel?: (text: string) => void;
}

export class ToolRouter {
  /** Parameters schema of each offered function tool, by name. */
  private readonly schemas = new Map<string, JsonSchema>();

  constructor(
    private readonly handlers: ReadonlyMap<string, ToolHandler>,
    offered: readonly ToolSpec[] = [],
    /** Tools offered through tool_search rather than up front. */
    private readonly deferred: ToolSearchCatalog = new ToolSearchCatalog(),
  ) {
    for (const spec of offered) {
      if (spec.type === "function") this.schemas.set(spec.name, spec.parameters);
      if (spec.type !== "namespace") continue;
      for (const inner of spec.tools) if (inner.type === "function") this.schemas.set(qualifiedToolName(spec.name, inner.name), inner.parameters);
    }
  }

  /** Answers a tool_search call with the deferred tools that match. */
  search(call: ToolSearchCallItem): ResponseItem {
    return { type: "tool_search_output", call_id: call.call_id, status: "completed", execution: "client", tools: this.deferred.search(call.arguments) };
  }

  /** Runs one call. Throws only a fatal ToolError; every other failure becomes output text. */
  async dispatch(call: ToolCallItem, ctx: DispatchContext): Promise<ResponseItem> {
    const payload =
      call.type === "function_call"
        ? ({ kind: "function", arguments: call.arguments } as const)
        : ({ kind: "custom", input: call.input } as const);
    // A tool inside a namespace (offered as one, or found by tool_search) is called by its name
    // with the namespace beside it; without its namespace it is unknown.
    const name = call.type === "function_call" && call.namespace ? qualifiedToolName(call.namespace, call.name) : call.name;
    const handler = this.handlers.get(name);
    const started = performance.now();
    let text: string;
    let items: FunctionCallOutputContentItem[] | undefined;
    let success = false;
    if (!handler) {
      text = `unsupported call: ${name}`;
    } else if (handler.payloadKind !== "any" && handler.payloadKind !== payload.kind) {
      throw new ToolError(`tool ${name} invoked with incompatible payload`, true);
    } else {
      const problem = payload.kind === "function" ? await this.argumentProblem(name, handler, payload.arguments) : null;
      if (problem !== null) {
        text = problem;
      } else {
        const invocation: ToolInvocation = { callId: call.call_id, name, payload, turn: ctx.turn, signal: ctx.signal, emit: ctx.emit, turnDiff: ctx.turnDiff };
        const note = ctx.noteForModel ?? (() => undefined);
        const hooked = await beforeTool(handler, invocation, note);
        if (hooked?.blocked) {
          text = hooked.blocked;
        } else {
          try {
            let output = await handler.handle(hooked?.invocation ?? invocation);
            if (hooked) output = await afterTool(handler, hooked.invocation, hooked.identity, output, note);
            text = output.text;
            items = output.contentItems;
            success = output.success;
          } catch (err) {
            if (err instanceof ToolError && err.fatal) throw err;
            text = errorMessage(err);
          }
        }
      }
    }
    ctx.turn.services.telemetry.toolResult({
      toolName: name,
      callId: call.call_id,
      arguments: payload.kind === "function" ? payload.arguments : payload.input,
      durationMs: performance.now() - started,
      success,
      output: text,
    });
    return outputItem(call, text, items);
  }

  /** What is wrong with a function call's arguments, or null (also when the tool was offered without a schema). */
  private async argumentProblem(name: string, handler: ToolHandler, raw: string): Promise<string | null> {
    if (handler.checkArguments) return handler.checkArguments(name, raw);
    const schema = this.schemas.get(name) ?? this.deferred.parameters(name);
    return schema ? checkFunctionArguments(schema, raw) : null;
  }
}

/** How the router knows a tool offered inside a namespace tool (`multi_agent_v1__spawn_agent`). */
export function qualifiedToolName(namespace: string, name: string): string {
  return `${namespace}__${name}`;
}

/**
 * The output item answering `call`. A function call's output is `items` when given (text and
 * images, as the Responses API takes them), else the text; a custom call's is always the text.
 */
export function outputItem(call: ToolCallItem, text: string, items?: FunctionCallOutputContentItem[]): ResponseItem {
  return call.type === "function_call"
    ? { type: "function_call_output", call_id: call.call_id, output: items ?? text }
    : { type: "custom_tool_call_output", call_id: call.call_id, output: text };
}
