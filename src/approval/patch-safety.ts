/**
 * Decides whether a patch may be applied without asking. Patches are written by the agent
 * itself, not by a sandboxed child, so the check here is the only thing keeping a patch inside
 * the places the sandbox policy allows: writes it cannot vouch for go to the user, or are
 * refused when the user asked never to be asked.
 */
import { dirname, resolve } from "node:path";
import type { PatchBlocker } from "../protocol/events.js";
import type { AskForApproval, SandboxPolicy } from "../protocol/policy.js";
import { canWritePath } from "../sandbox/writable-roots.js";

/**
 * `grantRoot`: when the patch writes outside the allowed places, the folder the user is asked
 * to open for the rest of the session (the first offending path's folder). A rejection says what
 * stood in the way, so a front end can name the setting that would allow the write.
 */
export type PatchSafety =
  | { kind: "auto" }
  | { kind: "ask"; grantRoot: string | null }
  | { kind: "reject"; reason: string; blockedBy: PatchBlocker | null; path: string | null };

// The reasons the model reads, worded as the reference words them (tools match on them).
export const OUTSIDE_PROJECT_REASON = "writing outside of the project; rejected by user approval settings";
export const READ_ONLY_SANDBOX_REASON = "writing is blocked by read-only sandbox; rejected by user approval settings";

export function assessPatchSafety(
  writtenPaths: readonly string[],
  approvalPolicy: AskForApproval,
  sandboxPolicy: SandboxPolicy,
  cwd: string,
  grantedRoots: readonly string[] = [],
): PatchSafety {
  if (writtenPaths.length === 0) return { kind: "reject", reason: "empty patch", blockedBy: null, path: null };
  // Under "untrusted" only known-safe reads run unasked, and a patch is never one.
  if (approvalPolicy === "untrusted") return { kind: "ask", grantRoot: null };
  const offending = writtenPaths.find((path) => !canWritePath(sandboxPolicy, cwd, path, grantedRoots));
  if (offending === undefined) return { kind: "auto" };
  if (approvalPolicy === "never") {
    const path = resolve(cwd, offending);
    return sandboxPolicy.type === "read-only"
      ? { kind: "reject", reason: READ_ONLY_SANDBOX_REASON, blockedBy: "read-only-sandbox", path }
      : { kind: "reject", reason: OUTSIDE_PROJECT_REASON, blockedBy: "writable-roots", path };
  }
  return { kind: "ask", grantRoot: dirname(resolve(cwd, offending)) };
}

export function grantReason(root: string): string {
  return `grant write access to ${root} for this session`;
}
