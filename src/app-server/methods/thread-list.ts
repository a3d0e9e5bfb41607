/**
 * `thread/list`: recorded threads, newest first by creation (or by last update), read one file
 * head at a time until the page is full, with the reference's filters: source kinds (interactive
 * ones by default: the UI's and IDE clients'), providers, folders, archived, a search term. The
 * cursor is the position after the page.
 */
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import type { ThreadSummary } from "../../protocol/threads.js";
import { threadReader } from "../../host/recorded-threads.js";
import type { Method } from "../server.js";
import { isSubAgentKind, sourceKinds, threadFromSummary } from "../thread-objects.js";

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 200;
const INTERACTIVE = ["cli", "vscode", "appServer"];
const SORT_KEYS = ["created_at", "updated_at", "recency_at", "section_position"] as const;

function cursorOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const n = /^o:(\d+)$/.exec(cursor)?.[1];
  if (n === undefined) throw invalidRequest(`Invalid request: unknown cursor ${JSON.stringify(cursor)}`);
  return Number(n);
}

export const listThreads: Method = async ({ server }, params) => {
  const limit = Math.min(params.optionalInteger("limit", 1) ?? DEFAULT_LIMIT, MAX_LIMIT);
  const offset = cursorOffset(params.optionalString("cursor"));
  const sortKey = params.optionalEnum("sortKey", SORT_KEYS) ?? "created_at";
  const ascending = params.optionalEnum("sortDirection", ["asc", "desc"] as const) === "asc";
  const kinds = params.optionalStrings("sourceKinds");
  const allowedKinds = new Set(kinds && kinds.length > 0 ? kinds : INTERACTIVE);
  const providers = params.optionalStrings("modelProviders");
  const cwdParam = params.raw("cwd");
  const cwds = typeof cwdParam === "string" ? [cwdParam] : (params.optionalStrings("cwd") ?? null);
  const search = params.optionalString("searchTerm")?.toLowerCase();
  const archived = params.optionalBoolean("archived") === true;

  const matches = (s: ThreadSummary): boolean =>
    sourceKinds(s.source).some((kind) => allowedKinds.has(kind)) &&
    (!providers || providers.length === 0 || (s.modelProvider !== null && providers.includes(s.modelProvider))) &&
    (cwds === null || (s.cwd !== null && cwds.includes(s.cwd))) &&
    (search === undefined || `${s.name ?? ""}\n${s.firstPrompt ?? ""}`.toLowerCase().includes(search));

  const includeSubAgents = [...allowedKinds].some(isSubAgentKind);
  const reader = threadReader({ codexHome: server.codexHome, archived, includeSubAgents, order: sortKey === "updated_at" ? "updated" : "created" });
  const found: ThreadSummary[] = [];
  // Ascending order needs the whole list; newest first stops once the page (and one more) is read.
  const wanted = ascending ? Infinity : offset + limit + 1;
  for (let next = reader.next(); !next.done && found.length < wanted; next = reader.next()) {
    if (matches(next.value)) found.push(next.value);
  }
  if (ascending) found.reverse();
  const page = found.slice(offset, offset + limit);
  const more = found.length > offset + limit;
  const data = page.map((summary) => {
    const live = server.thread(summary.id);
    return threadFromSummary(summary, live ? live.threadStatus : { type: "notLoaded" });
  });
  return { data, nextCursor: more ? `o:${offset + limit}` : null, backwardsCursor: page.length > 0 ? `o:${Math.max(0, offset - limit)}` : null };
};
