/**
 * The OpenAI Responses API client: builds the request body the reference sends (same fields,
 * same order), streams the SSE answer and turns it into ModelStreamEvents.
 */
import type { TelemetryRecorder } from "../telemetry/recorder.js";
import { ModelError, classifyServerError, incompleteAnswer } from "./errors.js";
import { postWithRetries } from "./http.js";
import type { HttpResponse } from "./http-post.js";
import { normalizeOutputItem, outputItemId } from "./output-items.js";
import type { CompactRequest, ModelClient, ModelStreamEvent, Prompt, RequestLineage, RetryListener } from "./prompt.js";
import { parseRateLimitHeaders } from "./rate-limits.js";
import type { ResponseItem } from "../protocol/items.js";
import { endpointUrl, providerHeaders, type ModelProvider } from "./provider.js";
import { readSse, type SseBody } from "./sse.js";
import type { RateLimitSnapshot, RateLimitWindow, TokenUsage } from "../protocol/events.js";
import { errorMessage } from "../util/errors.js";

/**
 * Credentials that change while the process runs (a ChatGPT login refreshing itself). Their
 * headers are added to every request, and a 401 asks them once for new ones.
 */
export interface RequestCredentials {
  headers(): Promise<Record<string, string>>;
  /** New headers after the server answered 401; throws when there are none (sign in again). */
  afterUnauthorized(): Promise<Record<string, string>>;
}

export interface ClientIdentity {
  apiKey: string | null;
  /** Set instead of `apiKey` for a ChatGPT login. */
  credentials?: RequestCredentials;
  /** `codex_exec` for exec, `codex_cli_rs`-style for the TUI: providers use it for analytics. */
  originator: string;
  userAgent: string;
  env: NodeJS.ProcessEnv;
}

export class ResponsesClient implements ModelClient {
  constructor(
    private readonly provider: ModelProvider,
    private readonly identity: ClientIdentity,
  ) {}

  get requestMaxRetries(): number {
    return this.provider.requestMaxRetries;
  }

  async *stream(prompt: Prompt, signal: AbortSignal, onRetry?: RetryListener): AsyncGenerator<ModelStreamEvent> {
    const res = await this.post("/responses", requestHeaders(this.provider, this.identity, prompt.threadId, prompt.lineage), JSON.stringify(responsesRequestBody(prompt)), signal, {
      onRetry,
      telemetry: prompt.telemetry,
    });
    const limits = parseRateLimitHeaders(res.headers);
    if (limits) yield { type: "rate_limits", snapshot: limits };
    yield* parseResponsesStream(res.body, this.provider.streamIdleTimeoutMs, signal, prompt.telemetry);
  }

  /**
   * Every request to the provider goes through here, so that a ChatGPT login's refreshing
   * credentials (and its one retry after a 401) cover each endpoint alike.
   */
  private async post(
    path: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
    extra: { onRetry?: RetryListener; telemetry?: TelemetryRecorder },
  ): Promise<HttpResponse> {
    const credentials = this.identity.credentials;
    return postWithRetries({
      url: endpointUrl(this.provider, path),
      headers: credentials ? { ...headers, ...(await credentialHeaders(() => credentials.headers())) } : headers,
      body,
      provider: this.provider,
      signal,
      ...extra,
      ...(credentials ? { onUnauthorized: async () => ({ ...headers, ...(await credentialHeaders(() => credentials.afterUnauthorized())) }) } : {}),
    });
  }

  /** `POST {base}/responses/compact`: `{model, input, instructions, …}` in, `{output: [items]}` back. */
  async compact(request: CompactRequest, signal: AbortSignal): Promise<ResponseItem[]> {
    const res = await this.post(
      "/responses/compact",
      { ...requestHeaders(this.provider, this.identity, request.threadId), accept: "application/json" },
      JSON.stringify({ model: request.model, input: request.input, instructions: request.instructions, tools: [], parallel_tool_calls: false }),
      signal,
      { telemetry: request.telemetry },
    );
    const text = await res.text();
    let output: unknown;
    try {
      output = (JSON.parse(text) as { output?: unknown }).output;
    } catch {
      output = undefined;
    }
    if (!Array.isArray(output)) throw new ModelError("bad_request", `the compaction endpoint answered without an output list: ${text.slice(0, 200)}`);
    return output.map(normalizeOutputItem).filter((i): i is ResponseItem => i !== null);
  }
}

