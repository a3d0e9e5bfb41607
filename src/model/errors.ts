import type { CodexErrorInfo, IncompleteReason, RateLimitSnapshot } from "../protocol/events.js";
import type { ModelProvider } from "./provider.js";
import { errorCode } from "../util/errors.js";

/**
 * What can go wrong talking to a model, sorted by what the turn loop should do about it:
 * retry the request (transient), or end the turn with a message that tells the user what to do.
 */

export type ModelErrorKind =
  /** Transient: connection reset, 5xx, rate limit, a stream that dropped or went idle. */
  | "retryable"
  | "unauthorized"
  | "quota"
  | "context_window"
  | "bad_request"
  /** Nothing listens at the provider's address on this machine: retrying cannot help. */
  | "unreachable"
  /** The answer was cut short (its output limit, a content filter): a retry would end the same way. */
  | "incomplete";

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly options: {
      httpStatus?: number;
      retryAfterMs?: number;
      streamDisconnected?: boolean;
      /** The account's limits from the error response's headers (a usage limit that was reached). */
      rateLimits?: RateLimitSnapshot;
      /** For `incomplete`: what cut the answer short. */
      incompleteReason?: IncompleteReason;
    } = {},
  ) {
    super(message);
    this.name = "ModelError";
  }

  get retryable(): boolean {
    return this.kind === "retryable";
  }
}

const INFO_BY_KIND: Record<Exclude<ModelErrorKind, "retryable">, CodexErrorInfo> = {
  unauthorized: "unauthorized",
  quota: "usage_limit_exceeded",
  context_window: "context_window_exceeded",
  bad_request: "bad_request",
  unreachable: { http_connection_failed: { http_status_code: null } },
  incomplete: "other",
};

/** The error for an answer the provider cut short, worded for the user. */
export function incompleteAnswer(reason: IncompleteReason): ModelError {
  const message =
    reason === "max_output_tokens"
      ? "The model's answer was cut off: it reached its output limit (max_output_tokens)."
      : "The model's provider stopped the answer with its content filter (content_filter).";
  return new ModelError("incomplete", message, { incompleteReason: reason });
}

/** The protocol's error category for a model error, as events report it. */
export function errorInfo(err: ModelError): CodexErrorInfo {
  if (err.kind !== "retryable") return INFO_BY_KIND[err.kind];
  const http_status_code = err.options.httpStatus ?? null;
  return err.options.streamDisconnected ? { response_stream_disconnected: { http_status_code } } : { http_connection_failed: { http_status_code } };
}

/** Delay before retry `attempt` (1-based): 200 ms doubling, with ±10% jitter. */
export function backoffMs(attempt: number): number {
  const base = 200 * 2 ** Math.max(0, attempt - 1);
  return Math.round(base * (0.9 + Math.random() * 0.2));
}

/** Parses a Retry-After header: seconds, or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Rate-limit messages often say "try again in 1.5s" or "in 250ms"; honour that delay. */
export function parseRetryHint(message: string): number | undefined {
  const m = /try again in\s*([\d.]+)\s*(ms|s|seconds?)\b/i.exec(message);
  if (!m || !m[1]) return undefined;
  const n = Number(m[1]);
  return m[2]?.toLowerCase() === "ms" ? n : n * 1000;
}

const CONTEXT_CODES = new Set(["context_length_exceeded", "context_window_exceeded"]);
const QUOTA_CODES = new Set(["insufficient_quota", "usage_limit_reached", "usage_not_included"]);

/** Classifies an error the server reported, by HTTP status and the error's `code`. */
export function classifyServerError(status: number, code: string | undefined, message: string, retryAfterMs?: number): ModelError {
  if (code && CONTEXT_CODES.has(code)) {
    return new ModelError(
      "context_window",
      "The conversation no longer fits in the model's context window. Start a new session, or remove large inputs and try again.",
      { httpStatus: status },
    );
  }
  if (code && QUOTA_CODES.has(code)) {
    return new ModelError(
      "quota",
      `The model provider refused the request for quota reasons (${message}). Check your plan and billing, then try again.`,
      { httpStatus: status },
    );
  }
  if (status === 401 || status === 403) {
    return new ModelError(
      "unauthorized",
      `The model provider rejected the API key (HTTP ${status}: ${message}). Check the key in OPENAI_API_KEY or CODEX_API_KEY, or the provider's env_key.`,
      { httpStatus: status },
    );
  }
  if (status === 429 || status >= 500 || status === 408 || status === 0) {
    return new ModelError("retryable", message, {
      httpStatus: status,
      retryAfterMs: retryAfterMs ?? parseRetryHint(message),
    });
  }
  return new ModelError("bad_request", `The model provider rejected the request (HTTP ${status}): ${message}`, {
    httpStatus: status,
  });
}

/** True for a connection refused by a loopback address (localhost, 127.0.0.0/8, ::1). */
export function isLocalRefusal(url: string, err: unknown): boolean {
  const codes = [err, ...((err as { errors?: unknown[] } | null)?.errors ?? [])].map(errorCode);
  if (!codes.includes("ECONNREFUSED")) return false;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The error for a local address that refused the connection, naming the setting to change. */
export function localRefusalError(provider: ModelProvider, url: string): ModelError {
  const { host } = new URL(url);
  return new ModelError(
    "unreachable",
    `Could not connect to model provider "${provider.id}" at ${provider.baseUrl}: connection refused (nothing is listening on ${host}). ` +
      `Start the server, or point ${baseUrlSetting(provider)} at one that is running.`,
  );
}

/** Where a provider's base URL is set: the built-in provider's own key, or its config table. */
export function baseUrlSetting(provider: ModelProvider): string {
  return provider.id === "openai" ? "openai_base_url (config.toml) or OPENAI_BASE_URL" : `model_providers.${provider.id}.base_url`;
}
