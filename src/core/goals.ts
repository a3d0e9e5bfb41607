/**
 * The thread's goal as the session keeps it: set by the model (create_goal) or the user
 * (`/goal`), charged with the tokens of every turn while it is active, stopped by its budget,
 * and published as `thread_goal_updated` (which the rollout keeps, so a resumed thread has its
 * goal back). The goal tools read and change it through `GoalAccess`.
 */
import { goalUnfinished, type GoalStatus, type ThreadGoal } from "../protocol/goals.js";
import type { GoalAccess, GoalToolView } from "../tools/turn-context.js";

const now = (): number => Math.floor(Date.now() / 1000);

export class GoalTracker implements GoalAccess {
  private goal: ThreadGoal | null = null;
  /** When the goal last became active (ms), for its time used; null while it is not. */
  private activeSince: number | null = null;

  constructor(
    private readonly threadId: string,
    /** `eventId`: the submission the change answers (a user's op); absent: whatever task is running. */
    private readonly publish: (goal: ThreadGoal | null, eventId?: string) => void,
  ) {}

  /** A resumed thread's goal, as its rollout last recorded it (not published again). */
  restore(goal: ThreadGoal | null): void {
    this.goal = goal === null ? null : { ...goal, threadId: this.threadId };
    this.activeSince = goal?.status === "active" ? Date.now() : null;
  }

  current(): ThreadGoal | null {
    return this.goal === null ? null : { ...this.goal, timeUsedSeconds: this.timeUsed() };
  }

  view(): GoalToolView {
    const goal = this.current();
    const remainingTokens = goal?.tokenBudget == null ? null : Math.max(0, goal.tokenBudget - goal.tokensUsed);
    const finished = goal?.status === "complete" && goal.tokenBudget !== null;
    return {
      goal,
      remainingTokens,
      completionBudgetReport: finished && goal ? `${goal.tokensUsed} of ${goal.tokenBudget ?? 0} budgeted tokens used` : null,
    };
  }

  /** A new active goal; refused (with the reason) while an unfinished one exists. */
  create(objective: string, tokenBudget: number | null, eventId?: string): ThreadGoal | string {
    const text = objective.trim();
    if (text === "") return "the objective is empty: say what the goal is";
    if (tokenBudget !== null && !(Number.isInteger(tokenBudget) && tokenBudget > 0)) return "token_budget must be a positive whole number";
    if (goalUnfinished(this.goal)) {
      return `a goal is already set and not complete (${this.goal?.status ?? ""}: ${this.goal?.objective ?? ""}); finish it with update_goal first`;
    }
    const at = now();
    this.goal = { threadId: this.threadId, objective: text, status: "active", tokenBudget, tokensUsed: 0, timeUsedSeconds: 0, createdAt: at, updatedAt: at };
    this.activeSince = Date.now();
    return this.changed(eventId);
  }

  /** A status change; `by` says who asks (the model may not resume a goal, nor set one that is not there). */
  setStatus(status: GoalStatus, by: "model" | "user", eventId?: string): ThreadGoal | string {
    const goal = this.goal;
    if (goal === null) return "there is no goal to update; create one first";
    if (by === "model" && (status === "active" || status === "budget_limited")) return `only the user or the system can set a goal to ${status}`;
    if (goal.status === "budget_limited" && status === "active") return "the goal's token budget is spent; set a new goal to go on";
    goal.timeUsedSeconds = this.timeUsed();
    goal.status = status;
    this.activeSince = status === "active" ? Date.now() : null;
    return this.changed(eventId);
  }

  /**
   * The user's edit (objective, budget, status), keeping the goal's progress; with no goal, an
   * objective makes a new one. One thread_goal_updated for the whole edit.
   */
  edit(changes: { objective?: string; tokenBudget?: number | null; status?: GoalStatus }, eventId?: string): ThreadGoal | string {
    const text = changes.objective?.trim();
    if (text === "") return "the objective is empty: say what the goal is";
    const budget = changes.tokenBudget;
    if (budget !== undefined && budget !== null && !(Number.isInteger(budget) && budget > 0)) return "token_budget must be a positive whole number";
    if (this.goal === null) {
      if (text === undefined) return "there is no goal to update; create one first";
      const at = now();
      this.goal = { threadId: this.threadId, objective: text, status: "active", tokenBudget: budget ?? null, tokensUsed: 0, timeUsedSeconds: 0, createdAt: at, updatedAt: at };
      this.activeSince = Date.now();
    } else {
      if (text !== undefined) this.goal.objective = text;
      if (budget !== undefined) this.goal.tokenBudget = budget;
    }
    const goal = this.goal;
    if (changes.status !== undefined && changes.status !== goal.status) {
      if (goal.status === "budget_limited" && changes.status === "active" && (goal.tokenBudget === null || goal.tokensUsed >= goal.tokenBudget)) return "the goal's token budget is spent; raise it or set a new goal to go on";
      goal.timeUsedSeconds = this.timeUsed();
      goal.status = changes.status;
      this.activeSince = changes.status === "active" ? Date.now() : null;
    }
    return this.changed(eventId);
  }

  clear(eventId?: string): void {
    if (this.goal === null) return;
    this.goal = null;
    this.activeSince = null;
    this.publish(null, eventId);
  }

  /** Charges a response's tokens to an active goal; the budget ends it. */
  charge(tokens: number): void {
    const goal = this.goal;
    if (goal?.status !== "active" || tokens <= 0) return;
    goal.tokensUsed += tokens;
    if (goal.tokenBudget !== null && goal.tokensUsed >= goal.tokenBudget) {
      goal.timeUsedSeconds = this.timeUsed();
      goal.status = "budget_limited";
      this.activeSince = null;
    }
    this.changed();
  }

  /** Whether another turn should go on working toward the goal on its own. */
  wantsContinuation(): boolean {
    const goal = this.goal;
    return goal?.status === "active" && (goal.tokenBudget === null || goal.tokensUsed < goal.tokenBudget);
  }

  private timeUsed(): number {
    const base = this.goal?.timeUsedSeconds ?? 0;
    return this.activeSince === null ? base : base + Math.floor((Date.now() - this.activeSince) / 1000);
  }

  private changed(eventId?: string): ThreadGoal {
    const goal = this.goal as ThreadGoal;
    goal.updatedAt = now();
    const snapshot = this.current() as ThreadGoal;
    this.publish(snapshot, eventId);
    return snapshot;
  }
}
