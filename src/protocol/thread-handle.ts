/**
 * A front end's whole view of one thread: submit ops, read events. The in-process core
 * (core/session.ts) is one implementation; a client of a remote app-server can be another,
 * since nothing here is more than the protocol's ops and events.
 */
import type { Event } from "./events.js";
import type { Op } from "./ops.js";

/** A reader of a thread's events, in order; ends (null) after `shutdown_complete`. */
export interface EventStream extends AsyncIterable<Event> {
  next(): Promise<Event | null>;
  /** Stops reading; events not yet read are dropped. */
  unsubscribe(): void;
}

export interface ThreadHandle {
  readonly threadId: string;
  /** Queues an op; returns its submission id, which every event it causes carries. */
  submit(op: Op): string;
  /** The events from the thread's start (session_configured first), for the one reader that owns the thread. */
  nextEvent(): Promise<Event | null>;
  /** Another reader, from now on. */
  subscribe(): EventStream;
}
