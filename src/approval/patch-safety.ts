/**
 * Decides whether a patch may be applied without asking. Patches are written by the agent
 * itself, not by a sandboxed child, so the sandbox's write scope is checked here, on where each
 * path really leads (links resolved, a dangling link by its target), and again by the commit at
 * the moment of each write: writes the scope does not cover go to the user, or are refused when
 * the user asked never to be asked.
 */
import { dirname } from "node:path";
import type { PatchBlocker } from "../protocol/events.js";
import type { AskForApproval, SandboxPolicy } from "../protocol/policy.js";
import { scopeRefusal, type Destination, type WriteScope } from "../util/write-scope.js";

/**
 * `grantRoot`: when the patch writes outside the allowed places, the folder the user is asked
 * to open for the rest of the session (the folder the first offending path leads to). A
 * rejection says what stood in the way, so a front end can name the setting that would allow the write.
 */
export type PatchSafety =
  | { kind: "auto" }
  | { kind: "ask"; grantRoot: string | null; reason: string | null }
  | { kind: "reject"; reason: string; blockedBy: PatchBlocker | null; path: string | null };

// The reasons the model reads, worded as the reference words them (tools match on them).
export const OUTSIDE_PROJECT_REASON = "writing outside of the project; rejected by user approval settings";
export const READ_ONLY_SANDBOX_REASON = "writing is blocked by read-only sandbox; rejected by user approval settings";

/** `scope`: where the sandbox policy lets patches write (null: anywhere). */
export function assessPatchSafety(
  destinations: readonly Destination[],
  approvalPolicy: AskForApproval,
  sandboxPolicy: SandboxPolicy,
  scope: WriteScope | null,
): PatchSafety {
  if (destinations.length === 0) return { kind: "reject", reason: "empty patch", blockedBy: null, path: null };
  const offending = scope === null ? undefined : destinations.find((d) => scopeRefusal(scope, d.canonical) !== null);
  // Under "untrusted" only known-safe reads run unasked, and a patch is never one.
  if (approvalPolicy === "untrusted") return { kind: "ask", grantRoot: null, reason: offending ? linkNote(offending) : null };
  if (offending === undefined) return { kind: "auto" };
  if (approvalPolicy === "never") {
    return sandboxPolicy.type === "read-only"
      ? { kind: "reject", reason: READ_ONLY_SANDBOX_REASON, blockedBy: "read-only-sandbox", path: offending.path }
      : { kind: "reject", reason: OUTSIDE_PROJECT_REASON, blockedBy: "writable-roots", path: offending.path };
  }
  return { kind: "ask", grantRoot: dirname(offending.canonical), reason: linkNote(offending) };
}

/** When a path is a link, the user should see where the write would really go. */
function linkNote(destination: Destination): string | null {
  return destination.canonical === destination.path ? null : `${destination.path} leads to ${destination.canonical}`;
}

export function grantReason(root: string): string {
  return `grant write access to ${root} for this session`;
}
