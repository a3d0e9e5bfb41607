/**
 * Turns a profile's file-system rules into the concrete paths a sandbox must hide, keep
 * read-only or open for writing, as they are on disk right now, and answers whether the agent
 * may read or write one path itself (apply_patch, view_image, the `@` file list).
 *
 * A session keeps one guard. `view()` runs before every sandboxed command, so files that start to
 * match a deny glob after the session started are hidden from the next command on. Folder
 * listings are cached and reread only when a folder's modification time changed, so the walk
 * costs one `lstat` per folder once the cache is warm.
 *
 * What is hidden:
 * - every existing path a `"none"` rule names, by its real path (so a symlink to it, `..` in a
 *   path or `/proc/self/root/...` reach the hidden node too);
 * - every match of a deny glob below its base, up to `glob_scan_max_depth` levels when that is
 *   set; a matching folder is hidden whole, a matching symlink hides its target;
 * - other hard links to a hidden file, when they are inside the search roots (the project roots).
 *   A link elsewhere on the disk is a different path that nothing here can know about.
 * Symlinked folders are not walked into (a link loop cannot trap the walk); what they point at
 * is hidden where it is matched or named.
 */
import { lstatSync, readdirSync, realpathSync, statSync, type BigIntStats } from "node:fs";
import { dirname, join, resolve } from "node:path";
import picomatch from "picomatch";
import { pathDepth, relativeBelow, type DenyGlob, type FileSystemRules, type FsAccess } from "./fs-rules.js";

export interface HiddenPath {
  path: string;
  /** A folder is replaced by an empty read-only one; anything else by an unreadable node. */
  dir: boolean;
}

/** Real, existing paths, ready for a mechanism to enforce. */
export interface DenyView {
  hidden: HiddenPath[];
  readOnly: string[];
  writable: string[];
}

interface Entry {
  name: string;
  kind: "dir" | "file" | "link" | "other";
  /** The inode, read the first time a hard-link search needs it. */
  ino?: bigint;
}

interface CachedDir {
  mtimeNs: bigint;
  ino: bigint;
  dev: bigint;
  entries: Entry[];
  /** Per glob (and relative path of this folder): the entries it matches and the folders to walk on. */
  matches: Map<string, { matched: string[]; walk: string[] }>;
}

interface CompiledGlob {
  glob: DenyGlob;
  test: (rel: string) => boolean;
  /** `dir/**`: the base folder itself is hidden. */
  wholeBase: boolean;
}

export class FileSystemGuard {
  private readonly dirs = new Map<string, CachedDir>();
  private readonly globs: CompiledGlob[];

  constructor(readonly rules: FileSystemRules) {
    this.globs = rules.denyGlobs.map((glob) => ({
      glob,
      test: picomatch(glob.pattern, { dot: true }),
      wholeBase: glob.pattern.split("/").every((segment) => segment === "**"),
    }));
  }

  /** What to hide, keep read-only and reopen for writing, as the disk is now. */
  view(): DenyView {
    const hidden = new Map<string, boolean>();
    const readOnly = new Set<string>();
    const writable = new Set<string>();
    const hide = (path: string): void => {
      const info = statOrNull(path);
      if (info !== null) hidden.set(realOr(path), info.isDirectory());
    };
    for (const rule of this.rules.paths) {
      const real = realOrNull(rule.path);
      if (real === null) continue;
      if (rule.access === "none") hide(real);
      else if (rule.access === "read") readOnly.add(real);
      else writable.add(real);
    }
    for (const glob of this.globs) this.collectMatches(glob, hide);
    this.collectHardLinks(hidden);
    return {
      hidden: [...hidden].map(([path, dir]) => ({ path, dir })),
      readOnly: [...readOnly],
      writable: [...writable],
    };
  }

  /**
   * Why the agent may not touch `path` (read or write), or null when it may. The path as given
   * and its real path are both checked; a glob matches at any depth here, and a hard link to a
   * hidden file is refused like the file.
   */
  deniedReason(path: string): string | null {
    const absolute = resolve(path);
    for (const candidate of new Set([absolute, realPrefix(absolute)])) {
      const reason = this.ruleReason(candidate, true);
      if (reason !== null) return `${path} is off limits: ${reason}`;
    }
    const info = lstatOrNull(absolute);
    if (info !== null && info.isFile() && info.nlink > 1n) {
      // Wherever this name is, it may be another name of a hidden file.
      const key = inodeKey(info);
      const hidden = new Map(this.view().hidden.map((entry) => [entry.path, entry.dir]));
      let twin: string | null = null;
      this.forEachHiddenFile(hidden, (file, fileInfo) => {
        if (twin === null && inodeKey(fileInfo) === key && file !== absolute) twin = file;
      });
      if (twin !== null) return `${path} is off limits: it is a hard link to ${twin}, which is denied`;
    }
    return null;
  }

  /** Whether the rules deny `path` by its name alone, without looking at the disk (for long file lists). */
  deniedByName(path: string): boolean {
    return this.ruleReason(resolve(path), false) !== null;
  }

  /** Why the rules deny `candidate`; with `real`, rule paths are also compared by their real paths. */
  private ruleReason(candidate: string, real: boolean): string | null {
    if (this.deepestRule(candidate, real) === "none") return "the permission profile denies access to it";
    for (const { glob, test, wholeBase } of this.globs) {
      for (const base of new Set(real ? [glob.base, realOr(glob.base)] : [glob.base])) {
        const rel = relativeBelow(base, candidate);
        if (rel !== null && (wholeBase || prefixes(rel).some((prefix) => test(prefix)))) return `it matches the denied pattern ${join(glob.base, glob.pattern)}`;
      }
    }
    return null;
  }

