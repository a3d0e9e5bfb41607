/**
 * Last resort when a history does not fit the context window even after compaction: drop the
 * oldest items after a protected prefix (the initial context) until it fits. A tool call and its
 * output always go together (the Responses API rejects either alone), so dropping one drops both.
 */
import type { ResponseItem } from "../../protocol/items.js";
import { estimateItemTokens } from "../history.js";
import { truncateMiddle } from "../../exec/truncate.js";

function callId(item: ResponseItem): string | null {
  switch (item.type) {
    case "function_call":
    case "custom_tool_call":
    case "function_call_output":
    case "custom_tool_call_output":
      return item.call_id;
    default:
      return null;
  }
}

export interface FitResult {
  items: ResponseItem[];
  /** How many items were dropped. */
  dropped: number;
}

/**
 * Drops the oldest items after the first `protect` ones until the estimate is at most
 * `budgetTokens` (or nothing droppable is left). The last item, and the call it answers, are
 * never dropped: they are what the next request is about.
 */
export function dropOldestPaired(items: readonly ResponseItem[], protect: number, budgetTokens: number): FitResult {
  const sizes = items.map(estimateItemTokens);
  let total = sizes.reduce((a, b) => a + b, 0);
  if (total <= budgetTokens) return { items: [...items], dropped: 0 };
  // Where each call id appears, so dropping one half finds its partner without a scan.
  const byId = new Map<string, number[]>();
  items.forEach((item, i) => {
    const id = callId(item);
    if (id !== null) byId.set(id, [...(byId.get(id) ?? []), i]);
  });
  const drop = new Set<number>();
  const droppedIds = new Set<string>();
  const take = (i: number): void => {
    if (drop.has(i)) return;
    drop.add(i);
    total -= sizes[i] ?? 0;
  };
  const last = items[items.length - 1];
  const lastId = last ? callId(last) : null;
  for (let i = protect; i < items.length - 1 && total > budgetTokens; i++) {
    const item = items[i];
    if (!item || drop.has(i)) continue;
    const id = callId(item);
    if (id !== null && id === lastId) continue;
    take(i);
    if (id !== null && !droppedIds.has(id)) {
      droppedIds.add(id);
      // The partner of a dropped call or output goes too, wherever it is.
      for (const j of byId.get(id) ?? []) take(j);
    }
  }
  return { items: items.filter((_, i) => !drop.has(i)), dropped: drop.size };
}

function shrinkText(text: string, maxTokens: number): string {
  return truncateMiddle(text, maxTokens).text;
}

/** One item with its text cut (head and tail kept) to about `maxTokens`; others as they are. */
function shrinkItem(item: ResponseItem, maxTokens: number): ResponseItem {
  switch (item.type) {
    case "message":
      return { ...item, content: item.content.map((c) => (c.type === "input_image" ? c : { ...c, text: shrinkText(c.text, maxTokens) })) };
    case "function_call_output":
      return {
        ...item,
        output: typeof item.output === "string" ? shrinkText(item.output, maxTokens) : item.output.map((p) => (p.type === "input_text" ? { ...p, text: shrinkText(p.text, maxTokens) } : p)),
      };
    case "custom_tool_call_output":
      return { ...item, output: shrinkText(item.output, maxTokens) };
    default:
      return item;
  }
}

/**
 * Cuts every item larger than `maxItemTokens` down to about that size, so that one oversized
 * message or output (a pasted log, say) cannot keep a request from fitting on its own.
 */
export function shrinkLargeItems(items: readonly ResponseItem[], maxItemTokens: number): ResponseItem[] {
  return items.map((item) => (estimateItemTokens(item) > maxItemTokens ? shrinkItem(item, maxItemTokens) : item));
}
