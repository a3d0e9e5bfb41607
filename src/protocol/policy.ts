/** Approval and sandbox policy values, spelled as in the reference's config and protocol. */

export const APPROVAL_POLICIES = ["untrusted", "on-failure", "on-request", "never"] as const;
export type AskForApproval = (typeof APPROVAL_POLICIES)[number];

export const SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** The serialized sandbox policy, as carried by session_configured and turn contexts. */
export type SandboxPolicy =
  | { type: "danger-full-access" }
  | { type: "read-only" }
  | {
      type: "workspace-write";
      writable_roots: string[];
      network_access: boolean;
      exclude_tmpdir_env_var: boolean;
      exclude_slash_tmp: boolean;
    };

export function sandboxPolicyFor(mode: SandboxMode, writableRoots: string[] = []): SandboxPolicy {
  switch (mode) {
    case "danger-full-access":
      return { type: "danger-full-access" };
    case "read-only":
      return { type: "read-only" };
    case "workspace-write":
      return {
        type: "workspace-write",
        writable_roots: writableRoots,
        network_access: false,
        exclude_tmpdir_env_var: false,
        exclude_slash_tmp: false,
      };
  }
}

export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export const REASONING_SUMMARIES = ["auto", "concise", "detailed", "none"] as const;
export type ReasoningSummary = (typeof REASONING_SUMMARIES)[number];

export type ReviewDecision = "approved" | "approved_for_session" | "denied" | "abort";

/**
 * An answer to a command approval: a ReviewDecision, or "approved, and allow every command
 * starting with this prefix from now on" (written to the user's rules), in the reference's shape.
 */
export type ExecApprovalDecision = ReviewDecision | { approved_execpolicy_amendment: { proposed_execpolicy_amendment: string[] } };
