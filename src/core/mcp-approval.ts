/**
 * Asking about an MCP tool call whose annotations say it may change things: PermissionRequest
 * hooks first, then the user through a question
 * holding an `mcp_tool_call_approval_request` (with the server, tool and arguments to show),
 * keyed by the call id. When nobody can answer (approval `never`), calls proceed, as the
 * reference's do when approvals are not required; an interrupt cancels the call.
 */
import type { EventMsg } from "../protocol/events.js";
import type { ExecApprovalDecision } from "../protocol/policy.js";
import type { McpApprovalDecision, McpApprovalHook } from "../approval/mcp-tool-approval.js";
import { nobodyCanAnswer, type Questions } from "../approval/questions.js";
import { hookTurn } from "../tools/tool-hooks.js";
import type { TurnContext } from "../tools/turn-context.js";

export function mcpApprovalHook(turn: TurnContext, emit: (msg: EventMsg) => void, questions: Questions): McpApprovalHook {
  return async (request) => {
    // PermissionRequest hooks answer first; the user is asked only when none decided.
    const hooks = turn.services.hooks;
    if (hooks?.has("PermissionRequest") && !nobodyCanAnswer(turn.approvalPolicy)) {
      const call = { toolName: request.qualifiedName, toolInput: request.arguments ?? {}, toolUseId: request.callId };
      const verdict = await hooks.permissionRequest(hookTurn(turn, emit), call);
      if (verdict !== null) return verdict.kind === "allow" ? "accept" : "decline";
    }
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
