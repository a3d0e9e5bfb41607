/** update_plan: the model keeps a visible checklist; we validate it and emit a plan_update. */
import type { PlanItem, PlanStatus } from "../../protocol/events.js";
import { ToolError, parseArguments, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";

const STATUSES: readonly PlanStatus[] = ["pending", "in_progress", "completed"];

interface UpdatePlanArgs {
  explanation?: string | null;
  plan?: unknown;
}

export const updatePlanHandler: ToolHandler = {
  payloadKind: "function",
  handle(invocation: ToolInvocation): Promise<ToolOutput> {
    const args = parseArguments<UpdatePlanArgs>(invocation);
    const plan = validatePlan(args.plan);
    invocation.emit({ type: "plan_update", explanation: args.explanation ?? null, plan });
    return Promise.resolve({ text: "Plan updated", success: true });
  },
};

function validatePlan(raw: unknown): PlanItem[] {
  if (!Array.isArray(raw)) throw new ToolError("failed to parse function arguments: `plan` must be an array of {step, status}");
  const plan = raw.map((entry: unknown, index): PlanItem => {
    const { step, status } = (entry ?? {}) as { step?: unknown; status?: unknown };
    if (typeof step !== "string" || !STATUSES.includes(status as PlanStatus)) {
      throw new ToolError(
        `failed to parse function arguments: plan[${index}] needs a string \`step\` and a \`status\` of pending, in_progress or completed`,
      );
    }
    return { step, status: status as PlanStatus };
  });
  if (plan.filter((p) => p.status === "in_progress").length > 1) {
    throw new ToolError("at most one plan step can be in_progress at a time");
  }
  return plan;
}
