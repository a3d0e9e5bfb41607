/**
 * History as the Chat Completions API wants it. Our history is a list of Responses-style items;
 * Chat wants role-tagged messages where tool calls hang off an assistant message and each call
 * is answered by a `tool` message right after it. Pure: no I/O, same input gives same bytes, so
 * an OpenAI-compatible server's prefix cache keeps hitting across requests of a thread.
 *
 * Choices, made for the many servers that only accept one system message at the start:
 * - The leading run of developer/system items (base instructions, permissions, developer
 *   instructions) becomes ONE `system` message, their texts joined by blank lines.
 * - Developer items later in the conversation (settings changes mid-session) stay in place as
 *   `system` messages: they carry instructions, not user speech, and hoisting them into the
 *   first message would rewrite the prefix of every later request.
 * - Reasoning items are dropped: there is no field for them that all servers accept, and their
 *   encrypted form means nothing outside the Responses API. Hosted web-search records too.
 * - An assistant turn is one message: its text is the content and all its tool calls (parallel
 *   ones included) go into one `tool_calls` list. Content is null when there is no text, which
 *   is what servers themselves send back for a tool-call-only answer.
 * - Every call is answered right after its assistant message, in call order. A call without an
 *   output gets "aborted" (servers reject unanswered calls); an output without a call is dropped
 *   (servers reject that too, and it tells the model nothing).
 */
import { functionOutputText, type ContentItem, type ResponseItem } from "../protocol/items.js";

export type ChatContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatSystemMessage {
  role: "system";
  content: string;
}
export interface ChatUserMessage {
  role: "user";
  /** A plain string when the message is text only, parts when it carries images. */
  content: string | ChatContentPart[];
}
export interface ChatAssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: ChatToolCall[];
}
export interface ChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export type ChatMessage = ChatSystemMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage;

/** Output text recorded for a call whose output is missing from history. */
export const MISSING_OUTPUT = "aborted";

const partText = (c: ContentItem): string | null => (c.type === "input_text" || c.type === "output_text" ? c.text : null);

function messageText(content: ContentItem[], separator: string): string {
  return content
    .map(partText)
    .filter((t): t is string => t !== null)
    .join(separator);
}

function userMessage(content: ContentItem[]): ChatUserMessage {
  if (!content.some((c) => c.type === "input_image")) return { role: "user", content: messageText(content, "\n") };
  const parts: ChatContentPart[] = content.map((c) =>
    c.type === "input_image" ? { type: "image_url", image_url: { url: c.image_url } } : { type: "text", text: c.text },
  );
  return { role: "user", content: parts };
}

export function toChatMessages(input: readonly ResponseItem[]): ChatMessage[] {
  // Outputs are placed next to their calls, wherever history holds them; first one wins.
  const outputs = new Map<string, string>();
  for (const item of input) {
    if ((item.type === "function_call_output" || item.type === "custom_tool_call_output") && !outputs.has(item.call_id)) {
      // A tool message is text only: an output with images sends its text parts.
      outputs.set(item.call_id, functionOutputText(item.output));
    }
  }

  const messages: ChatMessage[] = [];
  let pos = 0;
  const leading: string[] = [];
  for (; pos < input.length; pos++) {
    const item = input[pos];
    if (item?.type !== "message" || (item.role !== "developer" && item.role !== "system")) break;
    const text = messageText(item.content, "\n\n");
    if (text !== "") leading.push(text);
  }
  if (leading.length > 0) messages.push({ role: "system", content: leading.join("\n\n") });

  /** The assistant message of the current model answer, while its calls are still unanswered. */
  let open: ChatAssistantMessage | null = null;
  const answered = new Set<string>();
  const close = (): void => {
    if (!open) return;
    if (open.content === null && !open.tool_calls) open.content = ""; // An answer with no text at all.
    for (const call of open.tool_calls ?? []) {
      if (answered.has(call.id)) continue;
      answered.add(call.id);
      messages.push({ role: "tool", tool_call_id: call.id, content: outputs.get(call.id) ?? MISSING_OUTPUT });
    }
    open = null;
  };
  const assistant = (): ChatAssistantMessage => {
    if (!open) {
      open = { role: "assistant", content: null };
      messages.push(open);
    }
    return open;
  };
  const addCall = (id: string, name: string, args: string): void => {
    const msg = assistant();
    (msg.tool_calls ??= []).push({ id, type: "function", function: { name, arguments: args } });
  };

  for (; pos < input.length; pos++) {
    const item = input[pos];
    if (!item) continue;
    switch (item.type) {
      case "message":
        if (item.role === "assistant") {
          const text = messageText(item.content, "");
          const msg = assistant();
          if (text !== "") msg.content = msg.content === null ? text : `${msg.content}\n\n${text}`;
        } else {
          close();
          if (item.role === "user") messages.push(userMessage(item.content));
          else messages.push({ role: "system", content: messageText(item.content, "\n\n") });
        }
        break;
      case "function_call":
        addCall(item.call_id, item.name, item.arguments);
        break;
      case "custom_tool_call":
        addCall(item.call_id, item.name, JSON.stringify({ input: item.input }));
        break;
      case "function_call_output":
      case "custom_tool_call_output":
        close(); // Its place is right after its call, which close() fills in.
        break;
      // tool_search runs on the Responses wire only: a chat conversation never has one.
      case "reasoning":
      case "web_search_call":
      case "tool_search_call":
      case "tool_search_output":
        break;
      case "compaction":
        // Only the Responses API can read its own compaction item; a chat model gets the rest.
        break;
    }
  }
  close();
  return messages;
}
