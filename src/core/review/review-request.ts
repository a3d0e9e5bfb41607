/**
 * Turns what the user asked to review into the reviewer's first message and a short hint for
 * UIs. The reviewer runs git itself; for a branch, the merge base is looked up first so it
 * reviews exactly what the branch would bring in.
 */
import { execFile } from "node:child_process";
import type { ReviewRequest } from "../../protocol/review.js";

export interface ResolvedReview {
  prompt: string;
  userFacingHint: string;
}

export async function resolveReviewRequest(request: ReviewRequest, cwd: string): Promise<ResolvedReview> {
  const target = request.target;
  const hint = (fallback: string): string => request.user_facing_hint ?? fallback;
  switch (target.type) {
    case "uncommittedChanges":
      return {
        prompt:
          "Review the changes in the working tree that are not committed yet: staged and unstaged edits (`git diff HEAD`) and new files git does not track yet (`git status --porcelain`, then read them).",
        userFacingHint: hint("current changes"),
      };
    case "baseBranch": {
      const base = await mergeBase(cwd, target.branch);
      return {
        prompt: base
          ? `Review the changes this branch makes relative to ${target.branch}: run \`git diff ${base}\` (${base} is the merge base of HEAD and ${target.branch}) and review that diff.`
          : `Review the changes this branch makes relative to ${target.branch}: find the merge base with \`git merge-base HEAD ${target.branch}\`, then review \`git diff <merge-base>\`.`,
        userFacingHint: hint(`changes against ${target.branch}`),
      };
    }
    case "commit": {
      const what = target.title ? `commit ${target.sha} ("${target.title}")` : `commit ${target.sha}`;
      return {
        prompt: `Review the changes introduced by ${what}: run \`git show ${target.sha}\` and review that diff.`,
        userFacingHint: hint(target.title ? `commit ${target.sha.slice(0, 7)}: ${target.title}` : `commit ${target.sha.slice(0, 7)}`),
      };
    }
    case "custom": {
      const instructions = target.instructions.trim();
      if (instructions === "") throw new Error("Review prompt cannot be empty");
      return { prompt: instructions, userFacingHint: hint(instructions.split("\n")[0] ?? instructions) };
    }
  }
}

function mergeBase(cwd: string, branch: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("git", ["merge-base", "HEAD", branch], { cwd, timeout: 10_000 }, (err, stdout) => resolve(err ? null : stdout.trim() || null));
  });
}
