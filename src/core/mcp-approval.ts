/**
 * Asking the user about an MCP tool call whose annotations say it may change things: a question
 * holding an `mcp_tool_call_approval_request` (with the server, tool and arguments to show),
 * keyed by the call id. When nobody can answer (approval `never`), calls proceed, as the
 * reference's do when approvals are not required; an interrupt cancels the call.
 */
import type { EventMsg } from "../protocol/events.js";
import type { ExecApprovalDecision } from "../protocol/policy.js";
import type { McpApprovalDecision, McpApprovalHook } from "../approval/mcp-tool-approval.js";
import type { Questions } from "../approval/questions.js";
import type { TurnContext } from "../tools/turn-context.js";

export function mcpApprovalHook(turn: TurnContext, emit: (msg: EventMsg) => void, questions: Questions): McpApprovalHook {
  return async (request) => {
    const outcome = await questions.ask(
      {
        type: "mcp_tool_call_approval_request",
        call_id: request.callId,
        turn_id: turn.turnId,
        server: request.server,
        tool: request.tool,
        arguments: request.arguments,
        question: request.question,
      },
      { emit, approvalPolicy: turn.approvalPolicy },
    );
    if (outcome.kind === "cancelled") return outcome.reason === "nobody_can_answer" ? "accept" : "cancel";
    return outcome.answer.type === "decision" ? toMcpDecision(outcome.answer.decision) : "decline";
  };
}

function toMcpDecision(decision: ExecApprovalDecision): McpApprovalDecision {
  if (typeof decision === "object") return "accept";
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
