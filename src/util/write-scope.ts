/**
 * Where the agent's own writes (patches) may land, in canonical paths, and the one test every
 * such write passes at the moment it happens: the place a path really leads to (links
 * resolved, see path-walk.ts) must be inside a root and outside the protected folders, or be a
 * file the user approved for this write.
 */
import { PathWalker, isUnder } from "./path-walk.js";

export interface WriteScope {
  /** Canonical folders writes may land in. */
  roots: readonly string[];
  /** Canonical folders inside the roots that stay read-only (`.git`, `.codex`, a worktree's git directory). */
  protectedPaths: readonly string[];
  /** Canonical files the user approved for this write, wherever they are. */
  approved: readonly string[];
}

/** Why a write may not land on `canonical`, or null when it may. */
export function scopeRefusal(scope: WriteScope, canonical: string): string | null {
  if (scope.approved.includes(canonical)) return null;
  const guarded = scope.protectedPaths.find((path) => isUnder(path, canonical));
  if (guarded !== undefined) return `the path leads to ${canonical}, inside ${guarded}, which stays read-only`;
  if (scope.roots.some((root) => isUnder(root, canonical))) return null;
  return `the path leads to ${canonical}, outside the folders this session may write to`;
}

/** Why a folder may not be created at `canonical` (one on the way to an approved file may), or null. */
export function folderRefusal(scope: WriteScope, canonical: string): string | null {
  if (scope.approved.some((file) => isUnder(canonical, file))) return null;
  return scopeRefusal(scope, canonical);
}

export interface Destination {
  /** The path as the patch names it (absolute). */
  path: string;
  /** Where a write to it would land now: links resolved, missing folders taken as written. */
  canonical: string;
}

/**
 * Where each path leads, for a decision made before writing (the writes check again). A path
 * that cannot be resolved (a loop of links, a file where a folder should be) is reported as
 * itself: the write will fail on it anyway.
 */
export function destinationsOf(targets: ReadonlyArray<{ path: string; followsLinks: boolean }>): Destination[] {
  const walker = new PathWalker();
  try {
    return targets.map(({ path, followsLinks }) => {
      try {
        return { path, canonical: walker.locate(path, { followFinal: followsLinks, missingDirs: "assume" }).canonical };
      } catch {
        return { path, canonical: path };
      }
    });
  } finally {
    walker.close();
  }
}
