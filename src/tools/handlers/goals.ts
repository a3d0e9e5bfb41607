/**
 * get_goal, create_goal and update_goal: the model reads and changes the thread's goal (kept by
 * the session, core/goals.ts). Each answers with the goal as the reference reports it:
 * `{"goal": {...}, "remainingTokens": n, "completionBudgetReport": ...}`.
 */
import type { GoalAccess } from "../turn-context.js";
import { parseArguments, ToolError, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";

const MODEL_STATUSES = ["complete", "blocked", "paused"] as const;

function goalsOf(invocation: ToolInvocation): GoalAccess {
  const goals = invocation.turn.services.goals;
  if (!goals) throw new ToolError("goals are not available in this conversation");
  return goals;
}

const report = (goals: GoalAccess): ToolOutput => ({ text: JSON.stringify(goals.view()), success: true });

export const getGoalHandler: ToolHandler = {
  payloadKind: "function",
  handle: (invocation) => Promise.resolve(report(goalsOf(invocation))),
};

export const createGoalHandler: ToolHandler = {
  payloadKind: "function",
  handle(invocation) {
    const goals = goalsOf(invocation);
    const args = parseArguments<{ objective?: unknown; token_budget?: unknown }>(invocation);
    if (typeof args.objective !== "string") throw new ToolError("failed to parse function arguments: missing field `objective`");
    const budget = args.token_budget === undefined || args.token_budget === null ? null : Number(args.token_budget);
    const created = goals.create(args.objective, budget);
    if (typeof created === "string") return Promise.resolve({ text: created, success: false });
    return Promise.resolve(report(goals));
  },
};

export const updateGoalHandler: ToolHandler = {
  payloadKind: "function",
  handle(invocation) {
    const goals = goalsOf(invocation);
    const { status } = parseArguments<{ status?: unknown }>(invocation);
    if (!MODEL_STATUSES.includes(status as (typeof MODEL_STATUSES)[number])) {
      throw new ToolError("failed to parse function arguments: `status` must be complete, blocked or paused");
    }
    const updated = goals.setStatus(status as (typeof MODEL_STATUSES)[number], "model");
    if (typeof updated === "string") return Promise.resolve({ text: updated, success: false });
    return Promise.resolve(report(goals));
  },
};
