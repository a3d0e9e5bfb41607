/**
 * `/goal`: the thread's goal from the UI. `/goal` shows it, `/goal OBJECTIVE` sets one (the
 * agent starts on it at once and keeps going in turns of its own), `/goal pause`, `/goal resume`,
 * `/goal done` and `/goal clear` change it. What the goal is comes from thread_goal_updated
 * events, which `goalNotice` turns into one line when the status or the objective changes.
 */
import type { ThreadGoal } from "../protocol/goals.js";
import type { SlashCommand } from "./slash-commands.js";

const STATUS_WORDS: Record<ThreadGoal["status"], string> = {
  active: "active",
  paused: "paused",
  blocked: "blocked (the agent needs you)",
  complete: "complete",
  budget_limited: "stopped: its token budget is spent",
};

/** The goal as one line, or the sentence for none. */
export function goalSummary(goal: ThreadGoal | null): string {
  if (goal === null) return "No goal. /goal OBJECTIVE sets one; the agent then works on it until it is done.";
  const budget = goal.tokenBudget === null ? `${goal.tokensUsed} tokens used` : `${goal.tokensUsed} of ${goal.tokenBudget} tokens used`;
  return `Goal (${STATUS_WORDS[goal.status]}): ${goal.objective} · ${budget}`;
}

/** What to tell the user about a goal update: null when only its usage moved. */
export function goalNotice(previous: ThreadGoal | null, next: ThreadGoal | null): string | null {
  if (next === null) return previous === null ? null : "Goal cleared.";
  if (previous !== null && previous.objective === next.objective && previous.status === next.status) return null;
  return goalSummary(next);
}

export const GOAL_COMMAND: SlashCommand = {
  name: "goal",
  description: "show or set the goal the agent keeps working on (pause, resume, done, clear)",
  duringTask: true,
  argumentHint: "[objective | pause | resume | done | clear]",
  run(ctx, args) {
    const word = args.trim();
    if (word === "") return ctx.print("Goal", [goalSummary(ctx.goal())]);
    if (word === "pause") return void ctx.submit({ type: "set_thread_goal_status", status: "paused" });
    if (word === "resume") return void ctx.submit({ type: "set_thread_goal_status", status: "active" });
    if (word === "done") return void ctx.submit({ type: "set_thread_goal_status", status: "complete" });
    if (word === "clear") return void ctx.submit({ type: "clear_thread_goal" });
    ctx.submit({ type: "set_thread_goal", objective: word });
  },
};
