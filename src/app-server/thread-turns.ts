/**
 * A thread's turns as the protocol shows them, rebuilt from its session file (the events a
 * resume redraws), for `thread/read`, `thread/resume`, `thread/turns/list` and
 * `thread/items/list`: a loaded thread's (its running turn `inProgress`) or a recorded one's,
 * active or archived.
 */
import { invalidRequest } from "../app-server-protocol/jsonrpc.js";
import type { Turn } from "../app-server-protocol/v2.js";
import { recordedConversation, recordedThreadSummary } from "../host/recorded-threads.js";
import type { AppServer } from "./server.js";
import { turnsFromEvents } from "./thread-objects.js";

export function recordedTurns(threadId: string, path: string | null, liveTurnId: string | null): Turn[] {
  if (path === null) return [];
  try {
    return turnsFromEvents(threadId, recordedConversation(path), liveTurnId);
  } catch {
    // Not written yet (a new thread's file appears with its first turn).
    return [];
  }
}

/** The turns of thread `threadId`, loaded or recorded; the reference's error when there is no such thread. */
export function turnsOfThread(server: AppServer, threadId: string): Turn[] {
  const live = server.thread(threadId);
  const path = live ? server.threadObject(live).path : (recordedThreadSummary(server.codexHome, threadId) ?? recordedThreadSummary(server.codexHome, threadId, true))?.path;
  if (path === undefined) throw invalidRequest(`thread not found: ${threadId}`);
  return recordedTurns(threadId, path, live?.activeTurnId ?? null);
}
