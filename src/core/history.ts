/**
 * The conversation as the model sees it: an append-only list of response items. Appending
 * (never rewriting) keeps every follow-up request's prefix byte-identical to the previous one.
 * Every append is reported to the listener (the rollout recorder) at the moment it happens, so
 * the session file always holds exactly what the next request would resend. Compaction (and a
 * rollback) replace the whole list at once; whoever replaces it records why.
 *
 * The list also keeps a running estimate of its size in tokens (the reference's four bytes per
 * token over each item's JSON), so deciding whether to compact never walks the whole history.
 */
import type { ResponseItem } from "../protocol/items.js";
import { approxTokenCount } from "../exec/truncate.js";

/** Bytes of JSON around an item's strings (keys, quotes, type names), about what it adds. */
const ITEM_OVERHEAD_BYTES = 60;

const bytes = (s: string | null | undefined): number => (s ? Buffer.byteLength(s) : 0);

/**
 * Estimated tokens of one item as it is sent: its strings' UTF-8 bytes plus a little for the
 * JSON around them, over four. Walking the fields (rather than serialising the item) keeps a
 * resumed session of thousands of items from paying for a second JSON encoding.
 */
export function estimateItemTokens(item: ResponseItem): number {
  let n = ITEM_OVERHEAD_BYTES;
  switch (item.type) {
    case "message":
      for (const c of item.content) n += c.type === "input_image" ? bytes(c.image_url) : bytes(c.text);
      break;
    case "reasoning":
      for (const p of item.summary) n += bytes(p.text);
      for (const p of item.content ?? []) n += bytes(p.text);
      n += bytes(item.encrypted_content);
      break;
    case "function_call":
      n += bytes(item.name) + bytes(item.arguments) + bytes(item.call_id);
      break;
    case "custom_tool_call":
      n += bytes(item.name) + bytes(item.input) + bytes(item.call_id);
      break;
    case "function_call_output":
      n += bytes(item.call_id);
      if (typeof item.output === "string") n += bytes(item.output);
      else for (const p of item.output) n += p.type === "input_text" ? bytes(p.text) : bytes(p.image_url);
      break;
    case "custom_tool_call_output":
      n += bytes(item.call_id) + bytes(item.output);
      break;
    case "compaction":
      n += bytes(item.encrypted_content);
      break;
    default:
      return approxTokenCount(JSON.stringify(item));
  }
  return Math.ceil(n / 4);
}

export function estimateTokens(items: readonly ResponseItem[]): number {
  let sum = 0;
  for (const item of items) sum += estimateItemTokens(item);
  return sum;
}

export class ConversationHistory {
  private items: ResponseItem[] = [];
  private tokens = 0;

  constructor(private readonly onAppend: (items: readonly ResponseItem[]) => void = () => {}) {}

  append(...items: ResponseItem[]): void {
    if (items.length === 0) return;
    for (const item of items) this.items.push(item);
    this.tokens += estimateTokens(items);
    this.onAppend(items);
  }

  /** Puts back items recorded by an earlier process; they are on disk already, so not reported. */
  restore(items: readonly ResponseItem[]): void {
    // A loop, not push(...items): a long session can exceed the engine's argument limit.
    for (const item of items) this.items.push(item);
    this.tokens += estimateTokens(items);
  }

  /** Replaces everything (a compaction's new history, a rollback's shorter one); not reported as appends. */
  replace(items: readonly ResponseItem[]): void {
    this.items = [...items];
    this.tokens = estimateTokens(this.items);
  }

  /** The items to send, oldest first. Callers must not mutate them. */
  snapshot(): readonly ResponseItem[] {
    return this.items;
  }

  /** Estimated tokens of the whole history. */
  estimatedTokens(): number {
    return this.tokens;
  }
}
