/**
 * MCP tools as the turn loop sees them: a spec and a handler for each server tool (under its
 * qualified name), and the three resource tools. Calls are bracketed by mcp_tool_call_begin/end
 * events and return what the reference returns to the model (see result.ts).
 *
 * Tool order follows the reference: the resource tools right after the command tools, the
 * server tools last, sorted by qualified name so requests stay byte-stable across turns.
 */
import { performance } from "node:perf_hooks";
import type { TurnContext } from "../tools/turn-context.js";
import type { JsonSchema, ToolSpec } from "../protocol/tool-spec.js";
import { ToolError, type HookIdentity, type ToolHandler, type ToolInvocation } from "../tools/types.js";
import {
  approvalQuestion,
  isFullAccessMode,
  MCP_TOOL_CALL_CANCELLED,
  MCP_TOOL_CALL_REJECTED,
  McpApprovalMemory,
  requiresMcpToolApproval,
  toolAnnotations,
  type McpApprovalHook,
} from "../approval/mcp-tool-approval.js";
import { chainDebug } from "./errors.js";
import { emitMcpEvent, eventDuration } from "./events.js";
import type { McpCallToolResult, McpInvocation, McpToolCallOutcome } from "../protocol/mcp-events.js";
import type { McpConnectionManager, McpToolInfo } from "./manager.js";
import { errorResult, toolOutputFromResult, withoutImages, type McpToolOutput } from "./result.js";
import { toolParameters } from "./schema.js";
import { mcpArgumentProblem } from "./argument-schema.js";
import { listResourceTemplatesTool, listResourcesTool, readResourceTool, RESOURCE_TOOL_NAMES } from "./resource-tools.js";
import type { McpToolset } from "./toolset.js";
import { errorMessage } from "../util/errors.js";

export { withMcpToolSpecs, type McpToolset } from "./toolset.js";

export interface McpToolOptions {
  /** Whether the turn's model takes image input; without it image blocks become a note. Default: yes. */
  supportsImages?: (turn: TurnContext) => boolean;
  /** Asks the user about calls whose annotations require approval (see approval.ts); absent: calls proceed. */
  approve?: McpApprovalHook;
  /** Session-wide "allow for this session" answers; pass the same instance for every turn. */
  approvalMemory?: McpApprovalMemory;
}

/** The model-facing spec of one server tool. */
export function mcpToolSpec(info: McpToolInfo): ToolSpec {
  return {
    type: "function",
    name: info.qualifiedName,
    description: info.definition.description ?? "",
    strict: false,
    parameters: toolParameters(info.definition.inputSchema),
  };
}

function buildToolset(manager: McpConnectionManager, tools: McpToolInfo[], opts: McpToolOptions): McpToolset {
  const handlers = new Map<string, ToolHandler>();
  if (!manager.hasServers) return { resourceSpecs: [], toolSpecs: [], handlers };
  const toolHandler = new McpToolHandler(manager, opts);
  const toolSpecs = tools.map((info) => {
    handlers.set(info.qualifiedName, toolHandler);
    return mcpToolSpec(info);
  });
  handlers.set(RESOURCE_TOOL_NAMES.list, listResourcesTool(manager));
  handlers.set(RESOURCE_TOOL_NAMES.templates, listResourceTemplatesTool(manager));
  handlers.set(RESOURCE_TOOL_NAMES.read, readResourceTool(manager));
  return { resourceSpecs: resourceToolSpecs(), toolSpecs, handlers };
}

/** The tools for a turn once every server has settled (what the reference offers). */
export async function mcpToolset(manager: McpConnectionManager, opts: McpToolOptions = {}): Promise<McpToolset> {
  return buildToolset(manager, await manager.tools(), opts);
}

/** The tools of the servers ready right now, without waiting for the others. */
export function mcpToolsetSnapshot(manager: McpConnectionManager, opts: McpToolOptions = {}): McpToolset {
  return buildToolset(manager, manager.readyTools(), opts);
}

function schemaObject(properties: Record<string, JsonSchema>, required?: string[]): JsonSchema {
  const schema: JsonSchema = { type: "object", properties };
  if (required) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}

export function resourceToolSpecs(): ToolSpec[] {
  const server = (what: string): JsonSchema => ({ type: "string", description: what });
  const cursor: JsonSchema = { type: "string", description: "The nextCursor of a previous page from the same server." };
  return [
    {
      type: "function",
      name: RESOURCE_TOOL_NAMES.list,
      description:
        "List the resources (files, records, documents…) that the configured MCP servers offer. Prefer resources over web search when one matches what you need.",
      strict: false,
      parameters: schemaObject({ cursor, server: server("Only this server's resources, one page at a time. Omit to list every server's.") }),
    },
    {
      type: "function",
      name: RESOURCE_TOOL_NAMES.templates,
      description: "List the resource templates (parameterised resource URIs) that the configured MCP servers offer.",
      strict: false,
      parameters: schemaObject({ cursor, server: server("Only this server's templates, one page at a time. Omit to list every server's.") }),
    },
    {
      type: "function",
      name: RESOURCE_TOOL_NAMES.read,
      description: "Read one resource from an MCP server, by the server's name and the resource's URI.",
      strict: false,
      parameters: schemaObject(
        {
          server: server("The server's name, as list_mcp_resources reports it."),
          uri: { type: "string", description: "The resource's URI." },
        },
        ["server", "uri"],
      ),
    },
  ];
}

