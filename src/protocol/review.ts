/**
 * Review mode's wire shapes: what to review (the `review` op), and what the reviewer found (the
 * `exited_review_mode` event), with the reference's field names.
 */

export type ReviewTarget =
  | { type: "uncommittedChanges" }
  | { type: "baseBranch"; branch: string }
  | { type: "commit"; sha: string; title?: string }
  | { type: "custom"; instructions: string };

export interface ReviewRequest {
  target: ReviewTarget;
  /** A short description for UIs ("changes against main"); derived from the target when absent. */
  user_facing_hint?: string;
}

export interface ReviewLineRange {
  start: number;
  end: number;
}

export interface ReviewFinding {
  title: string;
  body: string;
  confidence_score: number;
  /** 0 (must fix) to 3 (nit). */
  priority: number;
  code_location: { absolute_file_path: string; line_range: ReviewLineRange };
}

export interface ReviewOutputEvent {
  findings: ReviewFinding[];
  overall_correctness: string;
  overall_explanation: string;
  overall_confidence_score: number;
}

/** `path:start-end` (or `path:line` for one line). */
export function findingLocation(f: ReviewFinding): string {
  const { start, end } = f.code_location.line_range;
  return `${f.code_location.absolute_file_path}:${start === end || end === 0 ? start : `${start}-${end}`}`;
}
