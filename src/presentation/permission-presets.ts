/**
 * The permission presets front ends offer (the interactive UI's /permissions, the ACP server's
 * modes), as the reference offers them: what the agent may do without asking.
 */
import type { AskForApproval, SandboxMode, SandboxPolicy } from "../protocol/policy.js";

export interface PermissionPreset {
  id: "read-only" | "auto" | "full-access";
  label: string;
  description: string;
  approval: AskForApproval;
  sandbox: SandboxMode;
}

export const PERMISSION_PRESETS: readonly PermissionPreset[] = [
  { id: "read-only", label: "Read Only", description: "reads files; asks before editing or running anything else", approval: "on-request", sandbox: "read-only" },
  { id: "auto", label: "Auto", description: "edits and runs commands in the workspace; asks to go beyond it", approval: "on-request", sandbox: "workspace-write" },
  { id: "full-access", label: "Full Access", description: "edits and runs anything, network included, without asking", approval: "never", sandbox: "danger-full-access" },
];

/**
 * The preset that describes these settings: the one that matches them exactly, else the one with
 * the same sandbox (settings from config may pair a sandbox with another approval policy).
 */
export function presetOf(approval: AskForApproval, sandbox: SandboxPolicy): PermissionPreset {
  const sameSandbox = PERMISSION_PRESETS.filter((p) => p.sandbox === sandbox.type);
  return sameSandbox.find((p) => p.approval === approval) ?? sameSandbox[0] ?? (PERMISSION_PRESETS[0] as PermissionPreset);
}
