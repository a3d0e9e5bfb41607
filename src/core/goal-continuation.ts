/**
 * A goal's next turn: when a user turn (or a previous continuation) ended well and the thread's
 * goal is still active within its budget, the session starts another turn on its own. The model
 * is reminded of the objective in a developer message; the turn is an ordinary regular task
 * (task_started … task_complete), so a user message or an interrupt replaces or stops it as any.
 */
import { developerText } from "../protocol/items.js";
import { RegularTask } from "./tasks/regular-task.js";
import type { SessionState } from "./session-state.js";

/** Our words for the reminder: what to do, and how to stop. */
export function continuationText(objective: string): string {
  return [
    "<goal_continuation>",
    `The goal of this conversation is still active: ${objective}`,
    "Keep working toward it from where you left off. When the objective is met, call update_goal with status `complete`;",
    "if the same obstacle has stopped you for three goal turns and only the user can remove it, use `blocked`.",
    "</goal_continuation>",
  ].join("\n");
}

export function startGoalContinuation(s: SessionState, subId: string): void {
  if (!s.goals.wantsContinuation() || s.tasks.running() !== null) return;
  const goal = s.goals.current();
  if (goal === null) return;
  // A turn that works is worth keeping: a thread whose first turn is the goal's is recorded too.
  s.recorder?.persist();
  const turn = s.turnContext(subId, null);
  s.tasks.spawn(turn, new RegularTask(), () => {
    s.history.append(developerText(continuationText(goal.objective)));
    return { type: "goal_continuation_started", turn_id: turn.turnId, objective: goal.objective };
  });
}
