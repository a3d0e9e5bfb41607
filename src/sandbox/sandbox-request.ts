/**
 * What the sandbox launcher (launcher.ts) is asked and answers, shared with the mechanisms it
 * loads on demand (confine.ts).
 */
import type { SandboxPolicy } from "../protocol/policy.js";
import type { DenyView, FileSystemGuard } from "./fs-guard.js";

export type SandboxType = "none" | "bwrap" | "landlock" | "seatbelt";

export interface SandboxedCommand {
  argv: string[];
  env: Record<string, string>;
  sandbox: SandboxType;
}

export class SandboxUnavailableError extends Error {
  override name = "SandboxUnavailableError";
}

export interface SandboxRequest {
  policy: SandboxPolicy;
  cwd: string;
  argv: string[];
  env: Record<string, string>;
  /** The command runs on a PTY and needs its controlling terminal (no new session). */
  tty?: boolean;
  platform?: NodeJS.Platform;
  /** Forces a Linux mechanism; defaults to $CODEX_TS_LINUX_SANDBOX of this process. */
  linuxSandbox?: string;
  /**
   * The permission profile's deny list and read-only paths, enforced under every policy: even
   * under danger-full-access the command is wrapped when something is denied.
   */
  guard?: FileSystemGuard;
}

/** Set to `bwrap` or `landlock` to force one Linux mechanism. */
export const LINUX_SANDBOX_ENV_VAR = "CODEX_TS_LINUX_SANDBOX";
/** Set in the command's environment under Seatbelt, as the reference does. */
export const SANDBOX_ENV_VAR = "CODEX_SANDBOX";

/** The guard's view when it denies anything, or undefined. */
export function nonEmpty(view: DenyView): DenyView | undefined {
  return view.hidden.length + view.readOnly.length + view.writable.length > 0 ? view : undefined;
}
