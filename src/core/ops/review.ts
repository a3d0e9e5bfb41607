/**
 * `review`: a code review as a task of its own (replacing one still running) with the review
 * model, the reviewer's instructions and a history of its own; see ../tasks/review-task.ts.
 */
import type { ModelInfo } from "../../model/catalog.js";
import type { TurnContext } from "../../tools/turn-context.js";
import { environmentItem } from "../initial-context.js";
import { resolveReviewRequest, type ResolvedReview } from "../review/review-request.js";
import { ReviewTask } from "../tasks/review-task.js";
import type { OpFamily } from "./types.js";
import { errorMessage } from "../../util/errors.js";

export const reviewOps: OpFamily<"review"> = {
  review: async (s, id, op) => {
    const request = op.review_request;
    await s.tasks.abort("replaced");
    let resolved: ResolvedReview;
    try {
      resolved = await resolveReviewRequest(request, s.settings.cwd);
    } catch (err) {
      s.send(id, { type: "error", message: errorMessage(err), codex_error_info: "other" });
      return;
    }
    s.recorder?.persist();
    const parent = s.turnContext(id, null);
    const turn: TurnContext = {
      ...parent,
      model: reviewerModel(s.modelInfo(s.options.reviewModel ?? s.settings.model)),
      reasoningEffort: "low",
      reasoningSummary: "detailed",
    };
    const task = new ReviewTask(resolved.prompt, [environmentItem(s.settings, s.options.userShell)], s.history, (msg) => s.tasks.active?.emit(msg));
    s.tasks.spawn(turn, task, () => ({ type: "entered_review_mode", target: request.target, user_facing_hint: resolved.userFacingHint }));
  },
};

/** The review model's tools: a plain shell (no long-lived sessions), no images, no questions, no web search. */
function reviewerModel(model: ModelInfo): ModelInfo {
  return { ...model, shellTool: model.shellTool === "exec_command" ? "shell_command" : model.shellTool, viewImageTool: false, requestUserInputTool: false, webSearch: null };
}
