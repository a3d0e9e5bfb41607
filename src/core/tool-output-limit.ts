/**
 * Tool output entering history is cut to the model's budget (`tool_output_token_limit`, else the
 * catalog's), keeping its head and tail with a `…N tokens truncated…` marker between, as the
 * reference does when it records items. Command tools already format their output within the
 * budget; this catches every other tool (MCP servers, for one) before an oversized answer can
 * fill the context window. The reference allows a fifth more than the budget here, for the
 * wrapping a formatted output adds, so formatted output is never cut twice.
 */
import type { FunctionCallOutputContentItem, ResponseItem } from "../protocol/items.js";
import { approxTokenCount, truncateText, type TruncationPolicy } from "../exec/truncate.js";

/** Headroom over the budget for the formatting around a tool's own (already cut) output. */
const SERIALIZATION_HEADROOM = 1.2;

function limitParts(parts: FunctionCallOutputContentItem[], policy: TruncationPolicy): FunctionCallOutputContentItem[] {
  let left = policy.limit;
  let changed = false;
  const out = parts.map((p) => {
    if (p.type !== "input_text") return p;
    const size = policy.kind === "tokens" ? approxTokenCount(p.text) : Buffer.byteLength(p.text);
    const text = size <= left ? p.text : truncateText(p.text, { kind: policy.kind, limit: Math.max(0, left) });
    left = Math.max(0, left - size);
    if (text !== p.text) changed = true;
    return text === p.text ? p : { ...p, text };
  });
  return changed ? out : parts;
}

export function limitToolOutput(item: ResponseItem, policy: TruncationPolicy): ResponseItem {
  const scaled: TruncationPolicy = { kind: policy.kind, limit: Math.floor(policy.limit * SERIALIZATION_HEADROOM) };
  if (item.type === "custom_tool_call_output") {
    const output = truncateText(item.output, scaled);
    return output === item.output ? item : { ...item, output };
  }
  if (item.type !== "function_call_output") return item;
  const output = typeof item.output === "string" ? truncateText(item.output, scaled) : limitParts(item.output, scaled);
  return output === item.output ? item : { ...item, output };
}

export function limitToolOutputs(items: ResponseItem[], tokenBudget: number): ResponseItem[] {
  const policy: TruncationPolicy = { kind: "tokens", limit: tokenBudget };
  return items.map((i) => limitToolOutput(i, policy));
}
