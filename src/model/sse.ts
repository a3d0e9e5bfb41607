/**
 * Server-sent events from a fetch body, with an idle timeout: a stream that sends nothing for
 * `idleMs` is treated as dropped so the turn can be retried instead of hanging forever.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ModelError } from "./errors.js";

export async function* readSse(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  signal: AbortSignal,
  onIdle?: (err: ModelError) => void,
): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (msg) => queue.push(msg) });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const chunk = await readWithTimeout(reader, idleMs, signal).catch((err: unknown) => {
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
    reader.cancel().catch(() => undefined);
  }
}

async function readWithTimeout(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  idleMs: number,
  signal: AbortSignal,
): ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]> {
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ModelError("retryable", `idle timeout waiting for SSE (${idleMs} ms)`, { streamDisconnected: true })),
      idleMs,
    );
  });
  try {
    return await Promise.race([reader.read(), idle]);
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
