/**
 * The events of the hosted web searches in one response: `web_search_begin` when the provider
 * announces a search, `web_search_end` with what it did once the item is done. A provider that
 * only reports finished items still gets a begin first, so front ends always see a pair.
 */
import type { EventMsg } from "../protocol/events.js";
import { webSearchActionDetail, type WebSearchAction } from "../protocol/web-search.js";

export class WebSearchCalls {
  private readonly begun = new Set<string>();

  constructor(private readonly emit: (msg: EventMsg) => void) {}

  begin(callId: string): void {
    if (this.begun.has(callId)) return;
    this.begun.add(callId);
    this.emit({ type: "web_search_begin", call_id: callId });
  }

  end(callId: string, action: WebSearchAction | undefined): void {
    this.begin(callId);
    this.begun.delete(callId);
    const done = action ?? { type: "other" };
    this.emit({ type: "web_search_end", call_id: callId, query: webSearchActionDetail(done), action: done });
  }
}
