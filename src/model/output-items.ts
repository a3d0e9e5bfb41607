/**
 * Output items as they arrive on the wire carry server bookkeeping (ids, status, annotations).
 * History keeps only what the model needs to see again, so that every follow-up request resends
 * exactly the same bytes for the same item and the provider's prompt cache keeps hitting.
 */
import type { ContentItem, ResponseItem } from "../protocol/items.js";
import { parseWebSearchAction } from "../protocol/web-search.js";

type Json = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** The provider's id of a raw output item ("" when it has none): a hosted search is known by it. */
export function outputItemId(raw: unknown): string {
  return raw && typeof raw === "object" ? str((raw as Json).id) : "";
}

export function normalizeOutputItem(raw: unknown): ResponseItem | null {
  if (!raw || typeof raw !== "object") return null;
  const item = raw as Json;
  switch (item.type) {
    case "message": {
      const content = Array.isArray(item.content) ? item.content : [];
      const parts: ContentItem[] = [];
      for (const c of content as Json[]) {
        if (c.type === "output_text" || c.type === "input_text") {
          parts.push({ type: c.type, text: str(c.text) });
        }
      }
      const role = item.role === "assistant" || item.role === "user" || item.role === "developer" ? item.role : "assistant";
      return { type: "message", role, content: parts };
    }
    case "reasoning": {
      const summary = (Array.isArray(item.summary) ? item.summary : []).map((s: Json) => ({
        type: "summary_text" as const,
        text: str(s.text),
      }));
      const out: ResponseItem = { type: "reasoning", summary };
      if (Array.isArray(item.content) && item.content.length > 0) {
        out.content = (item.content as Json[]).map((c) => ({ type: "reasoning_text" as const, text: str(c.text) }));
      }
      if (typeof item.encrypted_content === "string") out.encrypted_content = item.encrypted_content;
      return out;
    }
    case "function_call":
      return {
        type: "function_call",
        name: str(item.name),
        // A tool inside a namespace tool (multi_agent_v1) is called with its namespace.
        ...(typeof item.namespace === "string" && item.namespace !== "" ? { namespace: item.namespace } : {}),
        arguments: str(item.arguments),
        call_id: str(item.call_id),
      };
    case "tool_search_call": {
      const args = item.arguments && typeof item.arguments === "object" ? (item.arguments as Json) : {};
      return {
        type: "tool_search_call",
        call_id: str(item.call_id),
        status: "completed",
        execution: "client",
        arguments: { ...(typeof args.query === "string" ? { query: args.query } : {}), ...(typeof args.limit === "number" ? { limit: args.limit } : {}) },
      };
    }
    case "custom_tool_call":
      return { type: "custom_tool_call", name: str(item.name), input: str(item.input), call_id: str(item.call_id) };
    case "web_search_call": {
      // Announced before the search ran, the item has no action yet.
      const action = parseWebSearchAction(item.action);
      return { type: "web_search_call", ...(typeof item.status === "string" ? { status: item.status } : {}), ...(action ? { action } : {}) };
    }
    case "compaction":
    case "compaction_summary":
      // Older API versions named the item compaction_summary; both carry opaque content.
      return typeof item.encrypted_content === "string" ? { type: "compaction", encrypted_content: item.encrypted_content } : null;
    default:
      return null;
  }
}
