/**
 * Finding one recorded thread from what a user typed: its id (a UUID, which wins when the text
 * parses as one, as in the reference) or its name (session_index.jsonl, the most recently named
 * thread first), among active threads (`sessions/`) or archived ones (`archived_sessions/`).
 * A name only finds threads a person drove unless `interactiveOnly` is false, as the reference's
 * `resume NAME` and `archive NAME` do.
 */
import { findArchivedThreadPath } from "./archive.js";
import { isThreadId } from "./format.js";
import { findThreadPath, isInteractiveSource, summaryOf } from "./list.js";
import { idsNamed } from "./thread-names.js";

export interface FoundThread {
  id: string;
  path: string;
  /** How it was found: the name typed, or null for an id. */
  name: string | null;
}

export interface LookupOptions {
  where: "active" | "archived";
  interactiveOnly: boolean;
}

export function lookupThread(codexHome: string, idOrName: string, options: LookupOptions): FoundThread | null {
  const pathOf = (id: string): string | null => (options.where === "active" ? findThreadPath(codexHome, id) : findArchivedThreadPath(codexHome, id));
  if (isThreadId(idOrName)) {
    const path = pathOf(idOrName);
    return path === null ? null : { id: idOrName.toLowerCase(), path, name: null };
  }
  for (const id of idsNamed(codexHome, idOrName)) {
    const path = pathOf(id);
    if (path === null) continue;
    if (options.interactiveOnly && !isInteractiveSource(summaryOf(path, id).source)) continue;
    return { id, path, name: idOrName.trim() };
  }
  return null;
}