/** Credentials that cannot be had (a login that must be signed into again) end the turn. */
async function credentialHeaders(get: () => Promise<Record<string, string>>): Promise<Record<string, string>> {
  try {
    return await get();
  } catch (err) {
    throw new ModelError("unauthorized", errorMessage(err), { httpStatus: 401 });
  }
}

/**
 * A request's headers. A sub-agent's requests name its tree's root thread as `session-id`, itself
 * as `thread-id`, and say how it came to be (`x-openai-subagent: collab_spawn`), as the
 * reference's do.
 */
export function requestHeaders(provider: ModelProvider, identity: ClientIdentity, threadId: string, lineage?: RequestLineage): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "text/event-stream",
    originator: identity.originator,
    "user-agent": identity.userAgent,
    "session-id": lineage?.sessionId ?? threadId,
    "thread-id": threadId,
    "x-client-request-id": threadId,
    ...(lineage ? { "x-openai-subagent": lineage.subagent } : {}),
    ...(identity.apiKey ? { authorization: `Bearer ${identity.apiKey}` } : {}),
    ...providerHeaders(provider, identity.env),
  };
}

/** Field order matters only to humans diffing captures; it follows the reference's. */
export function responsesRequestBody(prompt: Prompt): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: prompt.model,
    stream: true,
    input: prompt.input,
    tools: prompt.tools,
    tool_choice: "auto",
    parallel_tool_calls: prompt.parallelToolCalls,
  };
  if (prompt.reasoning) {
    const reasoning: Record<string, unknown> = {};
    if (prompt.reasoning.effort) reasoning.effort = prompt.reasoning.effort;
    if (prompt.reasoning.summary && prompt.reasoning.summary !== "none") reasoning.summary = prompt.reasoning.summary;
    body.reasoning = reasoning;
  }
  body.store = false;
  body.include = prompt.reasoning ? ["reasoning.encrypted_content"] : [];
  body.prompt_cache_key = prompt.threadId;
  const text: Record<string, unknown> = {};
  if (prompt.verbosity) text.verbosity = prompt.verbosity;
  if (prompt.outputSchema !== undefined && prompt.outputSchema !== null) {
    text.format = { type: "json_schema", name: "codex_output_schema", schema: prompt.outputSchema, strict: true };
  }
  if (Object.keys(text).length > 0) body.text = text;
  return body;
}

type Json = Record<string, unknown>;

export async function* parseResponsesStream(
  body: SseBody,
  idleMs: number,
  signal: AbortSignal,
  telemetry?: TelemetryRecorder,
): AsyncGenerator<ModelStreamEvent> {
  // Each event's duration is the wait since the previous one (or since the response began).
  let last = performance.now();
  const observe = (kind: string, fields: { error?: string; usage?: TokenUsage | null } = {}): void => {
    if (!telemetry?.enabled) return;
    const now = performance.now();
    const u = fields.usage;
    telemetry.sseEvent({
      kind,
      durationMs: now - last,
      ...(fields.error !== undefined ? { error: fields.error } : {}),
      ...(u ? { usage: { input: u.input_tokens, output: u.output_tokens, cached: u.cached_input_tokens, reasoning: u.reasoning_output_tokens, tool: 0 } } : {}),
    });
    last = now;
  };
  for await (const message of readSse(body, idleMs, signal, (err) => observe("idle", { error: err.message }))) {
    let data: Json;
    try {
      data = JSON.parse(message.data) as Json;
    } catch {
      // Keep-alive comments and malformed frames carry nothing we can use.
      if (message.event) observe(message.event, { error: `failed to parse ${message.event}` });
      continue;
    }
    const type = typeof data.type === "string" ? data.type : message.event;
    if (type !== undefined && type !== "response.completed") observe(type, failureText(type, data));
    switch (type) {
      case "response.created":
        yield { type: "created" };
        break;
      case "response.output_item.added": {
        const item = normalizeOutputItem(data.item);
        if (item) yield { type: "output_item_added", item, itemId: outputItemId(data.item) };
        break;
      }
      case "response.output_item.done": {
        const item = normalizeOutputItem(data.item);
        if (item) yield { type: "output_item_done", item, itemId: outputItemId(data.item) };
        break;
      }
      case "response.output_text.delta":
        yield { type: "output_text_delta", delta: String(data.delta ?? "") };
        break;
      case "response.reasoning_summary_text.delta":
        yield { type: "reasoning_summary_delta", delta: String(data.delta ?? ""), summaryIndex: Number(data.summary_index ?? 0) };
        break;
      case "response.reasoning_summary_part.added":
        yield { type: "reasoning_summary_part_added", summaryIndex: Number(data.summary_index ?? 0) };
        break;
      case "response.reasoning_text.delta":
        yield { type: "reasoning_content_delta", delta: String(data.delta ?? "") };
        break;
      case "response.completed": {
        const response = (data.response ?? {}) as Json;
        const usage = parseUsage(response.usage);
        observe(type, { usage });
        yield { type: "completed", responseId: String(response.id ?? ""), usage };
        return;
      }
      case "response.failed":
      case "response.incomplete": {
        const response = (data.response ?? {}) as Json;
        const err = (response.error ?? {}) as Json;
        const reason = ((response.incomplete_details ?? {}) as Json).reason;
        // An output limit or a content filter ends a retry the same way: the turn stops here.
        if (reason === "max_output_tokens" || reason === "content_filter") throw incompleteAnswer(reason);
        throw failureError(err.code, err.message ?? reason ?? `${type} without details`);
      }
      case "codex.rate_limits": {
        const snapshot = rateLimitsEvent(data);
        if (snapshot) yield { type: "rate_limits", snapshot };
        break;
      }
      case "error":
        throw failureError(data.code, data.message);
      default:
        break; // Argument deltas and other progress events need no handling here.
    }
  }
  throw new ModelError("retryable", "stream closed before response.completed", { streamDisconnected: true });
}

