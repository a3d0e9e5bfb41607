/**
 * request_user_input: the model asks the user one to three multiple-choice questions and waits.
 * The questions go out on the questions path (a `question_asked` holding the reference's
 * `request_user_input` event); a front end answers with `answer_question` (or the reference's
 * `user_input_answer` op), and the model reads the answers as JSON (`{"answers": {"<question
 * id>": {"answers": ["…"]}}}`), the reference's format. Every question offers a free-form
 * "other" answer too. An interrupt cancels the question.
 *
 * When nobody can answer (approval policy `never`, as in exec) no question goes out: the model
 * is told at once to carry on without the user.
 */
import type { UserQuestion, UserQuestionOption, UserInputResponse } from "../../protocol/user-questions.js";
import { ToolError, parseArguments, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";

/** What the model reads when no one can answer (our wording). */
export const NO_USER_TO_ASK =
  "request_user_input is unavailable: this session runs without a user who can answer, so make a reasonable choice yourself and state it in your final message.";

interface QuestionArgs {
  id: string;
  header: string;
  question: string;
  options?: UserQuestionOption[] | null;
}

export const requestUserInputHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation: ToolInvocation): Promise<ToolOutput> {
    const { questions } = parseArguments<{ questions: QuestionArgs[] }>(invocation);
    if (questions.some((q) => !q.options || q.options.length === 0)) {
      throw new ToolError("request_user_input requires non-empty options for every question");
    }
    const { turn } = invocation;
    const asked: UserQuestion[] = questions.map((q) => ({
      id: q.id,
      header: q.header,
      question: q.question,
      isOther: true,
      isSecret: false,
      options: (q.options ?? []).map(({ label, description }) => ({ label, description })),
    }));
    const outcome = await turn.services.questions.ask(
      { type: "request_user_input", call_id: invocation.callId, turn_id: turn.turnId, questions: asked },
      { emit: invocation.emit, approvalPolicy: turn.approvalPolicy },
    );
    if (outcome.kind === "cancelled") {
      if (outcome.reason === "nobody_can_answer") return { text: NO_USER_TO_ASK, success: false };
      throw new ToolError("request_user_input was cancelled before receiving a response");
    }
    // An answer of another kind answers nothing.
    const response = outcome.answer.type === "user_input" ? outcome.answer.response : { answers: {} };
    return { text: JSON.stringify(normalized(response)), success: true };
  },
};

/** The answers as the model reads them: string lists keyed by question id, whatever else a front end sent. */
function normalized(response: UserInputResponse): UserInputResponse {
  const answers: UserInputResponse["answers"] = {};
  for (const [id, answer] of Object.entries(response.answers ?? {})) {
    const values: unknown = (answer as { answers?: unknown } | null)?.answers;
    answers[id] = { answers: Array.isArray(values) ? values.filter((v): v is string => typeof v === "string") : [] };
  }
  return { answers };
}
