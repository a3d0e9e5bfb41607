/** Timeouts for MCP requests, and durations spelled the way the reference prints them. */

/** Node timers overflow past 2^31-1 ms (about 24.8 days); longer timeouts are clamped to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function secondsToMs(sec: number): number {
  return Math.min(Math.max(0, sec * 1000), MAX_TIMER_MS);
}

/** The SDK's own request timeout: a little later than ours, so ours (with the reference's wording) fires first. */
export function sdkTimeoutMs(ms: number): number {
  return Math.min(ms + 1_000, MAX_TIMER_MS);
}

/** A duration as Rust's `Debug` prints it, e.g. "10s", "1.5s", "500ms": the reference's messages use it. */
export function formatDuration(ms: number): string {
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(3))}s`;
  if (ms >= 1) return `${Number(ms.toFixed(3))}ms`;
  return `${Math.round(ms * 1000)}µs`;
}

export class McpTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpTimeoutError";
  }
}

/**
 * Runs `work` with a signal that aborts when `ms` pass (with an McpTimeoutError carrying
 * `message`) or when `outer` aborts. The SDK turns an aborted request into a rejection with the
 * abort reason and tells the server the request was cancelled.
 */
export async function withDeadline<T>(
  ms: number,
  message: string,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timeout = new McpTimeoutError(message);
  const timer = setTimeout(() => controller.abort(timeout), ms);
  const onOuterAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  const reason = (): Error => (controller.signal.reason instanceof Error ? controller.signal.reason : timeout);
  try {
    return await Promise.race([
      work(controller.signal),
      new Promise<never>((_, reject) => {
        if (controller.signal.aborted) reject(reason());
        else controller.signal.addEventListener("abort", () => reject(reason()), { once: true });
      }),
    ]);
  } catch (err) {
    // The SDK rejects aborted requests with its own wrapper; report why we aborted instead.
    throw controller.signal.aborted ? reason() : err;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}
