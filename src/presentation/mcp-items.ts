/**
 * `exec --json` items for MCP tool calls, as the reference's exec writes them: the begin event
 * opens an `mcp_tool_call` item (in_progress, result and error null), the end event completes the
 * same item id with either the server's result (`content`, `structured_content`, null when the
 * server sent none) or the error message. A result flagged `isError` still carries its result;
 * only its status says failed.
 */
import type { McpToolCallThreadItem } from "../protocol/thread-events.js";
import { isSuccessfulOutcome, type McpInvocation, type McpToolCallEventMsg } from "../protocol/mcp-events.js";

export type { McpToolCallThreadItem } from "../protocol/thread-events.js";

export type McpItemEvent =
  | { type: "item.started"; item: McpToolCallThreadItem }
  | { type: "item.completed"; item: McpToolCallThreadItem };

/** Keeps the item id of each call between its begin and end events. */
export class McpItemMapper {
  private readonly open = new Map<string, string>();

  constructor(private readonly nextItemId: () => string) {}

  map(msg: McpToolCallEventMsg): McpItemEvent {
    const base = { type: "mcp_tool_call" as const, server: msg.invocation.server, tool: msg.invocation.tool, arguments: msg.invocation.arguments };
    if (msg.type === "mcp_tool_call_begin") {
      const id = this.nextItemId();
      this.open.set(msg.call_id, id);
      return { type: "item.started", item: { id, ...base, result: null, error: null, status: "in_progress" } };
    }
    const id = this.open.get(msg.call_id) ?? this.nextItemId();
    this.open.delete(msg.call_id);
    const outcome = msg.result;
    const item: McpToolCallThreadItem =
      "Ok" in outcome
        ? {
            id,
            ...base,
            result: { content: outcome.Ok.content, structured_content: outcome.Ok.structuredContent ?? null },
            error: null,
            status: isSuccessfulOutcome(outcome) ? "completed" : "failed",
          }
        : { id, ...base, result: null, error: { message: outcome.Err }, status: "failed" };
    return { type: "item.completed", item };
  }
}

/** `server.tool(args)`, arguments as compact JSON: how the reference's human exec output names a call. */
export function formatMcpInvocation(invocation: McpInvocation): string {
  const args = invocation.arguments === null || invocation.arguments === undefined ? "" : JSON.stringify(invocation.arguments);
  return `${invocation.server}.${invocation.tool}(${args})`;
}
