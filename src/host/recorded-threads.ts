/**
 * Recorded threads as front ends list and copy them without opening one: a listing (the
 * `sessions` command), a lazy newest-first reader (the session picker reads one file head at a
 * time), a fork into a new thread file (the `fork` command), names, archiving, and the events a
 * thread's file redraws its conversation from (the UI's redraw after a backtrack, the
 * app-server's turns). Nothing here talks to a model.
 */
import { removeThreadStore } from "../undo/storage.js";
import { join } from "node:path";
import type { EventMsg } from "../protocol/events.js";
import type { ThreadSummary, ThreadTarget } from "../protocol/threads.js";
import { SESSIONS_SUBDIR } from "../rollout/format.js";
import { forkThread } from "../rollout/fork.js";
import { findThreadPath, iterateThreads, listThreads, summaryOf } from "../rollout/list.js";
import { loadThread } from "../rollout/reconstruct.js";
import { resolveTarget, ThreadNotFoundError } from "../core/open-thread.js";
import { packageVersion } from "../util/version.js";
import { archiveThreadFile, deleteThreadFile, findArchivedThreadPath, unarchiveThreadFile } from "../rollout/archive.js";
import { isThreadId } from "../rollout/format.js";
import { lookupThread, type FoundThread } from "../rollout/lookup.js";
import { setThreadName, threadNameProblem, threadNames } from "../rollout/thread-names.js";

export { isThreadId, threadNameProblem, threadNames };
export type { FoundThread };

export { ThreadNotFoundError };

export interface ThreadQuery {
  codexHome: string;
  /** Only threads recorded in this folder; absent: every folder's. */
  cwd?: string;
  /** Only threads a person drove (the interactive UI, an IDE), not exec runs. */
  interactiveOnly?: boolean;
  /** The archived threads instead of the others. */
  archived?: boolean;
  /** Also sub-agents' threads (left out otherwise: they are reached through their parent). */
  includeSubAgents?: boolean;
  /** Newest first by last write (default) or by creation. */
  order?: "updated" | "created";
}

/** Where a CODEX_HOME keeps its session files. */
export function sessionsFolder(codexHome: string): string {
  return join(codexHome, SESSIONS_SUBDIR);
}

/**
 * The events a front end redraws the thread recorded at `path` from, as a resume's
 * `initial_messages` gives them (see rollout/initial-messages.ts); throws when it cannot be read.
 */
export function recordedConversation(path: string): EventMsg[] {
  return loadThread(path).initialMessages;
}

/** The newest `limit` threads (0: all), newest first. */
export function recordedThreads(query: ThreadQuery, limit: number): ThreadSummary[] {
  return listThreads(query.codexHome, { cwd: query.cwd, limit });
}

/** Every recorded thread, newest first, read one file head at a time as the caller asks for more. */
export function threadReader(query: ThreadQuery): Iterator<ThreadSummary, void, undefined> {
  return iterateThreads(query.codexHome, { cwd: query.cwd, interactiveOnly: query.interactiveOnly === true, archived: query.archived, includeSubAgents: query.includeSubAgents, order: query.order });
}

/** What a recorded thread's head says, with its name (an archived one when `archived`); null when none is recorded under that id. */
export function recordedThreadSummary(codexHome: string, threadId: string, archived = false): ThreadSummary | null {
  const path = archived ? findArchivedThreadPath(codexHome, threadId) : findThreadPath(codexHome, threadId);
  if (path === null) return null;
  const summary = summaryOf(path, threadId.toLowerCase());
  summary.name = threadNames(codexHome).get(summary.id.toLowerCase())?.name ?? null;
  return summary;
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

/**
 * A recorded thread by id or name (names only find threads a person drove), active or archived;
 * null when there is none.
 */
export function findRecordedThread(codexHome: string, session: string, where: "active" | "archived"): FoundThread | null {
  return lookupThread(codexHome, session, { where, interactiveOnly: true });
}

/** Moves a found thread into `archived_sessions/`, back to `sessions/`, or removes it. */
export function archiveRecordedThread(codexHome: string, found: FoundThread): void {
  archiveThreadFile(codexHome, found.path);
}
export function unarchiveRecordedThread(codexHome: string, found: FoundThread): void {
  unarchiveThreadFile(codexHome, found.path);
}
/** Deletes a thread: its session file, and what undo kept for it. */
export function deleteRecordedThread(codexHome: string, found: FoundThread): void {
  deleteThreadFile(found.path);
  removeThreadStore(codexHome, found.id);
}

/** Names a thread (`/rename`); the trimmed name, or why it cannot be one. */
export function nameThread(codexHome: string, threadId: string, name: string): { name: string } | string {
  const problem = threadNameProblem(name);
  return problem ?? { name: setThreadName(codexHome, threadId, name).name };
}
