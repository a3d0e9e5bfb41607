/**
 * One sampling request, streamed into events and collected into items, with the turn-level
 * retry policy: a stream that drops, goes idle or fails transiently is retried from scratch up
 * to the provider's stream_max_retries, with a stream_error event each time. Nothing from a
 * failed attempt enters history and no tool runs before a response completes, so a retry can
 * never run a tool call twice.
 */
import { ModelError, backoffMs, errorInfo } from "../model/errors.js";
import type { ModelClient, Prompt } from "../model/prompt.js";
import { sleep } from "../model/http.js";
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
  for (let retries = 0; ; ) {
    try {
      return await sampleOnce(opts);
    } catch (err) {
      if (opts.signal.aborted) throw err;
      if (!(err instanceof ModelError) || !err.retryable || retries >= opts.streamMaxRetries) throw err;
      retries += 1;
      const delay = err.options.retryAfterMs ?? backoffMs(retries);
      emitRetry(opts.emit, retries, opts.streamMaxRetries, err);
      await sleep(delay, opts.signal);
    }
  }
}

function emitRetry(emit: (msg: EventMsg) => void, attempt: number, max: number, err: ModelError): void {
  emit({
    type: "stream_error",
    message: `Reconnecting... ${attempt}/${max}`,
    codex_error_info: errorInfo(err),
    additional_details: err.message,
  });
}

async function sampleOnce({ client, prompt, signal, emit, showRawReasoning, onRateLimits }: SampleOptions): Promise<SampleResult> {
  const items: ResponseItem[] = [];
  let lastAgentMessage: string | null = null;
  const searches = new WebSearchCalls(emit);
  const onRetry = (attempt: number, max: number, _delay: number, err: ModelError): void => emitRetry(emit, attempt, max, err);
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
