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
}
