/**
 * The core's questions (`question_asked`) as the app-server's requests to its clients, and the
 * clients' results as the core's `answer_question` answers: command approvals
 * (`item/commandExecution/requestApproval`), patch approvals (`item/fileChange/requestApproval`),
 * the model's questions (`item/tool/requestUserInput`), and MCP servers' elicitations and tool-call
 * approvals (`mcpServer/elicitation/request`). A result that does not fit counts as "cancel".
 */
import type { QuestionRequest } from "../protocol/events.js";
import type { QuestionAnswer } from "../protocol/ops.js";
import type { UserInputResponse } from "../protocol/user-questions.js";
import type { CommandApprovalDecision, FileChangeApprovalDecision, ThreadActiveFlag } from "../app-server-protocol/v2.js";
import { commandActions, commandDecisionFromV2, fileChangesToV2, reviewDecisionFromV2 } from "../app-server-protocol/convert.js";
import { shellJoin } from "../util/shell-quote.js";

export interface QuestionRoute {
  method: string;
  params: object;
  /** The thread's active flag while the question waits. */
  flag: ThreadActiveFlag;
  /** The command or patch the question holds back (declining it completes that item), else null. */
  itemId: string | null;
  answer(result: unknown): QuestionAnswer;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const FILE_DECISIONS: readonly FileChangeApprovalDecision[] = ["accept", "acceptForSession", "decline", "cancel"];

function commandDecision(result: unknown): CommandApprovalDecision {
  const decision = isObject(result) ? result.decision : undefined;
  if (typeof decision === "string" && (FILE_DECISIONS as readonly string[]).includes(decision)) return decision as FileChangeApprovalDecision;
  if (isObject(decision) && isObject(decision.acceptWithExecpolicyAmendment)) {
    const amendment = decision.acceptWithExecpolicyAmendment.execpolicy_amendment;
    if (Array.isArray(amendment) && amendment.every((a) => typeof a === "string")) return { acceptWithExecpolicyAmendment: { execpolicy_amendment: amendment } };
  }
  return "cancel";
}

function fileDecision(result: unknown): FileChangeApprovalDecision {
  const decision = isObject(result) ? result.decision : undefined;
  return typeof decision === "string" && (FILE_DECISIONS as readonly string[]).includes(decision) ? (decision as FileChangeApprovalDecision) : "cancel";
}

function userInputResponse(result: unknown): UserInputResponse {
  const answers: UserInputResponse["answers"] = {};
  const given = isObject(result) && isObject(result.answers) ? result.answers : {};
  for (const [id, entry] of Object.entries(given)) {
    if (isObject(entry) && Array.isArray(entry.answers)) answers[id] = { answers: entry.answers.filter((a): a is string => typeof a === "string") };
  }
  return { answers };
}

function elicitationAction(result: unknown): "accept" | "decline" | "cancel" {
  const action = isObject(result) ? result.action : undefined;
  return action === "accept" || action === "decline" ? action : "cancel";
}

export function routeQuestion(threadId: string, turnId: string | null, request: QuestionRequest, startedAtMs: number): QuestionRoute {
  switch (request.type) {
    case "exec_approval_request": {
      const amendment = request.proposed_execpolicy_amendment;
      return {
        method: "item/commandExecution/requestApproval",
        params: {
          kind: "command",
          threadId,
          turnId: request.turn_id,
          itemId: request.call_id,
          startedAtMs,
          environmentId: "local",
          ...(request.reason !== undefined ? { reason: request.reason } : {}),
          command: shellJoin(request.command),
          cwd: request.cwd,
          commandActions: commandActions(request.parsed_cmd, request.command),
          ...(amendment ? { proposedExecpolicyAmendment: amendment } : {}),
          availableDecisions: ["accept", "acceptForSession", ...(amendment ? [{ acceptWithExecpolicyAmendment: { execpolicy_amendment: amendment } }] : []), "decline", "cancel"],
        },
        flag: "waitingOnApproval",
        itemId: request.call_id,
        answer: (result) => ({ type: "decision", decision: commandDecisionFromV2(commandDecision(result)) }),
      };
    }
    case "apply_patch_approval_request":
      return {
        method: "item/fileChange/requestApproval",
        params: {
          threadId,
          turnId: request.turn_id,
          itemId: request.call_id,
          startedAtMs,
          ...(request.reason !== undefined ? { reason: request.reason } : {}),
          ...(request.grant_root !== undefined ? { grantRoot: request.grant_root } : {}),
          changes: fileChangesToV2(request.changes),
        },
        flag: "waitingOnApproval",
        itemId: request.call_id,
        answer: (result) => ({ type: "decision", decision: reviewDecisionFromV2(fileDecision(result)) }),
      };
    case "request_user_input":
      return {
        method: "item/tool/requestUserInput",
        params: {
          threadId,
          turnId: request.turn_id,
          itemId: request.call_id,
          questions: request.questions.map((q) => ({ id: q.id, header: q.header, question: q.question, isOther: q.isOther, isSecret: q.isSecret, options: q.options ?? null })),
          isBlocking: true,
          autoResolutionMs: null,
        },
        flag: "waitingOnUserInput",
        itemId: null,
        answer: (result) => ({ type: "user_input", response: userInputResponse(result) }),
      };
    case "elicitation_request":
      return {
        method: "mcpServer/elicitation/request",
        params: {
          threadId,
          turnId,
          serverName: request.server_name,
          mode: "form",
          _meta: null,
          message: request.message,
          requestedSchema: isObject(request.requested_schema) ? request.requested_schema : { type: "object", properties: {} },
        },
        flag: "waitingOnUserInput",
        itemId: null,
        answer: (result) => {
          const action = elicitationAction(result);
          const content = isObject(result) && isObject(result.content) ? result.content : undefined;
          return { type: "elicitation", action, ...(action === "accept" && content ? { content } : {}) };
        },
      };
    case "mcp_tool_call_approval_request":
      // The protocol has no request of its own for this: a confirmation form, as MCP servers ask.
      return {
        method: "mcpServer/elicitation/request",
        params: {
          threadId,
          turnId: request.turn_id,
          serverName: request.server,
          mode: "form",
          _meta: { codex_approval_kind: "mcp_tool_call", tool: request.tool, callId: request.call_id },
          message: request.question,
          requestedSchema: { type: "object", properties: {} },
        },
        flag: "waitingOnApproval",
        itemId: null,
        answer: (result) => {
          const action = elicitationAction(result);
          return { type: "decision", decision: action === "accept" ? "approved" : action === "decline" ? "denied" : "abort" };
        },
      };
  }
}

/** Whether an answer keeps the held-back command or patch from running. */
export function declines(answer: QuestionAnswer): boolean {
  return answer.type === "cancel" || (answer.type === "decision" && (answer.decision === "denied" || answer.decision === "abort"));
}
