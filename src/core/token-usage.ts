/**
 * A session's token accounting: the running total of every response's usage, the last
 * response's usage, the model's context window, and the account's latest rate-limit snapshot.
 * Every change is told as one `token_count` event carrying all of it, as the reference does.
 */
import type { RateLimitSnapshot, TokenUsage, TokenUsageInfo } from "../protocol/events.js";
import { mergeRateLimits } from "../model/rate-limits.js";

const ZERO: TokenUsage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };

function add(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    cached_input_tokens: a.cached_input_tokens + b.cached_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    reasoning_output_tokens: a.reasoning_output_tokens + b.reasoning_output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

export class TokenAccounting {
  private total: TokenUsage | null;
  private last: TokenUsage | null;
  private window: number | null;
  private limits: RateLimitSnapshot | null = null;
  /**
   * What the last response said the conversation weighs (its prompt and answer), or null once
   * history was replaced since: then only an estimate of the new history tells.
   */
  private lastContextTokens: number | null = null;

  constructor(restored: TokenUsageInfo | null = null) {
    this.total = restored?.total_token_usage ?? null;
    this.last = restored?.last_token_usage ?? null;
    this.window = restored?.model_context_window ?? null;
  }

  /** A response's usage (null when the provider sent none: the totals stay, the event still goes). */
  addUsage(usage: TokenUsage | null, contextWindow: number | null): void {
    if (contextWindow !== null) this.window = contextWindow;
    if (!usage) return;
    this.total = add(this.total ?? ZERO, usage);
    this.last = usage;
    this.lastContextTokens = usage.total_tokens;
  }

  setRateLimits(update: RateLimitSnapshot): void {
    this.limits = mergeRateLimits(this.limits, update);
  }

  /**
   * History was replaced (compaction, rollback): the totals stay, the last usage becomes the
   * estimate of what the new history weighs, as the reference recomputes it.
   */
  recompute(estimatedTokens: number, contextWindow: number | null): void {
    if (contextWindow !== null) this.window ??= contextWindow;
    this.last = { ...ZERO, total_tokens: Math.max(0, estimatedTokens) };
    this.total ??= { ...ZERO };
    this.lastContextTokens = null;
  }

  /** The window overflowed: show it as full. */
  setFull(contextWindow: number | null): void {
    if (contextWindow === null) return;
    this.window = contextWindow;
    this.total ??= { ...ZERO };
    this.last = { ...ZERO, input_tokens: contextWindow, total_tokens: contextWindow };
  }

  /** What the last response reported the conversation to weigh, unless history changed since. */
  get reportedContextTokens(): number | null {
    return this.lastContextTokens;
  }

  info(): TokenUsageInfo | null {
    if (!this.total || !this.last) return null;
    return { total_token_usage: this.total, last_token_usage: this.last, model_context_window: this.window };
  }

  get rateLimits(): RateLimitSnapshot | null {
    return this.limits;
  }
}
