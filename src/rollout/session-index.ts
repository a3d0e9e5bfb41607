/**
 * Thread names, kept where the reference keeps them: `$CODEX_HOME/session_index.jsonl`, one
 * `{"id", "thread_name", "updated_at"}` line per rename, the last line for an id winning. The
 * file only grows by whole lines appended in one write, so readers never see half a name.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { readTextPrefix } from "../util/bounded-read.js";

const INDEX_FILE = "session_index.jsonl";
/** Only this much of the name index is read (a file that size holds about 100,000 renames). */
const MAX_INDEX_BYTES = 8 << 20;

export function setThreadName(codexHome: string, id: string, name: string): void {
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  const line = JSON.stringify({ id, thread_name: name, updated_at: new Date().toISOString() });
  appendFileSync(join(codexHome, INDEX_FILE), `${line}\n`, { mode: 0o600 });
}

/** Every named thread's current name, by id. */
export function threadNames(codexHome: string): Map<string, string> {
  const names = new Map<string, string>();
  let text: string;
  try {
    text = readTextPrefix(join(codexHome, INDEX_FILE), MAX_INDEX_BYTES).text;
  } catch {
    return names;
  }
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line) as { id?: unknown; thread_name?: unknown };
      if (typeof entry.id === "string" && typeof entry.thread_name === "string") names.set(entry.id, entry.thread_name);
    } catch {
      // a line another writer damaged: the others still count
    }
  }
  return names;
}
