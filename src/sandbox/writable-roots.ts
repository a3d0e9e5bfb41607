/**
 * Where the workspace-write policy lets the agent write: the working directory, the roots the
 * user added, and the temporary directories unless excluded. Inside each root, `.git` and
 * `.codex` stay read-only, so the agent cannot rewrite history or its own configuration.
 */
import { join, relative, resolve, sep, isAbsolute } from "node:path";
import { realLocation } from "../util/real-location.js";
import type { SandboxPolicy } from "../protocol/policy.js";

/** Folders under a writable root that stay read-only. */
export const PROTECTED_SUBPATHS = [".git", ".codex"] as const;

type WorkspaceWrite = Extract<SandboxPolicy, { type: "workspace-write" }>;

export function writableRoots(policy: WorkspaceWrite, cwd: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const roots = [cwd, ...policy.writable_roots.map((root) => resolve(cwd, root))];
  if (!policy.exclude_slash_tmp) roots.push("/tmp");
  const tmp = env.TMPDIR;
  if (!policy.exclude_tmpdir_env_var && tmp) roots.push(resolve(tmp));
  return [...new Set(roots)];
}

/**
 * True when the policy lets a write land on `path`. Both the path as written and the path with
 * symlinks resolved must be allowed, so a link inside the workspace cannot lead a write out.
 */
export function canWritePath(policy: SandboxPolicy, cwd: string, path: string, extraRoots: readonly string[] = []): boolean {
  if (policy.type === "danger-full-access") return true;
  // Folders the user granted for the session count as roots, under the same rules as the others.
  const granted = extraRoots.map((root) => resolve(cwd, root));
  const declared = policy.type === "workspace-write" ? [...writableRoots(policy, cwd), ...granted] : granted;
  const roots = declared.flatMap((root) => [root, realLocation(root)]);
  const candidates = [resolve(cwd, path), realLocation(resolve(cwd, path))];
  return candidates.every((candidate) => roots.some((root) => isUnder(root, candidate)) && !isProtected(roots, candidate));
}

/**
 * Protected folders win over every root: `<cwd>/.git` stays read-only even though `/tmp`, which
 * contains it, is itself writable.
 */
function isProtected(roots: readonly string[], path: string): boolean {
  return roots.some((root) => PROTECTED_SUBPATHS.some((name) => isUnder(join(root, name), path)));
}

export function isUnder(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}
