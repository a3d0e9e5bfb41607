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
import { parseRateLimitHeaders } from "./rate-limits.js";
import { sleep } from "../util/sleep.js";

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
  /** On a 401, called once for fresh headers (a refreshed ChatGPT login); the request is retried with them. */
  onUnauthorized?: () => Promise<Record<string, string>>;
}

/** Retries of a connection refused on a loopback address before giving up. */
const LOCAL_REFUSAL_RETRIES = 2;

export async function postWithRetries(opts: PostOptions): Promise<HttpResponse> {
  const max = opts.provider.requestMaxRetries;
  let headers = opts.headers;
  let recoverUnauthorized = opts.onUnauthorized;
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
      const res = await httpPost(opts.url, headers, opts.body, opts.signal);
      if (res.status >= 200 && res.status < 300) {
        report(res.status, undefined, res.headers["cf-ray"]);
        return res;
      }
      if (res.status === 401 && recoverUnauthorized) {
        await res.text().catch(() => "");
        report(res.status, "unauthorized");
        const recover = recoverUnauthorized;
        recoverUnauthorized = undefined;
        headers = await recover();
        attempt--; // The retry with new credentials does not use up the retry budget.
        continue;
      }
      error = await errorFromResponse(res, opts.onUnauthorized !== undefined);
      if (res.status === 401 && opts.onUnauthorized) {
        // Refreshed credentials were refused too: only signing in again can help.
        error = new ModelError("unauthorized", "The server rejected the login even after refreshing it (HTTP 401). Sign in again with `codex-ts login`.", { httpStatus: 401 });
      }
      report(res.status, error.message, res.headers["cf-ray"]);
    } catch (err) {
      if (opts.signal.aborted) throw opts.signal.reason;
      if (err instanceof ModelError) throw err; // The credentials could not be renewed.
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

/**
 * The error a refused request stands for. `signedIn`: the request carried a ChatGPT login (the
 * one kind of credentials that can be refreshed), so a refusal is about the login, not a key.
 */
async function errorFromResponse(res: HttpResponse, signedIn: boolean): Promise<ModelError> {
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
  let err = classifyServerError(res.status, code, message, parseRetryAfter(typeof retryAfter === "string" ? retryAfter : null));
  if (signedIn && err.kind === "unauthorized") {
    err = new ModelError(
      "unauthorized",
      `The Codex backend refused this ChatGPT login (HTTP ${res.status}: ${message}). Check that your plan includes Codex, or sign in again with \`codex-ts login\`.`,
      { httpStatus: res.status },
    );
  }
  const rateLimits = parseRateLimitHeaders(res.headers);
  return rateLimits ? new ModelError(err.kind, err.message, { ...err.options, rateLimits }) : err;
}

