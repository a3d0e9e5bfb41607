/**
 * A sub-agent's thread as a front end's own thread: its events from the moment it opened, with
 * its session_configured (settings, lineage and conversation so far) first, as a user's thread
 * starts. The sub-agent's parent keeps owning it (it reads the thread's first stream and closes
 * it); this is a second reader, which must be taken before the thread is given any input.
 */
import type { Event } from "../protocol/events.js";
import type { ThreadHandle } from "../protocol/thread-handle.js";
import type { Session } from "../core/session.js";

export function followSubAgentThread(session: Session): ThreadHandle {
  const events = session.subscribe();
  let configured: Event | null = { id: "", msg: session.redrawEvent() };
  return {
    threadId: session.threadId,
    submit: (op) => session.submit(op),
    nextEvent: () => {
      const first = configured;
      configured = null;
      return first ? Promise.resolve(first) : events.next();
    },
    subscribe: () => session.subscribe(),
  };
}
