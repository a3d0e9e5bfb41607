/**
 * Decides whether a patch may be applied without asking. Patches are written by the agent
 * itself, not by a sandboxed child, so the check here is the only thing keeping a patch inside
 * the places the sandbox policy allows: writes it cannot vouch for go to the user, or are
 * refused when the user asked never to be asked.
 */
import type { AskForApproval, SandboxPolicy } from "../protocol/policy.js";
import { canWritePath } from "../sandbox/writable-roots.js";

export type PatchSafety = { kind: "auto" } | { kind: "ask" } | { kind: "reject"; reason: string };

export const OUTSIDE_PROJECT_REASON = "writing outside of the project; rejected by user approval settings";

export function assessPatchSafety(
  writtenPaths: readonly string[],
  approvalPolicy: AskForApproval,
  sandboxPolicy: SandboxPolicy,
  cwd: string,
): PatchSafety {
  if (writtenPaths.length === 0) return { kind: "reject", reason: "empty patch" };
  // Under "untrusted" only known-safe reads run unasked, and a patch is never one.
  if (approvalPolicy === "untrusted") return { kind: "ask" };
  if (writtenPaths.every((path) => canWritePath(sandboxPolicy, cwd, path))) return { kind: "auto" };
  if (approvalPolicy === "never") return { kind: "reject", reason: OUTSIDE_PROJECT_REASON };
  return { kind: "ask" };
}
