/**
 * Questions relayed to a client as an elicitation form (the MCP server's `elicitation/create`,
 * the ACP server's). request_user_input: one string field per question (its header as the title,
 * the question as the description, the option labels as the allowed values), and the client's
 * form content turned back into the answers the model reads; a client that declines, cancels or
 * cannot elicit leaves every question unanswered. An MCP server's own question: the client's
 * action passed back, with the form's content when it accepted.
 */
import type { EventMsg } from "../protocol/events.js";
import type { QuestionAnswer } from "../protocol/ops.js";
import type { UserInputResponse } from "../protocol/user-questions.js";

type QuestionEvent = Extract<EventMsg, { type: "request_user_input" }>;

export interface QuestionsElicitation {
  message: string;
  requestedSchema: { type: "object"; properties: Record<string, { type: "string"; title: string; description: string; enum?: string[] }> };
}

export function questionsElicitation(msg: QuestionEvent): QuestionsElicitation {
  const properties: QuestionsElicitation["requestedSchema"]["properties"] = {};
  for (const q of msg.questions) {
    const labels = (q.options ?? []).map((o) => o.label);
    properties[q.id] = { type: "string", title: q.header, description: q.question, ...(labels.length > 0 ? { enum: labels } : {}) };
  }
  return { message: msg.questions.map((q) => q.question).join("\n"), requestedSchema: { type: "object", properties } };
}

/** The answers in an elicitation result (string or string-list fields of an accepted form). */
export function answersFromElicitResult(result: Record<string, unknown>): UserInputResponse {
  const answers: UserInputResponse["answers"] = {};
  const content = result.content;
  if (result.action !== "accept" || typeof content !== "object" || content === null) return { answers };
  for (const [id, value] of Object.entries(content as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value];
    const texts = values.filter((v): v is string => typeof v === "string" && v !== "");
    if (texts.length > 0) answers[id] = { answers: texts };
  }
  return { answers };
}

/** An MCP server's question answered by the client's elicitation result; no result, or an action it does not know, declines. */
export function elicitationAnswer(result: Record<string, unknown> | null): QuestionAnswer {
  const action = result?.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel") return { type: "elicitation", action: "decline" };
  const content = result?.content;
  const values = action === "accept" && typeof content === "object" && content !== null && !Array.isArray(content) ? (content as Record<string, unknown>) : undefined;
  return { type: "elicitation", action, ...(values ? { content: values } : {}) };
}
