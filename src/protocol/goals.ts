/**
 * A thread's goal: an objective the agent keeps working toward across turns, with an optional
 * token budget. Field names are the reference's (camelCase, as its goal tools report them), so
 * what the model reads and what the rollout keeps match it.
 */
export const GOAL_STATUSES = ["active", "paused", "blocked", "complete", "budget_limited"] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

export interface ThreadGoal {
  threadId: string;
  objective: string;
  status: GoalStatus;
  /** Tokens the goal may use in all; null: no budget. */
  tokenBudget: number | null;
  tokensUsed: number;
  /** Time spent while the goal was active. */
  timeUsedSeconds: number;
  /** Unix seconds. */
  createdAt: number;
  updatedAt: number;
}

/** Statuses a goal is unfinished in: a new one cannot replace it until it is complete (or cleared). */
export function goalUnfinished(goal: ThreadGoal | null): boolean {
  return goal !== null && goal.status !== "complete";
}
