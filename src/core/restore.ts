/**
 * Restore on resume: a recorded thread continues from its history and token totals, with the
 * model told only what changed since its last recorded turn.
 */
import type { RecordedThread } from "../rollout/reconstruct.js";
import { outputItem } from "../tools/router.js";
import { initialContext } from "./initial-context.js";
import type { SessionState } from "./session-state.js";
import { TokenAccounting } from "./token-usage.js";
import { ABORTED_OUTPUT } from "./turn.js";

export function restoreThread(s: SessionState, thread: RecordedThread, warnOnModelChange: boolean): void {
  s.recordedBaseInstructions = thread.baseInstructions;
  for (const message of thread.warnings) s.send("", { type: "warning", message });
  const recorded = thread.lastModel;
  if (warnOnModelChange && recorded !== null && recorded !== s.settings.model) {
    const current = s.settings.model;
    s.send("", {
      type: "warning",
      message: `This session was recorded with model \`${recorded}\` but is resuming with \`${current}\`. Consider switching back to \`${recorded}\` as it may affect Codex performance.`,
    });
  }
  s.history.restore(thread.history);
  // Calls the previous process never answered get the answer an interrupt would have given,
  // recorded like any other output so the file and the next request agree.
  s.history.append(...thread.unanswered.map((call) => outputItem(call, ABORTED_OUTPUT)));
  s.tokens = new TokenAccounting(thread.tokenInfo);
  s.goals.restore(thread.goal);
  s.files.restore(thread.undo);
  // Front ends learn the goal the thread came back with as they learn any change of it.
  if (thread.goal !== null) s.send("", { type: "thread_goal_updated", goal: s.goals.current() });
  const last = thread.lastTurn;
  if (last === null) {
    // No readable baseline: the model gets the whole initial context again.
    s.history.append(...initialContext(s.settings, s.options, s.deferredToolsNote()));
    return;
  }
  // The first turn then adds permissions / environment messages only for what differs.
  const samePolicy = JSON.stringify(last.sandboxPolicy) === JSON.stringify(s.settings.sandboxPolicy);
  s.lastTurnSettings = {
    ...s.settings,
    cwd: last.cwd,
    approvalPolicy: last.approvalPolicy,
    sandboxPolicy: samePolicy ? s.settings.sandboxPolicy : last.sandboxPolicy,
  };
}
