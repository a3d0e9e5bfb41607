/**
 * Plan mode, in the model's terms: what it is told when the user switches it on (plan, ask,
 * change nothing) and off (work again). The session enforces the "change nothing" part itself
 * (session-state.ts: read-only commands, no patch tool); these words explain it to the model.
 */
import type { CollaborationMode } from "../protocol/ops.js";

const PLAN = [
  "<collaboration_mode>plan</collaboration_mode>",
  "The user switched to plan mode. Until they switch back, your job is to work out how the task should be done, not to do it:",
  "- Read and explore freely (commands run read-only; nothing you run can change files, and you cannot ask to leave the sandbox).",
  "- Do not try to edit files: there is no patch tool while planning.",
  "- When a choice depends on what the user wants, ask with request_user_input instead of guessing.",
  "- End with a plan: the steps in order, the files each one touches, how the result will be checked, and the risks or open questions.",
  "Keep the plan concrete enough that it can be carried out once the user leaves plan mode.",
].join("\n");

const DEFAULT = [
  "<collaboration_mode>default</collaboration_mode>",
  "The user left plan mode. Work normally again: you may change files and run commands under the usual permissions, following the plan agreed so far unless the user says otherwise.",
].join("\n");

export function collaborationModeText(mode: CollaborationMode): string {
  return mode === "plan" ? PLAN : DEFAULT;
}
