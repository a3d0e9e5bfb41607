/**
 * Server-sent events from a response body, with an idle timeout: a stream that sends nothing for
 * `idleMs` is treated as dropped so the turn can be retried instead of hanging forever. The body
 * is any async iterable of bytes: Node's own response stream is read as it is, since turning it
 * into a web stream loads Node's web streams (about 3 ms of every run's start).
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ModelError } from "./errors.js";

/** A response body: bytes as they arrive, and a way to drop the connection where there is one. */
export type SseBody = AsyncIterable<Uint8Array> & { destroy?: () => void };

export async function* readSse(
  body: SseBody,
  idleMs: number,
  signal: AbortSignal,
  onIdle?: (err: ModelError) => void,
): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (msg) => queue.push(msg) });
  const chunks = body[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const chunk = await readWithTimeout(chunks, idleMs, signal).catch((err: unknown) => {
        if (err instanceof ModelError && err.message.startsWith("idle timeout")) onIdle?.(err);
        throw err;
      });
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      while (queue.length > 0) yield queue.shift() as EventSourceMessage;
    }
    parser.feed(decoder.decode());
    while (queue.length > 0) yield queue.shift() as EventSourceMessage;
  } finally {
    // Stops the download. Node's stream is destroyed directly: its iterator's return() would
    // wait for the read still pending after an idle timeout, and the socket would stay open.
    if (body.destroy) body.destroy();
    else chunks.return?.().catch(() => undefined);
  }
}

async function readWithTimeout(chunks: AsyncIterator<Uint8Array>, idleMs: number, signal: AbortSignal): Promise<IteratorResult<Uint8Array>> {
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ModelError("retryable", `idle timeout waiting for SSE (${idleMs} ms)`, { streamDisconnected: true })),
      idleMs,
    );
  });
  try {
    return await Promise.race([chunks.next(), idle]);
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    if (err instanceof ModelError) throw err;
    throw new ModelError("retryable", `stream disconnected before completion: ${errorText(err)}`, {
      streamDisconnected: true,
    });
  } finally {
    clearTimeout(timer);
  }
}

export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return err.message + cause;
  }
  return String(err);
}
