/**
 * `session/list`: the recorded threads a person drove (the terminal UI, an editor), newest first,
 * so an editor can offer them for `session/load`; only those recorded in `cwd` when it is given.
 * Pages of 50; the cursor is the last id of a page (the next page starts after it); a cursor
 * that names no listed session is refused rather than answered with an empty page.
 */
import { RequestError, type ListSessionsResponse, type SessionInfo } from "@agentclientprotocol/sdk";
import { threadReader } from "../host/recorded-threads.js";

const PAGE = 50;
/** A title from the first prompt keeps to one line of this many characters. */
const TITLE_CHARS = 80;

export function listSessions(codexHome: string, cwd: string | null, cursor: string | null): ListSessionsResponse {
  const reader = threadReader({ codexHome, ...(cwd !== null ? { cwd } : {}), interactiveOnly: true });
  const sessions: SessionInfo[] = [];
  let skipping = cursor !== null;
  for (let next = reader.next(); !next.done; next = reader.next()) {
    const thread = next.value;
    if (skipping) {
      skipping = thread.id !== cursor;
      continue;
    }
    if (thread.cwd === null) continue;
    if (sessions.length === PAGE) return { sessions, nextCursor: sessions.at(-1)?.sessionId ?? null };
    const title = thread.name ?? titleOf(thread.firstPrompt);
    sessions.push({ sessionId: thread.id, cwd: thread.cwd, updatedAt: thread.updatedAt, ...(title !== null ? { title } : {}) });
  }
  if (skipping) throw RequestError.invalidParams({ cursor }, `the cursor '${cursor ?? ""}' names no session listed here (it may have been deleted since); list again without a cursor`);
  return { sessions };
}

/** A session's title from its first prompt: the first line, shortened. */
export function titleOf(text: string | null): string | null {
  const line = text?.trim().split("\n")[0]?.trim();
  if (!line) return null;
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}
