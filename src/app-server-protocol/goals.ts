/**
 * A thread's goal in the v2 protocol (`ThreadGoal`, `thread/goal/updated`, `thread/goal/cleared`)
 * and back: the fields are the core's (camelCase already); statuses are camelCase in v2
 * (`budgetLimited`), snake_case in the core (`budget_limited`). v2's `usageLimited` has no
 * counterpart in codex-ts and is never sent.
 */
import type { GoalStatus, ThreadGoal } from "../protocol/goals.js";

export type V2GoalStatus = "active" | "paused" | "blocked" | "usageLimited" | "budgetLimited" | "complete";

export interface V2ThreadGoal extends Omit<ThreadGoal, "status"> {
  status: V2GoalStatus;
}

export function goalStatusToV2(status: GoalStatus): V2GoalStatus {
  return status === "budget_limited" ? "budgetLimited" : status;
}

/** The core's status for a v2 one (null for `usageLimited`, which codex-ts does not have). */
export function goalStatusFromV2(status: V2GoalStatus): GoalStatus | null {
  if (status === "usageLimited") return null;
  return status === "budgetLimited" ? "budget_limited" : status;
}

export function goalToV2(goal: ThreadGoal): V2ThreadGoal {
  return { ...goal, status: goalStatusToV2(goal.status) };
}

/** A goal from a server that may send `usageLimited` (the reference): it reads as paused, stopped until someone goes on. */
export function goalFromV2(goal: V2ThreadGoal): ThreadGoal {
  return { ...goal, status: goalStatusFromV2(goal.status) ?? "paused" };
}

/** The notification a goal change makes: updated with the goal, or cleared. */
export function goalNotification(threadId: string, turnId: string | null, goal: ThreadGoal | null): { method: string; params: object } {
  return goal === null ? { method: "thread/goal/cleared", params: { threadId } } : { method: "thread/goal/updated", params: { threadId, turnId, goal: goalToV2(goal) } };
}
