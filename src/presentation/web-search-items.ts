/**
 * `exec --json` items for hosted web searches, as the reference's exec writes them: the begin
 * event opens a `web_search` item (empty query, action `other`), the end event completes the
 * same item with the search's description and action. The reference writes such an item with
 * two `id` keys (the stream's `item_N`, then the search's own id, which is the one JSON parsers
 * keep); `threadEventJson` reproduces those bytes.
 */
import type { EventMsg } from "../protocol/events.js";
import type { ThreadEvent } from "../protocol/thread-events.js";

type WebSearchEventMsg = Extract<EventMsg, { type: "web_search_begin" | "web_search_end" }>;

/** Keeps the item id of each search between its begin and end events. */
export class WebSearchItems {
  private readonly open = new Map<string, string>();

  constructor(private readonly nextItemId: () => string) {}

  map(msg: WebSearchEventMsg): ThreadEvent {
    if (msg.type === "web_search_begin") {
      const id = this.nextItemId();
      this.open.set(msg.call_id, id);
      return { type: "item.started", item: { id, type: "web_search", search_id: msg.call_id, query: "", action: { type: "other" } } };
    }
    const id = this.open.get(msg.call_id) ?? this.nextItemId();
    this.open.delete(msg.call_id);
    return { type: "item.completed", item: { id, type: "web_search", search_id: msg.call_id, query: msg.query, action: msg.action } };
  }
}

const SEARCH_ID_KEY = `"type":"web_search","search_id":`;

/** One `exec --json` line (without its newline). */
export function threadEventJson(event: ThreadEvent): string {
  const json = JSON.stringify(event);
  if (!("item" in event) || event.item.type !== "web_search") return json;
  // The item's keys come first in a fixed order, so this is the item's own key, never text.
  return json.replace(SEARCH_ID_KEY, `"type":"web_search","id":`);
}

