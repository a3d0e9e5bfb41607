/**
 * The thread's history and the user's prompt history: compaction on demand, rollback of the
 * last turns, and `history.jsonl` appends and look-ups (Up-arrow recall in a UI).
 */
import { appendPromptHistory, lookupHistoryEntry } from "../../history/prompt-history.js";
import { dropLastUserTurns } from "../../rollout/reconstruct.js";
import { CompactTask } from "../tasks/compact-task.js";
import type { SessionState } from "../session-state.js";
import type { OpFamily } from "./types.js";
import { ROLLBACK_RESTORES, type RollbackRestore } from "../../protocol/ops.js";

export const historyOps: OpFamily<"compact" | "thread_rollback" | "add_to_history" | "get_history_entry_request"> = {
  compact: async (s, id, op) => {
    // Like any new task, it replaces one still running.
    await s.tasks.abort("replaced");
    s.recorder?.persist();
    s.tasks.spawn(s.turnContext(id, null), new CompactTask(op.instructions));
  },
  thread_rollback: (s, id, op) => rollback(s, id, op.num_turns, op.restore ?? "conversation", op.overwrite ?? []),
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
 * `thread_rollback`: puts back what `restore` names as it was before the last `numTurns` user
 * turns. The files first (undo_started / undo_completed): when they cannot all be put back
 * (changed by hand since, or not writable) nothing is, the conversation stays too, and an
 * error ends the op. Then the conversation: those turns leave history, the new token estimate
 * is told, and thread_rolled_back is recorded so a resume replays it.
 */
async function rollback(s: SessionState, id: string, numTurns: number, restore: RollbackRestore, overwrite: readonly string[]): Promise<void> {
  const fail = (message: string): void => s.send(id, { type: "error", message, codex_error_info: "thread_rollback_failed" });
  if (!Number.isInteger(numTurns) || numTurns < 1) return fail("num_turns must be >= 1");
  if (!ROLLBACK_RESTORES.includes(restore)) return fail(`restore must be one of ${ROLLBACK_RESTORES.join(", ")}`);
  if (s.tasks.running()) return fail("Cannot rollback while a turn is in progress.");
  if (restore !== "conversation" && !(await s.files.rollback(id, numTurns, overwrite))) {
    return fail("The rollback did not happen: the files could not be restored (see the undo message).");
  }
  if (restore === "code") return;
  s.files.dropUserMessages(numTurns);
  s.history.replace(dropLastUserTurns([...s.history.snapshot()], numTurns));
  s.tokens.recompute(s.history.estimatedTokens(), s.modelInfo(s.settings.model).contextWindow);
  s.send(id, s.tokenCount());
  s.send(id, { type: "thread_rolled_back", num_turns: numTurns });
}
