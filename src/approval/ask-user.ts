/**
 * Approvals on the questions path (questions.ts): a command, a patch or an MCP tool call waits
 * for the user's decision. Each kind keeps the reference's own request event inside the
 * question; anything but an approving decision (a cancel, an interrupt, nobody to ask) denies.
 */
import type { QuestionRequest } from "../protocol/events.js";
import type { ReviewDecision } from "../protocol/policy.js";
import type { AskScope, Questions } from "./questions.js";

export type ApprovalRequest = Extract<QuestionRequest, { type: "exec_approval_request" | "apply_patch_approval_request" | "mcp_tool_call_approval_request" }>;

export async function askUser(questions: Questions, scope: AskScope, request: ApprovalRequest): Promise<ReviewDecision> {
  const outcome = await questions.ask(request, scope);
  if (outcome.kind === "cancelled" || outcome.answer.type !== "decision") return "denied";
  const decision = outcome.answer.decision;
  // "Approved, and allow this prefix from now on": the session wrote the rule; this call is approved.
  return typeof decision === "object" ? "approved" : decision;
}

export const isApproval = (decision: ReviewDecision): boolean => decision === "approved" || decision === "approved_for_session";
