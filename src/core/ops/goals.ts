/** The user's hand on the thread's goal: set one, pause / resume / complete it, or drop it. */
import type { SessionState } from "../session-state.js";
import type { OpFamily } from "./types.js";

export const goalOps: OpFamily<"set_thread_goal" | "set_thread_goal_status" | "update_thread_goal" | "clear_thread_goal"> = {
  set_thread_goal: (s, id, op) => {
    // The user replaces whatever goal there was: a new objective is their decision.
    s.goals.clear(id);
    const created = s.goals.create(op.objective, op.token_budget ?? null, id);
    if (typeof created === "string") s.send(id, { type: "error", message: `Cannot set the goal: ${created}`, codex_error_info: "other" });
    else resumeIfIdle(s, id);
  },
  set_thread_goal_status: (s, id, op) => {
    const updated = s.goals.setStatus(op.status, "user", id);
    if (typeof updated === "string") s.send(id, { type: "error", message: `Cannot change the goal: ${updated}`, codex_error_info: "other" });
    else if (op.status === "active") resumeIfIdle(s, id);
  },
  update_thread_goal: (s, id, op) => {
    const updated = s.goals.edit({ objective: op.objective, tokenBudget: op.token_budget, status: op.status }, id);
    if (typeof updated === "string") s.send(id, { type: "error", message: `Cannot change the goal: ${updated}`, codex_error_info: "other" });
    else if (updated.status === "active") resumeIfIdle(s, id);
  },
  clear_thread_goal: (s, id) => s.goals.clear(id),
};

/** A goal set or resumed while nothing runs starts working at once, where continuations are on. */
function resumeIfIdle(s: SessionState, id: string): void {
  if (s.tasks.running() === null) s.afterTurn(id);
}
