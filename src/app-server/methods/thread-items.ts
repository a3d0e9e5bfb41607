/**
 * `thread/items/list`: a thread's items (loaded or recorded) one page at a time, across the
 * thread or within one turn (`turnId`), oldest first by default (`sortDirection: "desc"` for
 * newest first). The cursor is a position between two items: reading ascending takes the items
 * after it, descending the ones before it, so `backwardsCursor` (the page's start) read the
 * other way goes back over what came before the page. An item anchor (`{type: "item", itemId}`,
 * with `turnId`) starts right after (ascending) or before (descending) that item. Items read
 * back carry no start and end times.
 */
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import type { Params } from "../params.js";
import type { Method } from "../server.js";
import { turnsOfThread } from "../thread-turns.js";

const DEFAULT_LIMIT = 100;
const CURSOR = /^i:(\d+)$/;

interface Entry {
  turnId: string;
  item: { id: string };
  startedAtMs: number | null;
  completedAtMs: number | null;
}

/** Where the page starts: a position in the oldest-first list (0 … length). */
function startOf(params: Params, entries: Entry[], ascending: boolean, turnId: string | undefined): number {
  const raw = params.raw("cursor");
  if (raw === undefined || raw === null) return ascending ? 0 : entries.length;
  if (typeof raw === "string") {
    const at = Number(CURSOR.exec(raw)?.[1] ?? NaN);
    if (!Number.isInteger(at) || at > entries.length) throw invalidRequest(`Invalid request: unknown cursor ${JSON.stringify(raw)}`);
    return at;
  }
  const anchor = raw as { type?: unknown; itemId?: unknown };
  if (anchor.type !== "item" || typeof anchor.itemId !== "string") throw invalidRequest("Invalid request: `cursor` must be a cursor string or `{type: \"item\", itemId}`");
  if (turnId === undefined) throw invalidRequest("an item anchor needs a non-empty `turnId`");
  const index = entries.findIndex((entry) => entry.item.id === anchor.itemId);
  if (index < 0) throw invalidRequest(`item not found in turn ${turnId}: ${anchor.itemId}`);
  return ascending ? index + 1 : index;
}

const listItems: Method = ({ server }, params) => {
  const threadId = params.string("threadId");
  const turnId = params.optionalString("turnId");
  const ascending = (params.optionalEnum("sortDirection", ["asc", "desc"] as const) ?? "asc") === "asc";
  const limit = params.optionalInteger("limit", 1) ?? DEFAULT_LIMIT;
  const turns = turnsOfThread(server, threadId).filter((turn) => turnId === undefined || turn.id === turnId);
  if (turnId !== undefined && turns.length === 0) throw invalidRequest(`turn not found in thread ${threadId}: ${turnId}`);
  const entries: Entry[] = turns.flatMap((turn) => (turn.items as Array<{ id: string }>).map((item) => ({ turnId: turn.id, item, startedAtMs: null, completedAtMs: null })));
  const start = startOf(params, entries, ascending, turnId);
  const from = ascending ? start : Math.max(0, start - limit);
  const to = ascending ? Math.min(entries.length, start + limit) : start;
  const page = entries.slice(from, to);
  if (!ascending) page.reverse();
  const end = ascending ? to : from;
  const more = ascending ? to < entries.length : from > 0;
  return Promise.resolve({ data: page, nextCursor: more ? `i:${end}` : null, backwardsCursor: page.length > 0 ? `i:${start}` : null });
};

export const threadItemMethods: Readonly<Record<string, Method>> = {
  "thread/items/list": listItems,
};