/** The error text a failure event carries, for its telemetry record. */
function failureText(type: string, data: Json): { error?: string } {
  if (type === "error") return { error: typeof data.message === "string" ? data.message : "error" };
  if (type !== "response.failed" && type !== "response.incomplete") return {};
  const response = (data.response ?? {}) as Json;
  const err = (response.error ?? {}) as Json;
  return { error: typeof err.message === "string" ? err.message : type };
}

function failureError(code: unknown, message: unknown): ModelError {
  const text = typeof message === "string" ? message : "the model stream failed";
  const err = classifyServerError(500, typeof code === "string" ? code : undefined, text);
  // A failed stream that is not a quota or context problem is worth another try.
  return err.retryable ? new ModelError("retryable", text, { ...err.options, streamDisconnected: true }) : err;
}

/** A `codex.rate_limits` stream event: the same snapshot as the headers, as JSON. */
function rateLimitsEvent(data: Json): RateLimitSnapshot | null {
  const limits = (data.rate_limits ?? {}) as Json;
  const window = (v: unknown): RateLimitWindow | null => {
    if (!v || typeof v !== "object") return null;
    const w = v as Json;
    if (typeof w.used_percent !== "number") return null;
    const int = (x: unknown): number | null => (typeof x === "number" ? Math.trunc(x) : null);
    return { used_percent: w.used_percent, window_minutes: int(w.window_minutes), resets_at: int(w.reset_at ?? w.resets_at) };
  };
  const c = data.credits as Json | undefined;
  const credits = c && typeof c.has_credits === "boolean" && typeof c.unlimited === "boolean"
    ? { has_credits: c.has_credits, unlimited: c.unlimited, balance: typeof c.balance === "string" ? c.balance : null }
    : null;
  const name = typeof data.metered_limit_name === "string" ? data.metered_limit_name : typeof data.limit_name === "string" ? data.limit_name : "codex";
  return {
    limit_id: name.toLowerCase().replace(/-/g, "_"),
    limit_name: null,
    primary: window(limits.primary),
    secondary: window(limits.secondary),
    credits,
    plan_type: typeof data.plan_type === "string" ? data.plan_type : null,
  };
}

function parseUsage(raw: unknown): TokenUsage | null {
  if (!raw || typeof raw !== "object") return null;
  const u = raw as Json;
  const num = (v: unknown): number => (typeof v === "number" ? v : 0);
  const input = num(u.input_tokens);
  const output = num(u.output_tokens);
  return {
    input_tokens: input,
    cached_input_tokens: num((u.input_tokens_details as Json | undefined)?.cached_tokens),
    output_tokens: output,
    reasoning_output_tokens: num((u.output_tokens_details as Json | undefined)?.reasoning_tokens),
    total_tokens: num(u.total_tokens) || input + output,
  };
}
