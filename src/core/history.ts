/**
 * The conversation as the model sees it: an append-only list of response items. Appending
 * (never rewriting) keeps every follow-up request's prefix byte-identical to the previous one.
 * Every append is reported to the listener (the rollout recorder) at the moment it happens, so
 * the session file always holds exactly what the next request would resend. Compaction (and a
 * rollback) replace the whole list at once; whoever replaces it records why.
 */
import type { ResponseItem } from "../protocol/items.js";

export class ConversationHistory {
  private items: ResponseItem[] = [];

  constructor(private readonly onAppend: (items: readonly ResponseItem[]) => void = () => {}) {}

  append(...items: ResponseItem[]): void {
    if (items.length === 0) return;
    for (const item of items) this.items.push(item);
    this.onAppend(items);
  }

  /** Puts back items recorded by an earlier process; they are on disk already, so not reported. */
  restore(items: readonly ResponseItem[]): void {
    // A loop, not push(...items): a long session can exceed the engine's argument limit.
    for (const item of items) this.items.push(item);
  }

  /** Replaces everything (a compaction's new history, a rollback's shorter one); not reported as appends. */
  replace(items: readonly ResponseItem[]): void {
    this.items = [...items];
  }

  /** The items to send, oldest first. Callers must not mutate them. */
  snapshot(): readonly ResponseItem[] {
    return this.items;
  }
}
