/**
 * Fan-out of a session's events to any number of readers. Each subscription is its own queue:
 * it receives every event published from the moment it subscribed, in order, and a slow
 * reader never holds back a fast one. Closing the bus ends every subscription once drained.
 */
import type { Event } from "../protocol/events.js";
import { AsyncQueue } from "./async-queue.js";

export interface EventSubscription extends AsyncIterable<Event> {
  /** The next event, or null once the session has shut down and everything was read. */
  next(): Promise<Event | null>;
  /** Stops receiving; events already queued for this subscription are dropped. */
  unsubscribe(): void;
}

export class EventBus {
  private readonly queues = new Set<AsyncQueue<Event>>();
  private closed = false;

  publish(event: Event): void {
    for (const queue of this.queues) queue.push(event);
  }

  subscribe(): EventSubscription {
    const queue = new AsyncQueue<Event>();
    if (this.closed) queue.close();
    else this.queues.add(queue);
    return {
      next: () => queue.next(),
      unsubscribe: () => {
        this.queues.delete(queue);
        queue.close();
      },
      [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
    };
  }

  close(): void {
    this.closed = true;
    for (const queue of this.queues) queue.close();
    this.queues.clear();
  }
}
