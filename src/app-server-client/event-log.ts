/**
 * A thread's events as a ThreadHandle hands them out: the owner reads every event from the
 * start (`next`), other readers from the moment they subscribe, each at its own pace; every
 * reader ends (null) after `shutdown_complete`.
 */
import type { Event } from "../protocol/events.js";
import type { EventStream } from "../protocol/thread-handle.js";

class Reader implements EventStream {
  private readonly queued: Event[] = [];
  private waiting: ((event: Event | null) => void) | null = null;
  private done = false;

  constructor(private readonly detach: (reader: Reader) => void) {}

  push(event: Event): void {
    if (this.done) return;
    if (event.msg.type === "shutdown_complete") this.done = true;
    const wake = this.waiting;
    this.waiting = null;
    if (wake) wake(event);
    else this.queued.push(event);
  }

  next(): Promise<Event | null> {
    const event = this.queued.shift();
    if (event) return Promise.resolve(event);
    if (this.done) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  unsubscribe(): void {
    this.done = true;
    this.queued.length = 0;
    this.waiting?.(null);
    this.waiting = null;
    this.detach(this);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Event> {
    for (let event = await this.next(); event; event = await this.next()) yield event;
  }
}

export class EventLog {
  private readonly readers = new Set<Reader>();
  private readonly owner: Reader;
  private ended = false;

  constructor() {
    this.owner = this.subscribe();
  }

  get closed(): boolean {
    return this.ended;
  }

  emit(event: Event): void {
    if (this.ended) return;
    if (event.msg.type === "shutdown_complete") this.ended = true;
    for (const reader of this.readers) reader.push(event);
  }

  /** The owner's reader: every event from the start. */
  next(): Promise<Event | null> {
    return this.owner.next();
  }

  subscribe(): Reader {
    const reader = new Reader((r) => this.readers.delete(r));
    this.readers.add(reader);
    return reader;
  }
}
