/**
 * The hosted web search: how the user configures it, what the model's `web_search_call` items
 * say it did, and the one-line description front ends show for it. The search itself runs at
 * the provider; the client only offers the tool, shows the calls and keeps them in history.
 */

/** `web_search` in config.toml: off, the provider's cached index, its indexed web, or the live web. */
export const WEB_SEARCH_MODES = ["disabled", "cached", "indexed", "live"] as const;
export type WebSearchMode = (typeof WEB_SEARCH_MODES)[number];

/** `[tools.web_search]`: narrows what the hosted tool searches. */
export interface WebSearchToolOptions {
  contextSize?: "low" | "medium" | "high";
  allowedDomains?: string[];
  location?: { country?: string; region?: string; city?: string; timezone?: string };
}

/** Web search as a session offers it (never "disabled": then there is no tool at all). */
export interface WebSearchSettings extends WebSearchToolOptions {
  mode: Exclude<WebSearchMode, "disabled">;
}

/**
 * What a search call did, as the Responses API reports it. Only these fields are kept (the wire
 * may add sources and other bookkeeping); an action of a kind we do not know becomes `other`.
 */
export type WebSearchAction =
  | { type: "search"; query?: string; queries?: string[] }
  | { type: "open_page"; url?: string }
  | { type: "find_in_page"; url?: string; pattern?: string }
  | { type: "other" };

type Json = Record<string, unknown>;

/** The known fields of a wire action, in the order they are written back; null for no action at all. */
export function parseWebSearchAction(raw: unknown): WebSearchAction | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const a = raw as Json;
  const text = (key: string): Json => (typeof a[key] === "string" ? { [key]: a[key] } : {});
  switch (a.type) {
    case "search": {
      const queries = Array.isArray(a.queries) ? a.queries.filter((q): q is string => typeof q === "string") : null;
      return { type: "search", ...text("query"), ...(queries ? { queries } : {}) };
    }
    case "open_page":
      return { type: "open_page", ...text("url") };
    case "find_in_page":
      return { type: "find_in_page", ...text("url"), ...text("pattern") };
    default:
      return { type: "other" };
  }
}

/**
 * The one line that says what a call did: the query (or the first of several, marked with
 * "..."), the page opened, or `'pattern' in url`. Empty when the action says nothing.
 */
export function webSearchActionDetail(action: WebSearchAction): string {
  switch (action.type) {
    case "search": {
      if (action.query) return action.query;
      const [first = "", ...rest] = action.queries ?? [];
      return rest.length > 0 && first !== "" ? `${first} ...` : first;
    }
    case "open_page":
      return action.url ?? "";
    case "find_in_page":
      if (action.pattern !== undefined) return action.url !== undefined ? `'${action.pattern}' in ${action.url}` : `'${action.pattern}'`;
      return action.url ?? "";
    case "other":
      return "";
  }
}
