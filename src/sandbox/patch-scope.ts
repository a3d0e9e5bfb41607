/**
 * Where the agent's patches may write under a sandbox policy. Patches are written by codex-ts
 * itself, not by a sandboxed child, so this scope is what keeps them where the sandbox keeps
 * commands: the writable roots (and the folders the user granted for the session), minus the
 * protected folders, all as canonical paths for the write-time check (util/write-scope.ts).
 */
import { join } from "node:path";
import type { SandboxPolicy } from "../protocol/policy.js";
import type { WriteScope } from "../util/write-scope.js";
import { protectedPaths } from "./protected-paths.js";
import { PROTECTED_SUBPATHS, trustedRoots, writableRoots } from "./writable-roots.js";

/** The scope for patches under `policy`; null under danger-full-access, where they may write anywhere. */
export function patchWriteScope(
  policy: SandboxPolicy,
  cwd: string,
  grantedRoots: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): WriteScope | null {
  if (policy.type === "danger-full-access") return null;
  const declared = policy.type === "workspace-write" ? writableRoots(policy, cwd, env) : [];
  const roots = trustedRoots([...declared, ...grantedRoots]);
  // The protected names count whether or not they exist (a patch must not create `.codex`
  // either), and where they are links or a `.git` file names the real git directory, that too.
  const guarded = new Set([...roots.flatMap((root) => PROTECTED_SUBPATHS.map((name) => join(root, name))), ...protectedPaths(roots)]);
  return { roots, protectedPaths: [...guarded], approved: [] };
}
