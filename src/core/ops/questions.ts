/**
 * Answers to the questions the session asked: command, patch and MCP-tool approvals (keyed by
 * the tool call's id), request_user_input answers, and MCP servers' elicitations.
 */
import { persistAmendment } from "../../approval/exec-policy/amendment.js";
import type { SessionState } from "../session-state.js";
import type { OpFamily, OpOf } from "./types.js";

type ApprovalOp = OpOf<"exec_approval" | "patch_approval" | "mcp_tool_call_approval">;

export const questionOps: OpFamily<"exec_approval" | "patch_approval" | "mcp_tool_call_approval" | "user_input_answer" | "resolve_elicitation"> = {
  exec_approval: (s, _id, op) => answerApproval(s, op),
  patch_approval: (s, _id, op) => answerApproval(s, op),
  mcp_tool_call_approval: (s, _id, op) => answerApproval(s, op),
  user_input_answer: (s, _id, op) => {
    s.userInput.resolve(op.id, op.response);
  },
  resolve_elicitation: (s, _id, op) => {
    s.elicitations.resolve(op.server_name, op.request_id, { action: op.decision, ...(op.content ? { content: op.content } : {}) });
  },
};

async function answerApproval(s: SessionState, op: ApprovalOp): Promise<void> {
  if (op.decision === "abort") {
    s.approvals.resolve(op.id, "denied");
    return s.tasks.abort("interrupted");
  }
  if (typeof op.decision === "object") {
    // "Always allow this prefix": written to the user's rules first; the command runs either way.
    amendRules(s, op.decision.approved_execpolicy_amendment.proposed_execpolicy_amendment);
    s.approvals.resolve(op.id, "approved");
    return;
  }
  s.approvals.resolve(op.id, op.decision);
}

function amendRules(s: SessionState, prefix: string[]): void {
  const rules = s.options.execPolicy;
  try {
    if (!rules) throw new Error("this session has no rules to amend");
    persistAmendment(rules.codexHome, rules.policy, prefix);
  } catch (err) {
    s.send(s.activeSubId, { type: "warning", message: `Failed to apply execpolicy amendment: ${(err as Error).message}` });
  }
}
