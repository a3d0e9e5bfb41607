/**
 * Answers to the questions the session asked (approval/questions.ts): `answer_question` by key,
 * and the reference's per-kind ops, mapped onto it: command, patch and MCP-tool approvals (keyed
 * by the tool call's id), request_user_input answers (by call id, or by turn id for the turn's
 * oldest open question), and MCP elicitations (by server and request id).
 */
import { persistAmendment } from "../../approval/exec-policy/amendment.js";
import { questionKey } from "../../approval/questions.js";
import type { QuestionAnswer } from "../../protocol/ops.js";
import type { SessionState } from "../session-state.js";
import type { OpFamily } from "./types.js";
import { errorMessage } from "../../util/errors.js";

export const questionOps: OpFamily<"answer_question" | "exec_approval" | "patch_approval" | "mcp_tool_call_approval" | "user_input_answer" | "resolve_elicitation"> = {
  answer_question: (s, _id, op) => answerQuestion(s, op.key, op.answer),
  exec_approval: (s, _id, op) => answerQuestion(s, op.id, { type: "decision", decision: op.decision }),
  patch_approval: (s, _id, op) => answerQuestion(s, op.id, { type: "decision", decision: op.decision }),
  mcp_tool_call_approval: (s, _id, op) => answerQuestion(s, op.id, { type: "decision", decision: op.decision }),
  user_input_answer: (s, _id, op) => {
    const key = s.questions.has(op.id) ? op.id : s.questions.find((r) => r.type === "request_user_input" && r.turn_id === op.id);
    if (key !== null) s.questions.answer(key, { type: "user_input", response: op.response });
  },
  resolve_elicitation: (s, _id, op) => {
    const key = questionKey({ type: "elicitation_request", server_name: op.server_name, id: op.request_id, message: "" });
    s.questions.answer(key, { type: "elicitation", action: op.decision, ...(op.content ? { content: op.content } : {}) });
  },
};

async function answerQuestion(s: SessionState, key: string, answer: QuestionAnswer): Promise<void> {
  if (answer.type === "decision" && answer.decision === "abort") {
    // "No, and stop": the call is denied and the turn interrupted; the user's answer is what is told.
    s.questions.answer(key, { type: "decision", decision: "denied" }, answer);
    // An interrupt of this thread: its sub-agents at work stop too (the one that asked, if it was one).
    s.agents?.interruptAll();
    return s.tasks.abort("interrupted");
  }
  if (answer.type === "decision" && typeof answer.decision === "object" && s.questions.has(key)) {
    // "Always allow this prefix": written to the user's rules first; the command runs either way.
    amendRules(s, answer.decision.approved_execpolicy_amendment.proposed_execpolicy_amendment);
  }
  s.questions.answer(key, answer);
}

function amendRules(s: SessionState, prefix: string[]): void {
  const rules = s.options.execPolicy;
  try {
    if (!rules) throw new Error("this session has no rules to amend");
    persistAmendment(rules.codexHome, rules.policy, prefix);
  } catch (err) {
    s.send(s.activeSubId, { type: "warning", message: `Failed to apply execpolicy amendment: ${errorMessage(err)}` });
  }
}
