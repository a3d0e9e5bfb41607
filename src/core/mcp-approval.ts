/**
 * Asking the user about an MCP tool call whose annotations say it may change things. Front ends
 * already answer command approvals, so the question travels as an `exec_approval_request` for
 * the pseudo-command `mcp <server> <tool>` with the reference's question as its reason, and the
 * answer comes back as an `exec_approval` op keyed by the call id. Under `never` nobody is
 * there to ask, and calls proceed.
 */
import type { EventMsg } from "../protocol/events.js";
import type { McpApprovalDecision, McpApprovalHook } from "../approval/mcp-tool-approval.js";
import type { PendingApprovals } from "../approval/pending-approvals.js";
import type { TurnContext } from "../tools/turn-context.js";

export function mcpApprovalHook(turn: TurnContext, emit: (msg: EventMsg) => void, approvals: PendingApprovals): McpApprovalHook | undefined {
  if (turn.approvalPolicy === "never") return undefined;
  return async (request) => {
    const answer = approvals.wait(request.callId);
    emit({
      type: "exec_approval_request",
      call_id: request.callId,
      turn_id: turn.subId,
      command: ["mcp", request.server, request.tool],
      cwd: turn.cwd,
      reason: request.question,
      parsed_cmd: [{ type: "unknown", cmd: `${request.server}.${request.tool}` }],
    });
    return toMcpDecision(await answer);
  };
}

function toMcpDecision(decision: Awaited<ReturnType<PendingApprovals["wait"]>>): McpApprovalDecision {
  switch (decision) {
    case "approved":
      return "accept";
    case "approved_for_session":
      return "accept_for_session";
    case "abort":
      return "cancel";
    case "denied":
      return "decline";
  }
}
