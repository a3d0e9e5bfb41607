/**
 * Asking the user about an MCP tool call whose annotations say it may change things: an
 * `mcp_tool_call_approval_request` (its own kind, with the server, tool and arguments to show),
 * answered by an `mcp_tool_call_approval` op keyed by the call id. Under `never` nobody is there
 * to ask, and calls proceed.
 */
import type { EventMsg } from "../protocol/events.js";
import type { ReviewDecision } from "../protocol/policy.js";
import { askUser } from "../approval/ask-user.js";
import type { McpApprovalDecision, McpApprovalHook } from "../approval/mcp-tool-approval.js";
import type { PendingApprovals } from "../approval/pending-approvals.js";
import type { TurnContext } from "../tools/turn-context.js";

export function mcpApprovalHook(turn: TurnContext, emit: (msg: EventMsg) => void, approvals: PendingApprovals): McpApprovalHook | undefined {
  if (turn.approvalPolicy === "never") return undefined;
  return async (request) =>
    toMcpDecision(
      await askUser(approvals, emit, {
        type: "mcp_tool_call_approval_request",
        call_id: request.callId,
        turn_id: turn.turnId,
        server: request.server,
        tool: request.tool,
        arguments: request.arguments,
        question: request.question,
      }),
    );
}

function toMcpDecision(decision: ReviewDecision): McpApprovalDecision {
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
