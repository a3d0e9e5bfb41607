/**
 * Whether a session offers the hosted web search, and how: from `--search`, the top-level
 * `web_search` mode (a profile's included), the deprecated `[features]` switches, and the
 * `[tools.web_search]` table. As in the reference, search is on by default in `cached` mode
 * (the provider's index, no live fetches), and only the Responses wire can carry it.
 */
import type { TomlTable } from "./overrides.js";
import { isTable } from "./schema.js";
import { WEB_SEARCH_MODES, type WebSearchMode, type WebSearchSettings, type WebSearchToolOptions } from "../protocol/web-search.js";

/** The `[features]` names that used to switch web search, oldest spelling last. */
const DEPRECATED_FEATURES = ["web_search_request", "web_search_cached", "web_search"] as const;

export interface ResolvedWebSearch {
  /** null: the tool is not offered. */
  settings: WebSearchSettings | null;
  warnings: string[];
}

/**
 * `t` is the merged config (flags included: `--search` sets `web_search = "live"` there);
 * `wire` is the provider's.
 */
export function resolveWebSearch(t: TomlTable, wire: "responses" | "chat"): ResolvedWebSearch {
  const warnings: string[] = [];
  const features = isTable(t.features) ? t.features : {};
  for (const name of DEPRECATED_FEATURES) {
    if (name in features) {
      warnings.push(
        `[features].${name} is deprecated: web search is on by default (cached). Set the top-level web_search to "live", "indexed", "cached" or "disabled" (here or in a profile) to choose.`,
      );
    }
  }
  const { mode, explicit } = webSearchMode(t, features);
  if (mode === "disabled") return { settings: null, warnings };
  if (wire === "chat") {
    // The default needs no word; a search the user asked for does.
    if (explicit) warnings.push("web search is not offered: the provider uses the Chat Completions wire API, which has no hosted web search tool (it needs wire_api = \"responses\")");
    return { settings: null, warnings };
  }
  return { settings: { mode, ...toolOptions(t) }, warnings };
}

function webSearchMode(t: TomlTable, features: TomlTable): { mode: WebSearchMode; explicit: boolean } {
  const top = t.web_search;
  if (typeof top === "string" && (WEB_SEARCH_MODES as readonly string[]).includes(top)) return { mode: top as WebSearchMode, explicit: true };
  // Of the old switches, cached wins over live when both are on, as in the reference.
  if (features.web_search_cached === true) return { mode: "cached", explicit: true };
  if (features.web_search_request === true || features.web_search === true) return { mode: "live", explicit: true };
  return { mode: "cached", explicit: false };
}

/** `[tools.web_search]` as a table; the older `tools.web_search = true|false` changes nothing. */
function toolOptions(t: TomlTable): WebSearchToolOptions {
  const tools = isTable(t.tools) ? t.tools : {};
  const table = isTable(tools.web_search) ? tools.web_search : null;
  if (!table) return {};
  const out: WebSearchToolOptions = {};
  const size = table.context_size;
  if (size === "low" || size === "medium" || size === "high") out.contextSize = size;
  if (Array.isArray(table.allowed_domains)) out.allowedDomains = table.allowed_domains.filter((d): d is string => typeof d === "string");
  if (isTable(table.location)) {
    const loc = table.location;
    const location: NonNullable<WebSearchToolOptions["location"]> = {};
    for (const key of ["country", "region", "city", "timezone"] as const) {
      const value = loc[key];
      if (typeof value === "string") location[key] = value;
    }
    out.location = location;
  }
  return out;
}
