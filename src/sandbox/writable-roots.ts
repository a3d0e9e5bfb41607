/**
 * Where the workspace-write policy lets the agent write: the working directory, the roots the
 * user added, and the temporary directories unless excluded. Inside each root, `.git` and
 * `.codex` stay read-only, so the agent cannot rewrite history or its own configuration.
 */
import { resolve, sep } from "node:path";
import type { SandboxPolicy } from "../protocol/policy.js";
import { PathWalker, isUnder } from "../util/path-walk.js";

export { isUnder };

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
 * The roots as places on disk: canonical (links resolved), deduplicated, shallowest first. A root
 * that does not exist yet is kept as far as it resolves, the rest as written. A root reached
 * through a link that sits inside a writable root is dropped: a sandboxed command could have
 * planted that link (rename the workspace away, link its name to /etc) to have the next command,
 * or the next patch, handed write access wherever it points.
 */
export function trustedRoots(roots: readonly string[]): string[] {
  const walker = new PathWalker();
  try {
    const located = roots.flatMap((root) => {
      try {
        const found = walker.locate(resolve(root), { followFinal: true, missingDirs: "assume" });
        return found.kind === "dir" || found.kind === "missing" ? [found] : [];
      } catch {
        return [];
      }
    });
    const all = located.map((found) => found.canonical);
    const trusted = located.filter((found) => !found.linksFollowed.some((link) => all.some((root) => isUnder(root, link))));
    return [...new Set(trusted.map((found) => found.canonical))].sort(shallowestFirst);
  } finally {
    walker.close();
  }
}

/** Orders paths shallowest first, then by name: the order bind mounts must be stacked in. */
export function shallowestFirst(a: string, b: string): number {
  const depth = (path: string): number => path.split(sep).filter(Boolean).length;
  return depth(a) - depth(b) || a.localeCompare(b);
}
