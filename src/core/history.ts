/**
 * The conversation as the model sees it: an append-only list of response items. Appending
 * (never rewriting) keeps every follow-up request's prefix byte-identical to the previous one.
 */
import type { ResponseItem } from "../protocol/items.js";

export class ConversationHistory {
  private readonly items: ResponseItem[] = [];

  append(...items: ResponseItem[]): void {
    this.items.push(...items);
  }

  /** The items to send, oldest first. Callers must not mutate them. */
  snapshot(): readonly ResponseItem[] {
    return this.items;
  }

  /** call_ids of tool calls that have no output yet (left behind by an aborted turn). */
  unansweredCalls(): Array<Extract<ResponseItem, { type: "function_call" | "custom_tool_call" }>> {
    const answered = new Set<string>();
    for (const item of this.items) {
      if (item.type === "function_call_output" || item.type === "custom_tool_call_output") answered.add(item.call_id);
    }
    return this.items.filter(
      (i): i is Extract<ResponseItem, { type: "function_call" | "custom_tool_call" }> =>
        (i.type === "function_call" || i.type === "custom_tool_call") && !answered.has(i.call_id),
    );
  }
}
