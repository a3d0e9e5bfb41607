/**
 * Whether a conversation needs compacting, asked before every request. It lives apart from the
 * compaction itself (compactor.ts and what it uses), which a session loads only once one is due
 * or asked for: most sessions, and a resumed one that fits its window, never need it.
 */
import type { TurnContext } from "../../tools/turn-context.js";
import type { CompactionHost } from "./compactor.js";

/** Whether the conversation has reached the model's automatic compaction threshold. */
export function compactionDue(turn: TurnContext, host: CompactionHost, overheadTokens: number): boolean {
  const limit = turn.model.autoCompactTokenLimit;
  if (limit === null) return false;
  const estimate = host.history.estimatedTokens() + overheadTokens;
  return Math.max(estimate, host.reportedContextTokens() ?? 0) >= limit;
}
