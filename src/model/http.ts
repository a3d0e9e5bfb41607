/**
 * One POST to a model endpoint with the provider's retry budget: connection failures, 5xx and
 * 429 are retried with backoff (honouring Retry-After); anything else is classified and thrown.
 * A connection refused on this machine gives up after a few quick tries: nothing is listening,
 * and waiting will not start the server. Returns the open response once the server accepted.
 */
import { ModelError, backoffMs, classifyServerError, isLocalRefusal, localRefusalError, parseRetryAfter } from "./errors.js";
import type { ModelProvider } from "./provider.js";
import type { RetryListener } from "./prompt.js";
import { errorText } from "./sse.js";
import { httpPost, type HttpResponse } from "./http-post.js";
import type { TelemetryRecorder } from "../telemetry/recorder.js";

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  provider: ModelProvider;
  signal: AbortSignal;
  /** Asked before each retry (see RetryListener); without it the provider's schedule applies. */
  onRetry?: RetryListener;
  /** Told about every attempt (`codex.api_request`). */
  telemetry?: TelemetryRecorder;
}

/** Retries of a connection refused on a loopback address before giving up. */
const LOCAL_REFUSAL_RETRIES = 2;

export async function postWithRetries(opts: PostOptions): Promise<HttpResponse> {
  const max = opts.provider.requestMaxRetries;
  for (let attempt = 0; ; attempt++) {
    let error: ModelError;
    const started = performance.now();
    const report = (status?: number, message?: string, cfRay?: unknown): void =>
      opts.telemetry?.apiRequest({
        attempt: attempt + 1,
        durationMs: performance.now() - started,
        ...(status !== undefined ? { status } : {}),
        ...(message !== undefined ? { error: message } : {}),
        ...(typeof cfRay === "string" ? { cfRay } : {}),
      });
    try {
      const res = await httpPost(opts.url, opts.headers, opts.body, opts.signal);
      if (res.status >= 200 && res.status < 300) {
        report(res.status, undefined, res.headers["cf-ray"]);
        return res;
      }
      error = await errorFromResponse(res);
      report(res.status, error.message, res.headers["cf-ray"]);
    } catch (err) {
      if (opts.signal.aborted) throw opts.signal.reason;
      error = new ModelError("retryable", `error sending request to ${opts.url}: ${errorText(err)}`);
      report(undefined, error.message);
      if (isLocalRefusal(opts.url, err) && attempt >= Math.min(max, LOCAL_REFUSAL_RETRIES)) throw localRefusalError(opts.provider, opts.url);
    }
    if (!error.retryable || attempt >= max) throw error;
    const delay = opts.onRetry ? opts.onRetry(error) : (error.options.retryAfterMs ?? backoffMs(attempt + 1));
    if (delay === null) throw error;
    await sleep(delay, opts.signal);
  }
}

async function errorFromResponse(res: HttpResponse): Promise<ModelError> {
  const text = await res.text().catch(() => "");
  let code: string | undefined;
  let message = text.trim() || res.statusText || `HTTP ${res.status}`;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string; code?: string | null; type?: string } };
    if (parsed.error) {
      message = parsed.error.message ?? message;
      code = parsed.error.code ?? parsed.error.type ?? undefined;
    }
  } catch {
    // Not JSON: keep the raw text as the message.
  }
  const retryAfter = res.headers["retry-after"];
  return classifyServerError(res.status, code, message, parseRetryAfter(typeof retryAfter === "string" ? retryAfter : null));
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
