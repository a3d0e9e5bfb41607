/**
 * Thread names, kept where the reference keeps them: `$CODEX_HOME/session_index.jsonl`, one
 * `{"id", "thread_name", "updated_at"}` object per line, appended on every rename, the last line
 * for an id winning. Both programs read and append the same file, so a name given in one is
 * found by the other (`resume NAME`, `archive NAME`).
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const THREAD_NAME_INDEX = "session_index.jsonl";
/** Longer names are refused: they are for finding a thread again, not for notes. */
export const MAX_THREAD_NAME_LENGTH = 100;

export interface ThreadNameEntry {
  id: string;
  name: string;
  /** ISO 8601 UTC. */
  updatedAt: string;
}

/** What is wrong with `name` as a thread name, or null. */
export function threadNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === "") return "a thread name cannot be empty";
  if (trimmed.length > MAX_THREAD_NAME_LENGTH) return `a thread name is at most ${MAX_THREAD_NAME_LENGTH} characters`;
  if (/[\n\r\t]/.test(trimmed)) return "a thread name is one line";
  return null;
}

/** Appends a rename; `name` must pass `threadNameProblem`. */
export function setThreadName(codexHome: string, id: string, name: string, now = new Date()): ThreadNameEntry {
  const entry = { id, thread_name: name.trim(), updated_at: now.toISOString() };
  mkdirSync(codexHome, { recursive: true });
  // One short line written with O_APPEND lands whole even when another process appends too.
  appendFileSync(join(codexHome, THREAD_NAME_INDEX), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  return { id, name: entry.thread_name, updatedAt: entry.updated_at };
}

/** Every thread's current name (the last entry for each id); unreadable lines are skipped. */
export function threadNames(codexHome: string): Map<string, ThreadNameEntry> {
  const names = new Map<string, ThreadNameEntry>();
  let text: string;
  try {
    text = readFileSync(join(codexHome, THREAD_NAME_INDEX), "utf8");
  } catch {
    return names;
  }
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as { id?: unknown; thread_name?: unknown; updated_at?: unknown };
      if (typeof value.id !== "string" || typeof value.thread_name !== "string") continue;
      const id = value.id.toLowerCase();
      names.delete(id); // re-inserted last, so the map keeps the order of the latest renames
      names.set(id, { id, name: value.thread_name, updatedAt: typeof value.updated_at === "string" ? value.updated_at : "" });
    } catch {
      // a torn or foreign line names nothing
    }
  }
  return names;
}

/** The ids currently named `name`, most recently named first. */
export function idsNamed(codexHome: string, name: string): string[] {
  const wanted = name.trim();
  return [...threadNames(codexHome).values()]
    .filter((e) => e.name === wanted)
    .reverse()
    .map((e) => e.id);
}
