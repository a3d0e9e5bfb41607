/**
 * Conversation items as the Responses API sees them. These are the units of history: what the
 * model sent back (messages, reasoning, tool calls) and what we send it (user messages, tool
 * outputs). Field names are the wire's, so items are stored and resent without translation.
 */
import type { ToolNamespace } from "./tool-spec.js";
import type { WebSearchAction } from "./web-search.js";

export type ContentItem =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string }
  | { type: "output_text"; text: string };

export type ImageDetail = "auto" | "low" | "high" | "original";

/**
 * One part of a function call's output when it is more than text (an MCP tool that answered with
 * images): the Responses API takes a list of these in place of the output string.
 */
export type FunctionCallOutputContentItem =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail?: ImageDetail };

/** A function call's output: text, or content items (text and images). */
export type FunctionCallOutput = string | FunctionCallOutputContentItem[];

export type ReasoningSummaryPart = { type: "summary_text"; text: string };
export type ReasoningContentPart = { type: "reasoning_text" | "text"; text: string };

export type ResponseItem =
  | { type: "message"; id?: string; role: "user" | "assistant" | "developer" | "system"; content: ContentItem[] }
  | {
      type: "reasoning";
      id?: string;
      summary: ReasoningSummaryPart[];
      content?: ReasoningContentPart[];
      encrypted_content?: string | null;
    }
  /** `namespace`: the group of a tool offered inside a namespace (the collab tools' `multi_agent_v1`, or an MCP server's `mcp__<server>` found by tool_search); absent otherwise. */
  | { type: "function_call"; id?: string; name: string; namespace?: string; arguments: string; call_id: string }
  | { type: "function_call_output"; call_id: string; output: FunctionCallOutput }
  | { type: "custom_tool_call"; id?: string; name: string; input: string; call_id: string }
  | { type: "custom_tool_call_output"; call_id: string; output: string }
  /** A search the provider ran (hosted tool): kept and resent as it came, minus its id. */
  | { type: "web_search_call"; id?: string; status?: string; action?: WebSearchAction }
  /** The model searching the deferred tools (the tool_search tool, run by the client). */
  | { type: "tool_search_call"; call_id: string; status?: string; execution: "client"; arguments: ToolSearchArguments }
  /** What the search found, as tool definitions the model may call from then on. */
  | { type: "tool_search_output"; call_id: string; status: "completed"; execution: "client"; tools: ToolNamespace[] }
  /** What the Responses API's compaction endpoint leaves of earlier history: opaque, resent as is. */
  | { type: "compaction"; encrypted_content: string };

export type ToolCallItem = Extract<ResponseItem, { type: "function_call" | "custom_tool_call" }>;
export type ToolSearchCallItem = Extract<ResponseItem, { type: "tool_search_call" }>;

export interface ToolSearchArguments {
  query?: string;
  limit?: number;
}

/** A user message in the one-text-part shape the reference uses for prompts and context. */
export function userText(text: string): ResponseItem {
  return { type: "message", role: "user", content: [{ type: "input_text", text }] };
}

export function developerText(text: string): ResponseItem {
  return { type: "message", role: "developer", content: [{ type: "input_text", text }] };
}

/** Concatenated output text of an assistant message, or undefined for any other item. */
export function assistantText(item: ResponseItem): string | undefined {
  if (item.type !== "message" || item.role !== "assistant") return undefined;
  return item.content.map((c) => (c.type === "output_text" ? c.text : "")).join("");
}

/** What a reader that cannot take images gets in their place (the reference's wording). */
export const IMAGE_OMITTED_TEXT = "<image content omitted because you do not support image input>";

/**
 * The text form of a function call's output, for wires and readers that only take strings (Chat
 * Completions): content items become their non-blank text parts joined by newlines; images
 * alone become a note that they were left out (their data would only waste the context).
 */
export function functionOutputText(output: FunctionCallOutput): string {
  if (typeof output === "string") return output;
  const texts = output.flatMap((i) => (i.type === "input_text" && i.text.trim() !== "" ? [i.text] : []));
  if (texts.length > 0) return texts.join("\n");
  return output.some((i) => i.type === "input_image") ? IMAGE_OMITTED_TEXT : "";
}
