/**
 * The provider-neutral shapes between the turn loop and a model client: what one sampling
 * request carries (Prompt) and what comes back while it streams (ModelStreamEvent). The loop
 * never sees a wire format.
 */
import type { ReasoningEffort, ReasoningSummary } from "../protocol/policy.js";
import type { ResponseItem } from "../protocol/items.js";
import type { RateLimitSnapshot, TokenUsage } from "../protocol/events.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import type { ModelError } from "./errors.js";
import type { TelemetryRecorder } from "../telemetry/recorder.js";

export interface Prompt {
  model: string;
  input: ResponseItem[];
  tools: ToolSpec[];
  parallelToolCalls: boolean;
  reasoning: { effort: ReasoningEffort | null; summary: ReasoningSummary | null } | null;
  verbosity: "low" | "medium" | "high" | null;
  /** A strict JSON schema the final message must follow, for this turn only. */
  outputSchema: unknown;
  /** Also the prompt cache key: requests of one thread share a cache. */
  threadId: string;
  /** Set for a sub-agent's requests (see RequestLineage). */
  lineage?: RequestLineage;
  /** Reports each HTTP attempt and SSE event (`codex.api_request`, `codex.sse_event`); not sent. */
  telemetry?: TelemetryRecorder;
}

/** What a sub-agent's requests say of it: its tree's root thread, and how it was started. */
export interface RequestLineage {
  /** The root thread's id, sent as `session-id`. */
  sessionId: string;
  /** Sent as `x-openai-subagent` (`collab_spawn`). */
  subagent: string;
}

export type ModelStreamEvent =
  | { type: "created" }
  /** `itemId`: the provider's id for the item, which history leaves out; "" when unknown. */
  | { type: "output_item_added"; item: ResponseItem; itemId?: string }
  | { type: "output_item_done"; item: ResponseItem; itemId?: string }
  | { type: "output_text_delta"; delta: string }
  | { type: "reasoning_summary_delta"; delta: string; summaryIndex: number }
  | { type: "reasoning_summary_part_added"; summaryIndex: number }
  | { type: "reasoning_content_delta"; delta: string }
  | { type: "completed"; responseId: string; usage: TokenUsage | null }
  /** The account's limits, from the response headers (or a `codex.rate_limits` stream event). */
  | { type: "rate_limits"; snapshot: RateLimitSnapshot };

/** A request to the provider's server-side compaction (`POST {base}/responses/compact`). */
export interface CompactRequest {
  model: string;
  /** The history to compact, base instructions excluded (they go in `instructions`). */
  input: ResponseItem[];
  instructions: string;
  threadId: string;
  telemetry?: TelemetryRecorder;
}

/**
 * Asked before each request-level retry: the delay to wait before it, or null to give up and
 * throw the error. It lets the caller count every retry of one sampling request, whichever layer
 * makes it, against one budget and show the user one sequence.
 */
export type RetryListener = (error: ModelError) => number | null;

export interface ModelClient {
  /**
   * Streams one sampling request. Transient failures before the stream starts are retried
   * inside (request_max_retries); a stream that fails after it started throws a retryable
   * ModelError for the turn loop to retry as a whole.
   */
  stream(prompt: Prompt, signal: AbortSignal, onRetry?: RetryListener): AsyncGenerator<ModelStreamEvent>;
  /**
   * Server-side compaction, for providers that offer it: the history that replaces `input`
   * (the API's opaque `compaction` item plus what it keeps). Absent: only local summaries work.
   */
  compact?(request: CompactRequest, signal: AbortSignal): Promise<ResponseItem[]>;
  /** The provider's request_max_retries: how many retries the client may ask for per request. */
  readonly requestMaxRetries?: number;
}
