/**
 * The one way the agent asks the user anything that blocks a tool call: a command, a patch or an
 * MCP tool call. Each kind has its own request event (so a front end can show what is really
 * asked), and every answer comes back as an op keyed by the call id, resolved through the turn's
 * pending approvals. An interrupted turn denies whatever is still waiting.
 */
import type { EventMsg } from "../protocol/events.js";
import type { ReviewDecision } from "../protocol/policy.js";
import type { PendingApprovals } from "./pending-approvals.js";

export type ApprovalRequest = Extract<
  EventMsg,
  { type: "exec_approval_request" } | { type: "apply_patch_approval_request" } | { type: "mcp_tool_call_approval_request" }
>;

export function askUser(pending: PendingApprovals, emit: (msg: EventMsg) => void, request: ApprovalRequest): Promise<ReviewDecision> {
  // Waiting first: a front end may answer synchronously from inside `emit`.
  const decision = pending.wait(request.call_id);
  emit(request);
  return decision;
}

export const isApproval = (decision: ReviewDecision): boolean => decision === "approved" || decision === "approved_for_session";
