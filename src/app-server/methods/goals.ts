/**
 * A loaded thread's goal: `thread/goal/get`, `thread/goal/set` (a new goal, or the objective,
 * budget or status of the current one edited in place, its progress kept) and
 * `thread/goal/clear`. Every change also goes to the thread's clients as `thread/goal/updated` /
 * `thread/goal/cleared`; an active goal on an idle thread starts a turn toward it, as in the
 * reference.
 */
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import { goalStatusFromV2, goalToV2, type V2GoalStatus } from "../../app-server-protocol/goals.js";
import type { Method } from "../server.js";

/** Statuses a client may set; the limits are the thread's to reach. */
const SETTABLE: readonly V2GoalStatus[] = ["active", "paused", "blocked", "complete"];

const get: Method = ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  return Promise.resolve({ goal: live.goal && goalToV2(live.goal) });
};

const set: Method = async ({ server }, params) => {
  const threadId = params.string("threadId");
  const live = server.requireThread(threadId);
  const objective = params.optionalString("objective");
  const status = params.optionalEnum<V2GoalStatus>("status", ["active", "paused", "blocked", "usageLimited", "budgetLimited", "complete"]);
  const tokenBudget = params.optionalInteger("tokenBudget", 1);
  if (objective !== undefined && objective.trim() === "") throw invalidRequest("goal objective must not be empty");
  if (status !== undefined && !SETTABLE.includes(status)) throw invalidRequest(`a goal's status cannot be set to ${status}: the thread reaches it by itself`);
  if (live.goal === null && objective === undefined) throw invalidRequest(`cannot update goal for thread ${threadId}: no goal exists`);
  const coreStatus = status === undefined ? undefined : goalStatusFromV2(status);
  const goal = await live.request(
    {
      type: "update_thread_goal",
      ...(objective !== undefined ? { objective } : {}),
      ...(tokenBudget !== undefined ? { token_budget: tokenBudget } : {}),
      ...(coreStatus === "active" || coreStatus === "paused" || coreStatus === "blocked" || coreStatus === "complete" ? { status: coreStatus } : {}),
    },
    (msg) => (msg.type === "thread_goal_updated" && msg.goal !== null ? msg.goal : undefined),
  );
  return { goal: goalToV2(goal) };
};

const clear: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  if (live.goal === null) return { cleared: false };
  await live.request({ type: "clear_thread_goal" }, (msg) => (msg.type === "thread_goal_updated" && msg.goal === null ? true : undefined));
  return { cleared: true };
};

export const goalMethods: Readonly<Record<string, Method>> = {
  "thread/goal/get": get,
  "thread/goal/set": set,
  "thread/goal/clear": clear,
};