  private deepestRule(path: string, real: boolean): FsAccess | null {
    let best: { depth: number; access: FsAccess } | null = null;
    for (const rule of this.rules.paths) {
      for (const base of new Set(real ? [rule.path, realOr(rule.path)] : [rule.path])) {
        if (relativeBelow(base, path) === null) continue;
        const depth = pathDepth(base);
        // Deeper wins; at the same depth "none" beats the others.
        if (best === null || depth > best.depth || (depth === best.depth && rule.access === "none")) best = { depth, access: rule.access };
      }
    }
    return best?.access ?? null;
  }

  private collectMatches({ glob, test, wholeBase }: CompiledGlob, hide: (path: string) => void): void {
    const base = realOrNull(glob.base);
    if (base === null) return;
    if (wholeBase) {
      hide(base);
      return;
    }
    const maxDepth = this.rules.globScanMaxDepth;
    const walk = (dir: string, relDir: string, depth: number): void => {
      const entries = this.entries(dir);
      const cached = this.dirs.get(dir);
      const key = `${glob.base}\0${glob.pattern}\0${relDir}`;
      // An unchanged folder matches as it did last time: no pattern is tested again.
      let found = cached?.matches.get(key);
      if (found === undefined) {
        found = { matched: [], walk: [] };
        for (const entry of entries) {
          const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
          if (test(rel)) found.matched.push(entry.name);
          else if (entry.kind === "dir") found.walk.push(entry.name);
        }
        cached?.matches.set(key, found);
      }
      for (const name of found.matched) hide(join(dir, name));
      if (maxDepth !== null && depth >= maxDepth) return;
      for (const name of found.walk) walk(join(dir, name), relDir === "" ? name : `${relDir}/${name}`, depth + 1);
    };
    walk(base, "", 1);
  }

  /**
   * Adds the other names of hidden files (and of files inside hidden folders) that have more than
   * one, found in the search roots.
   */
  private collectHardLinks(hidden: Map<string, boolean>): void {
    const wanted = new Set<string>();
    this.forEachHiddenFile(hidden, (_, info) => {
      if (info.nlink > 1n) wanted.add(inodeKey(info));
    });
    if (wanted.size === 0) return;
    const seen = new Set<string>();
    const walk = (dir: string): void => {
      if (seen.has(dir) || hidden.get(dir) === true) return;
      seen.add(dir);
      const entries = this.entries(dir);
      const dev = this.dirs.get(dir)?.dev;
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.kind === "dir") walk(path);
        else if (entry.kind === "file") {
          // Files in one folder share its device; only the inode has to be read, once.
          entry.ino ??= lstatOrNull(path)?.ino ?? -1n;
          if (wanted.has(`${dev}:${entry.ino}`) && !hidden.has(path)) hidden.set(path, false);
        }
      }
    };
    for (const root of this.rules.searchRoots) {
      const real = realOrNull(root);
      if (real !== null) walk(real);
    }
  }

  /** Every hidden file and every file inside a hidden folder, with its (fresh) lstat. */
  private forEachHiddenFile(hidden: Map<string, boolean>, visit: (path: string, info: BigIntStats) => void): void {
    const consider = (path: string): void => {
      const info = lstatOrNull(path);
      if (info !== null && info.isFile()) visit(path, info);
    };
    const walk = (dir: string): void => {
      for (const entry of this.entries(dir)) {
        const path = join(dir, entry.name);
        if (entry.kind === "dir") walk(path);
        else if (entry.kind === "file") consider(path);
      }
    };
    for (const [path, dir] of hidden) {
      if (dir) walk(path);
      else consider(path);
    }
  }

  /** A folder's entries, from the cache while the folder is unchanged. */
  private entries(dir: string): Entry[] {
    const info = lstatOrNull(dir);
    if (info === null || !info.isDirectory()) {
      this.dirs.delete(dir);
      return [];
    }
    const cached = this.dirs.get(dir);
    if (cached !== undefined && cached.mtimeNs === info.mtimeNs && cached.ino === info.ino) return cached.entries;
    let entries: Entry[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).map((dirent) => ({
        name: dirent.name,
        kind: dirent.isDirectory() ? "dir" : dirent.isSymbolicLink() ? "link" : dirent.isFile() ? "file" : "other",
      }));
    } catch {
      // Unreadable for us means unreadable for the commands we start too.
      entries = [];
    }
    this.dirs.set(dir, { mtimeNs: info.mtimeNs, ino: info.ino, dev: info.dev, entries, matches: new Map() });
    return entries;
  }
}

/** "", "a", "a/b", … up to `rel` itself: a path is inside a match when any of these matches. */
function prefixes(rel: string): string[] {
  const parts = rel.split("/");
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
}

function inodeKey(info: BigIntStats): string {
  return `${info.dev}:${info.ino}`;
}

function lstatOrNull(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true });
  } catch {
    return null;
  }
}

function statOrNull(path: string): BigIntStats | null {
  try {
    return statSync(path, { bigint: true });
  } catch {
    return null;
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function realOr(path: string): string {
  return realOrNull(path) ?? path;
}

/** The path with symlinks resolved in the part of it that exists. */
function realPrefix(path: string): string {
  const real = realOrNull(path);
  if (real !== null) return real;
  const parent = dirname(path);
  return parent === path ? path : join(realPrefix(parent), path.slice(parent.length + (parent.endsWith("/") ? 0 : 1)));
}
