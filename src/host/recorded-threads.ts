/**
 * Recorded threads as front ends list and copy them without opening one: a listing (the
 * `sessions` command), a lazy newest-first reader (the session picker reads one file head at a
 * time), a fork into a new thread file (the `fork` command), and the events a thread's file
 * redraws its conversation from (the UI's redraw after a backtrack). Nothing here talks to a
 * model.
 */
import { join } from "node:path";
import type { EventMsg } from "../protocol/events.js";
import type { ThreadSummary, ThreadTarget } from "../protocol/threads.js";
import { SESSIONS_SUBDIR } from "../rollout/format.js";
import { forkThread } from "../rollout/fork.js";
import { iterateThreads, listThreads } from "../rollout/list.js";
import { loadThread } from "../rollout/reconstruct.js";
import { resolveTarget, ThreadNotFoundError } from "../core/open-thread.js";
import { packageVersion } from "../util/version.js";

export { ThreadNotFoundError };

export interface ThreadQuery {
  codexHome: string;
  /** Only threads recorded in this folder; absent: every folder's. */
  cwd?: string;
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
  return iterateThreads(query.codexHome, { cwd: query.cwd });
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
