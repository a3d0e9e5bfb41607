/**
 * The thread's history and the user's prompt history: compaction on demand, rollback of the
 * last turns, and `history.jsonl` appends and look-ups (Up-arrow recall in a UI).
 */
import { appendPromptHistory, lookupHistoryEntry } from "../../history/prompt-history.js";
import { dropLastUserTurns } from "../../rollout/reconstruct.js";
import { CompactTask } from "../tasks/compact-task.js";
import type { SessionState } from "../session-state.js";
import type { OpFamily } from "./types.js";

export const historyOps: OpFamily<"compact" | "thread_rollback" | "add_to_history" | "get_history_entry_request"> = {
  compact: async (s, id, op) => {
    // Like any new task, it replaces one still running.
    await s.tasks.abort("replaced");
    s.recorder?.persist();
    s.tasks.spawn(s.turnContext(id, null), new CompactTask(op.instructions));
  },
  thread_rollback: (s, id, op) => rollback(s, id, op.num_turns),
  add_to_history: (s, _id, op) => {
    const history = s.options.promptHistory;
    // History problems never disturb the session: an append that failed is a warning.
    if (history) {
      void appendPromptHistory(history.codexHome, s.threadId, op.text, history.settings).then((outcome) => {
        if (outcome.kind === "failed") s.reportWarning(outcome.warning);
      });
    }
  },
  get_history_entry_request: (s, id, op) => {
    const history = s.options.promptHistory;
    const entry = history ? lookupHistoryEntry(history.codexHome, op.log_id, op.offset) : null;
    s.send(id, {
      type: "get_history_entry_response",
      offset: op.offset,
      log_id: op.log_id,
      ...(entry ? { entry: { conversation_id: entry.sessionId, ts: entry.ts, text: entry.text } } : {}),
    });
  },
};

/**
 * `thread_rollback`: drops the last `numTurns` user turns from history (files on disk stay as
 * they are), tells the new token estimate, and records thread_rolled_back so a resume replays it.
 */
function rollback(s: SessionState, id: string, numTurns: number): void {
  const fail = (message: string): void => s.send(id, { type: "error", message, codex_error_info: "thread_rollback_failed" });
  if (!Number.isInteger(numTurns) || numTurns < 1) return fail("num_turns must be >= 1");
  if (s.tasks.running()) return fail("Cannot rollback while a turn is in progress.");
  s.history.replace(dropLastUserTurns([...s.history.snapshot()], numTurns));
  s.tokens.recompute(s.history.estimatedTokens(), s.modelInfo(s.settings.model).contextWindow);
  s.send(id, s.tokenCount());
  s.send(id, { type: "thread_rolled_back", num_turns: numTurns });
}
