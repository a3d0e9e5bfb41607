/**
 * One sampling request, streamed into events and collected into items, with the turn-level
 * retry policy: a stream that drops, goes idle or fails transiently is retried from scratch.
 * Every retry of the request is one step of one sequence, announced by a stream_error event
 * "Reconnecting... n/max": those the client makes before the server accepted the request (at
 * most request_max_retries per request) and those made here after a stream failed (at most
 * stream_max_retries), together at most the larger of the two, so one layer's retries never
 * restart inside the other's. Nothing from a failed attempt enters history and no tool runs
 * before a response completes, so a retry can never run a tool call twice.
 */
import { ModelError, backoffMs, errorInfo } from "../model/errors.js";
import type { ModelClient, Prompt, RetryListener } from "../model/prompt.js";
import { sleep } from "../util/sleep.js";
import type { EventMsg, RateLimitSnapshot, TokenUsage } from "../protocol/events.js";
import { assistantText, type ResponseItem } from "../protocol/items.js";
import { WebSearchCalls } from "./web-search-calls.js";

export interface SampleResult {
  items: ResponseItem[];
  usage: TokenUsage | null;
  lastAgentMessage: string | null;
}

export interface SampleOptions {
  client: ModelClient;
  prompt: Prompt;
  streamMaxRetries: number;
  signal: AbortSignal;
  emit: (msg: EventMsg) => void;
  /** `show_raw_agent_reasoning`: also emit the model's raw reasoning text, not only its summaries. */
  showRawReasoning?: boolean;
  /** The account's rate limits, whenever a response reports them. */
  onRateLimits?: (snapshot: RateLimitSnapshot) => void;
}

export async function sampleWithRetries(opts: SampleOptions): Promise<SampleResult> {
  const max = Math.max(opts.streamMaxRetries, opts.client.requestMaxRetries ?? 0);
  let retries = 0;
  let streamRetries = 0;
  /** Takes the next step of the sequence and announces it; null once the budget is spent. */
  const nextRetry = (err: ModelError): number | null => {
    if (retries >= max) return null;
    retries += 1;
    opts.emit({
      type: "stream_error",
      message: `Reconnecting... ${retries}/${max}`,
      codex_error_info: errorInfo(err),
      additional_details: err.message,
    });
    return err.options.retryAfterMs ?? backoffMs(retries);
  };
  for (;;) {
    try {
      return await sampleOnce(opts, nextRetry);
    } catch (err) {
      if (opts.signal.aborted) throw err;
      const retryable = err instanceof ModelError && err.retryable && streamRetries < opts.streamMaxRetries;
      const delay = retryable ? nextRetry(err) : null;
      if (delay === null) throw err;
      streamRetries += 1;
      await sleep(delay, opts.signal);
    }
  }
}

async function sampleOnce({ client, prompt, signal, emit, showRawReasoning, onRateLimits }: SampleOptions, onRetry: RetryListener): Promise<SampleResult> {
  const items: ResponseItem[] = [];
  let lastAgentMessage: string | null = null;
  const searches = new WebSearchCalls(emit);
  for await (const event of client.stream(prompt, signal, onRetry)) {
    switch (event.type) {
      case "created":
        break;
      case "output_item_added":
        if (event.item.type === "web_search_call") searches.begin(event.itemId ?? "");
        break;
      case "output_text_delta":
        emit({ type: "agent_message_delta", delta: event.delta });
        break;
      case "reasoning_summary_delta":
        emit({ type: "agent_reasoning_delta", delta: event.delta });
        break;
      case "reasoning_summary_part_added":
        if (event.summaryIndex > 0) emit({ type: "agent_reasoning_section_break" });
        break;
      case "reasoning_content_delta":
        // Raw reasoning is shown only when asked for; summaries carry the gist.
        if (showRawReasoning) emit({ type: "agent_reasoning_raw_content_delta", delta: event.delta });
        break;
      case "output_item_done": {
        items.push(event.item);
        const text = assistantText(event.item);
        if (text !== undefined) {
          lastAgentMessage = text;
          emit({ type: "agent_message", message: text });
        } else if (event.item.type === "reasoning") {
          for (const part of event.item.summary) emit({ type: "agent_reasoning", text: part.text });
          if (showRawReasoning) for (const part of event.item.content ?? []) emit({ type: "agent_reasoning_raw_content", text: part.text });
        } else if (event.item.type === "web_search_call") {
          searches.end(event.itemId ?? "", event.item.action);
        }
        break;
      }
      case "rate_limits":
        onRateLimits?.(event.snapshot);
        break;
      case "completed":
        return { items, usage: event.usage, lastAgentMessage };
    }
  }
  throw new ModelError("retryable", "stream closed before response.completed", { streamDisconnected: true });
}
