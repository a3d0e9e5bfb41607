/**
 * What a permission profile says about the file system beyond the legacy sandbox policy: paths
 * that are off limits (`"none"`), paths kept read-only inside writable roots, paths opened for
 * writing again beneath those, and glob patterns whose matches are off limits. Config compiles a
 * profile into this shape (config/permissions.ts); every mechanism that confines a command
 * (bubblewrap, Landlock, Seatbelt) and every read the agent makes itself honour it.
 *
 * Paths are absolute. Between path rules the deepest one wins, so `secrets = "none"` with
 * `secrets/public = "read"` hides the folder but its `public` subfolder. A glob only ever hides.
 */
import { isAbsolute, join, relative, sep } from "node:path";

export type FsAccess = "none" | "read" | "write";

export interface PathRule {
  readonly path: string;
  readonly access: FsAccess;
  /**
   * A denial codex-ts's built-in profiles make out of the box, which the user did not write.
   * A mechanism that can enforce it only by taking write access away (Landlock) leaves it out
   * and says so; the user's own denials are always enforced.
   */
  readonly byDefault?: boolean;
}

/** Paths below `base` whose relative path (with `/`) matches `pattern` are off limits. */
export interface DenyGlob {
  readonly base: string;
  readonly pattern: string;
  /** As for PathRule: one of the built-in denials, not written by the user. */
  readonly byDefault?: boolean;
}

export interface FileSystemRules {
  readonly paths: readonly PathRule[];
  readonly denyGlobs: readonly DenyGlob[];
  /** How many folder levels below a glob's base are searched for matches; null: all of them. */
  readonly globScanMaxDepth: number | null;
  /** Where other hard links to a denied file are looked for (the project roots). */
  readonly searchRoots: readonly string[];
}

export const NO_FILESYSTEM_RULES: FileSystemRules = { paths: [], denyGlobs: [], globScanMaxDepth: null, searchRoots: [] };

/** Whether anything is denied at all (the only rules that need a sandbox even under full access). */
export function deniesAnything(rules: FileSystemRules): boolean {
  return rules.denyGlobs.length > 0 || rules.paths.some((rule) => rule.access === "none");
}

/** A glob as one absolute pattern, the way the model and the user are shown it. */
export function globText(glob: DenyGlob): string {
  return join(glob.base, glob.pattern);
}

/** `path` relative to `base` with `/` separators, or null when it is not below (or at) `base`. */
export function relativeBelow(base: string, path: string): string | null {
  const rel = relative(base, path);
  if (rel === "") return "";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

export function pathDepth(path: string): number {
  return path.split(sep).filter(Boolean).length;
}
