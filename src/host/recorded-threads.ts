/**
 * Recorded threads as front ends list and copy them without opening one: a listing (the
 * `sessions` command), a lazy newest-first reader (the session picker reads one file head at a
 * time), a fork into a new thread file (the `fork` command), and for the app-server a thread's
 * events turn by turn, its name, and archiving. Nothing here talks to a model.
 */
import { join } from "node:path";
import type { ThreadSummary, ThreadTarget } from "../protocol/threads.js";
import { SESSIONS_SUBDIR } from "../rollout/format.js";
import { forkThread } from "../rollout/fork.js";
import { findThreadPath, iterateThreads, listThreads, readSummary } from "../rollout/list.js";
import { statSync } from "node:fs";
import { archiveThread, unarchiveThread } from "../rollout/archive.js";
import { setThreadName, threadNames } from "../rollout/session-index.js";
import { recordedEvents, type RecordedEvent, type RecordedEvents } from "../rollout/recorded-events.js";
import { resolveTarget, ThreadNotFoundError } from "../core/open-thread.js";
import { packageVersion } from "../util/version.js";

export { ThreadNotFoundError, archiveThread, unarchiveThread, setThreadName, threadNames, recordedEvents };
export type { RecordedEvent, RecordedEvents };

export interface ThreadQuery {
  codexHome: string;
  /** Only threads recorded in this folder; absent: every folder's. */
  cwd?: string;
  /** The archived threads instead of the others. */
  archived?: boolean;
  /** Newest first by last write (default) or by creation. */
  order?: "updated" | "created";
}

/** Where a CODEX_HOME keeps its session files. */
export function sessionsFolder(codexHome: string): string {
  return join(codexHome, SESSIONS_SUBDIR);
}

/** The newest `limit` threads (0: all), newest first. */
export function recordedThreads(query: ThreadQuery, limit: number): ThreadSummary[] {
  return listThreads(query.codexHome, { cwd: query.cwd, archived: query.archived, limit });
}

/** Every recorded thread, newest first, read one file head at a time as the caller asks for more. */
export function threadReader(query: ThreadQuery): Iterator<ThreadSummary, void, undefined> {
  return iterateThreads(query.codexHome, { cwd: query.cwd, archived: query.archived, order: query.order });
}

/** What a recorded thread's head says (an archived one when `archived`); null when none is recorded under that id. */
export function recordedThreadSummary(codexHome: string, threadId: string, archived = false): ThreadSummary | null {
  const path = findThreadPath(codexHome, threadId, archived);
  if (path === null) return null;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    return null;
  }
  return readSummary({ path, threadId: threadId.toLowerCase(), mtimeMs });
}

/** The file of a recorded thread (an archived one when `archived`), or null when none is recorded under that id. */
export function recordedThreadPath(codexHome: string, threadId: string, archived = false): string | null {
  return findThreadPath(codexHome, threadId, archived);
}

export interface ForkedRecord {
  parentId: string;
  threadId: string;
  path: string;
  warnings: string[];
}

/**
 * Copies the thread `target` names into a new thread file recorded in `cwd`; null when `--last`
 * finds nothing to fork. Throws ThreadNotFoundError (meant for the user) for a bad or unknown id.
 */
export function forkRecordedThread(codexHome: string, cwd: string, target: ThreadTarget, originator: string): ForkedRecord | null {
  const path = resolveTarget({ codexHome, cwd }, target);
  if (path === null) return null;
  const fork = forkThread({ codexHome, sourcePath: path, cwd, originator, cliVersion: packageVersion(), source: "cli" });
  return { parentId: fork.parentId, threadId: fork.threadId, path: fork.path, warnings: fork.warnings };
}