/** Runs a server tool: parse, begin event, approval, call (with the server's timeout), end event, convert. */
export class McpToolHandler implements ToolHandler {
  readonly payloadKind = "function" as const;
  private readonly memory: McpApprovalMemory;

  constructor(
    private readonly manager: McpConnectionManager,
    private readonly opts: McpToolOptions = {},
  ) {
    this.memory = opts.approvalMemory ?? new McpApprovalMemory();
  }

  /** Checks against the server's own input schema, not the simplified copy the model was offered. */
  checkArguments(toolName: string, rawArguments: string): Promise<string | null> {
    const info = this.manager.resolveTool(toolName);
    return info ? mcpArgumentProblem(info.definition.inputSchema, rawArguments) : Promise.resolve(null);
  }

  async handle(inv: ToolInvocation): Promise<McpToolOutput> {
    if (inv.payload.kind !== "function") throw new ToolError(`tool ${inv.name} invoked with incompatible payload`, true);
    const info = this.manager.resolveTool(inv.name);
    if (!info) return { text: `unsupported call: ${inv.name}`, success: false };
    const raw = inv.payload.arguments;
    let args: unknown = null;
    if (raw.trim() !== "") {
      try {
        args = JSON.parse(raw) as unknown;
      } catch (err) {
        // As in the reference: an error result, and no begin/end events.
        return toolOutputFromResult(errorResult(`err: ${errorMessage(err)}`));
      }
    }
    const invocation: McpInvocation = { server: info.server, tool: info.tool, arguments: args };
    emitMcpEvent(inv.emit, { type: "mcp_tool_call_begin", call_id: inv.callId, invocation });

    const refusal = await this.approval(inv, info, args);
    if (refusal !== null) {
      const result: McpToolCallOutcome = { Err: refusal };
      emitMcpEvent(inv.emit, { type: "mcp_tool_call_end", call_id: inv.callId, invocation, duration: eventDuration(0), result });
      return toolOutputFromResult(errorResult(refusal));
    }

    const started = performance.now();
    let outcome: McpToolCallOutcome;
    try {
      const result = await this.manager.callServerTool(info.server, info.tool, args, inv.signal);
      const images = this.opts.supportsImages?.(inv.turn) ?? true;
      outcome = { Ok: images ? result : withoutImages(result) };
    } catch (err) {
      outcome = { Err: `tool call error: ${chainDebug(err)}` };
    }
    const duration = eventDuration(performance.now() - started);
    emitMcpEvent(inv.emit, { type: "mcp_tool_call_end", call_id: inv.callId, invocation, duration, result: outcome });
    if (!("Ok" in outcome)) return toolOutputFromResult(errorResult(outcome.Err));
    // PostToolUse hooks read the server's result as it came (the reference's `tool_response`).
    return { ...toolOutputFromResult(outcome.Ok), ran: true, hookResponse: outcome.Ok };
  }

  /** Hooks see the call under the qualified name the model used, with its arguments. */
  hookIdentity(inv: ToolInvocation): HookIdentity {
    let args: unknown = {};
    if (inv.payload.kind === "function" && inv.payload.arguments.trim() !== "") {
      try {
        args = JSON.parse(inv.payload.arguments) as unknown;
      } catch {
        args = inv.payload.arguments;
      }
    }
    return { toolName: inv.name, toolInput: args, mcp: true };
  }

  /** A replacement shaped like a tool result (`{content: [...]}`) reads as one; anything else as text. */
  hookReplacement(value: unknown): McpToolOutput {
    if (typeof value === "object" && value !== null && Array.isArray((value as { content?: unknown }).content)) {
      return toolOutputFromResult(value as McpCallToolResult);
    }
    return { text: typeof value === "string" ? value : JSON.stringify(value), success: true };
  }

  /** null to go ahead; otherwise the message the call ends with. */
  private async approval(inv: ToolInvocation, info: McpToolInfo, args: unknown): Promise<string | null> {
    const hook = this.opts.approve;
    if (!hook || isFullAccessMode(inv.turn.approvalPolicy, inv.turn.sandboxPolicy)) return null;
    const annotations = toolAnnotations(info.definition);
    if (annotations === null || !requiresMcpToolApproval(annotations)) return null;
    if (this.memory.has(info.server, info.tool)) return null;
    const decision = await hook(
      { callId: inv.callId, qualifiedName: inv.name, server: info.server, tool: info.tool, arguments: args, annotations, question: approvalQuestion(info.server, info.tool) },
      inv.signal,
    );
    switch (decision) {
      case "accept":
        return null;
      case "accept_for_session":
        this.memory.remember(info.server, info.tool);
        return null;
      case "decline":
        return MCP_TOOL_CALL_REJECTED;
      case "cancel":
        return MCP_TOOL_CALL_CANCELLED;
    }
  }
}
