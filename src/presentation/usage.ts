/** Token usage as front ends add it up (a UI's exit summary covers every thread it showed). */
import type { TokenUsage } from "../protocol/events.js";

export function addUsage(into: TokenUsage, add: TokenUsage): void {
  into.input_tokens += add.input_tokens;
  into.cached_input_tokens += add.cached_input_tokens;
  into.output_tokens += add.output_tokens;
  into.reasoning_output_tokens += add.reasoning_output_tokens;
  into.total_tokens += add.total_tokens;
}
