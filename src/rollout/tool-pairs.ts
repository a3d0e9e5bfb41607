/**
 * A recorded history can hold a tool call without its output (the process died while the tool
 * ran) or an output whose call is gone (a writer dropped it). The Responses API rejects both, so
 * before a recorded history is resent: orphan outputs are left out, and calls still waiting for
 * an answer are reported so the session can record an "aborted" output for each.
 */
import type { ResponseItem, ToolCallItem } from "../protocol/items.js";

export interface PairedHistory {
  history: ResponseItem[];
  /** Calls with no output anywhere after them, in history order. */
  unanswered: ToolCallItem[];
}

export function pairToolCalls(items: ResponseItem[]): PairedHistory {
  // Calls by kind and call id, with whether an output answered them yet.
  const calls = { function: new Map<string, { call: ToolCallItem; answered: boolean }>(), custom: new Map<string, { call: ToolCallItem; answered: boolean }>() };
  const keep: boolean[] = [];
  let dropped = 0;
  for (const item of items) {
    let ok = true;
    switch (item.type) {
      case "function_call":
      case "custom_tool_call": {
        const byId = item.type === "function_call" ? calls.function : calls.custom;
        // A call recorded twice would be rejected as a duplicate.
        if (byId.has(item.call_id)) ok = false;
        else byId.set(item.call_id, { call: item, answered: false });
        break;
      }
      case "function_call_output":
      case "custom_tool_call_output": {
        const entry = (item.type === "function_call_output" ? calls.function : calls.custom).get(item.call_id);
        if (!entry || entry.answered) ok = false;
        else entry.answered = true;
        break;
      }
      default:
        break;
    }
    keep.push(ok);
    if (!ok) dropped++;
  }
  const history = dropped === 0 ? items : items.filter((_, i) => keep[i]);
  const unanswered = [...calls.function.values(), ...calls.custom.values()]
    .filter((e) => !e.answered)
    .map((e) => e.call)
    .sort((a, b) => items.indexOf(a) - items.indexOf(b));
  return { history, unanswered };
}
