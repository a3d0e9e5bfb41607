/**
 * Turns a profile's file-system rules into the concrete paths a sandbox must hide, keep
 * read-only or open for writing, as they are on disk right now, and answers whether the agent
 * may read or write one path itself (apply_patch, view_image, the `@` file list).
 *
 * A session keeps one guard. `view()` runs before every sandboxed command, so files that start to
 * match a deny glob after the session started are hidden from the next command on. Folder
 * listings are cached and reread only when a folder may have changed (folder-listings.ts), and
 * the globs sharing a base are matched in one walk, so a view costs one `lstat` per folder once
 * the cache is warm; `prewarm()` makes the first walk in the background when the session starts.
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
import { lstatSync, realpathSync, statSync, type BigIntStats } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type Picomatch from "picomatch";
import { FolderListings, type Listing } from "./folder-listings.js";
import { pathDepth, relativeBelow, type DenyGlob, type FileSystemRules, type FsAccess } from "./fs-rules.js";

export interface HiddenPath {
  path: string;
  /** A folder is replaced by an empty read-only one; anything else by an unreadable node. */
  dir: boolean;
  /** Only built-in denials hide it (fs-rules.ts): a mechanism may leave it out where enforcing it costs write access. */
  byDefault?: boolean;
}

/** Real, existing paths, ready for a mechanism to enforce. */
export interface DenyView {
  hidden: HiddenPath[];
  readOnly: string[];
  writable: string[];
}

interface CompiledGlob {
  glob: DenyGlob;
  test: (rel: string) => boolean;
  /** `dir/**`: the base folder itself is hidden. */
  wholeBase: boolean;
}

/** The globs sharing one base, matched in one walk of its tree. */
interface GlobGroup {
  base: string;
  globs: CompiledGlob[];
  /** Some glob is the user's own: a folder only a built-in glob hides is still searched for its matches. */
  anyStrict: boolean;
}

/** What one folder's entries match, for one group (memoized in its listing while it is unchanged). */
interface FolderMatches {
  /**
   * The real base the folder was reached from: with no link followed on the way, the folder's
   * path relative to it, which the matches depend on, follows (a symlinked base may move).
   */
  base: string;
  matched: Array<{ name: string; byDefault: boolean }>;
  walk: string[];
}

export interface GuardOptions {
  /** Where the guard's warnings go (a session's warning events, the CLI's stderr). */
  warn?: (message: string) => void;
}

export class FileSystemGuard {
  private readonly listings = new FolderListings<FolderMatches>();
  private readonly globs: CompiledGlob[];
  private readonly wholeBases: CompiledGlob[];
  private readonly groups: GlobGroup[];
  private readonly warned = new Set<string>();
  private prewarming: Promise<void> | null = null;

  constructor(
    readonly rules: FileSystemRules,
    private readonly options: GuardOptions = {},
  ) {
    this.globs = rules.denyGlobs.map((glob) => ({
      glob,
      test: globMatcher()(glob.pattern, { dot: true }),
      wholeBase: glob.pattern.split("/").every((segment) => segment === "**"),
    }));
    this.wholeBases = this.globs.filter((c) => c.wholeBase);
    const byBase = new Map<string, CompiledGlob[]>();
    for (const c of this.globs.filter((c) => !c.wholeBase)) byBase.set(c.glob.base, [...(byBase.get(c.glob.base) ?? []), c]);
    this.groups = [...byBase].map(([base, globs]) => ({ base, globs, anyStrict: globs.some((c) => c.glob.byDefault !== true) }));
  }

  /** What to hide, keep read-only and reopen for writing, as the disk is now. */
  view(): DenyView {
    const hidden = new Map<string, { dir: boolean; byDefault: boolean }>();
    const readOnly = new Set<string>();
    const writable = new Set<string>();
    const hide = (path: string, byDefault: boolean): void => {
      const info = statSync(path, { throwIfNoEntry: false });
      if (info === undefined) return;
      const real = realOr(path);
      // Hidden by the user's own rule anywhere: enforced as the user's.
      hidden.set(real, { dir: info.isDirectory(), byDefault: byDefault && (hidden.get(real)?.byDefault ?? true) });
    };
    for (const rule of this.rules.paths) {
      const real = realOrNull(rule.path);
      if (real === null) continue;
      if (rule.access === "none") hide(real, rule.byDefault === true);
      else if (rule.access === "read") readOnly.add(real);
      else writable.add(real);
    }
    for (const { glob } of this.wholeBases) hide(glob.base, glob.byDefault === true);
    this.groups.forEach((group, index) => this.collectMatches(index, group, hide));
    this.collectHardLinks(hidden);
    return {
      hidden: [...hidden].map(([path, { dir, byDefault }]) => ({ path, dir, ...(byDefault ? { byDefault } : {}) })),
      readOnly: [...readOnly],
      writable: [...writable],
    };
  }

  /**
   * Lists the folders the deny patterns search, in the background, so the session's first
   * command does not wait for the first walk (a large tree takes a few hundred milliseconds).
   * Nothing is trusted more for it: every view still checks each folder.
   */
  prewarm(): Promise<void> {
    this.prewarming ??= (async () => {
      for (const [index, group] of this.groups.entries()) {
        const base = realOrNull(group.base);
        if (base !== null) await this.prewarmTree(index, group, base);
      }
    })().catch(() => undefined);
    return this.prewarming;
  }

  /** Passes `message` to the warning sink the first time this guard is told about `topic`. */
  warnOnce(topic: string, message: string): void {
    if (this.warned.has(topic)) return;
    this.warned.add(topic);
    this.options.warn?.(message);
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
      const hidden = new Map(this.view().hidden.map((entry) => [entry.path, entry]));
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

  private collectMatches(index: number, group: GlobGroup, hide: (path: string, byDefault: boolean) => void): void {
    const base = realOrNull(group.base);
    if (base === null) return;
    const maxDepth = this.rules.globScanMaxDepth;
    const walk = (dir: string, depth: number): void => {
      const listing = this.listings.get(dir);
      if (listing === null) return;
      const found = this.matchesIn(index, group, listing, base, dir);
      for (const { name, byDefault } of found.matched) hide(childPath(dir, name), byDefault);
      if (maxDepth !== null && depth >= maxDepth) return;
      for (const name of found.walk) walk(childPath(dir, name), depth + 1);
    };
    walk(base, 1);
  }

  /** The same walk as collectMatches, without blocking and without hiding anything. */
  private async prewarmTree(index: number, group: GlobGroup, base: string): Promise<void> {
    const maxDepth = this.rules.globScanMaxDepth;
    const pending: Array<{ dir: string; depth: number }> = [{ dir: base, depth: 1 }];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const listing = await this.listings.load(next.dir);
      if (listing === null || (maxDepth !== null && next.depth >= maxDepth)) continue;
      for (const name of this.matchesIn(index, group, listing, base, next.dir).walk) pending.push({ dir: childPath(next.dir, name), depth: next.depth + 1 });
    }
  }

  /** What a folder's entries match; an unchanged folder matches as it did last time, without testing a pattern. */
  private matchesIn(index: number, group: GlobGroup, listing: Listing<FolderMatches>, base: string, dir: string): FolderMatches {
    const memo = listing.memo.get(index);
    if (memo !== undefined && memo.base === base) return memo;
    const found: FolderMatches = { base, matched: [], walk: [] };
    const relDir = dir === base ? "" : dir.slice(base.length + (base.endsWith("/") ? 0 : 1));
    for (const entry of listing.entries) {
      const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      let strict = false;
      let byDefault = false;
      for (const { glob, test } of group.globs) {
        if (!test(rel)) continue;
        if (glob.byDefault !== true) {
          strict = true;
          break;
        }
        byDefault = true;
      }
      if (strict || byDefault) found.matched.push({ name: entry.name, byDefault: !strict });
      // A folder hidden whole needs no search inside, unless only a built-in glob hides it
      // (a mechanism may leave that out) and one of the user's may match within.
      if (entry.kind === "dir" && !strict && (!byDefault || group.anyStrict)) found.walk.push(entry.name);
    }
    listing.memo.set(index, found);
    return found;
  }

  /**
   * Adds the other names of hidden files (and of files inside hidden folders) that have more than
   * one, found in the search roots. Such a name is hidden as its file is (by default or not).
   */
  private collectHardLinks(hidden: Map<string, { dir: boolean; byDefault: boolean }>): void {
    const wanted = new Map<string, boolean>();
    this.forEachHiddenFile(hidden, (_, info, byDefault) => {
      if (info.nlink > 1n) wanted.set(inodeKey(info), byDefault && (wanted.get(inodeKey(info)) ?? true));
    });
    if (wanted.size === 0) return;
    const seen = new Set<string>();
    const walk = (dir: string): void => {
      if (seen.has(dir) || hidden.get(dir)?.dir === true) return;
      seen.add(dir);
      const listing = this.listings.get(dir);
      if (listing === null) return;
      for (const entry of listing.entries) {
        const path = childPath(dir, entry.name);
        if (entry.kind === "dir") walk(path);
        else if (entry.kind === "file") {
          // Files in one folder share its device; only the inode has to be read, once.
          entry.ino ??= lstatOrNull(path)?.ino ?? -1n;
          const byDefault = wanted.get(`${listing.dev}:${entry.ino}`);
          if (byDefault !== undefined && !hidden.has(path)) hidden.set(path, { dir: false, byDefault });
        }
      }
    };
    for (const root of this.rules.searchRoots) {
      const real = realOrNull(root);
      if (real !== null) walk(real);
    }
  }

  /** Every hidden file and every file inside a hidden folder, with its (fresh) lstat. */
  private forEachHiddenFile(
    hidden: Map<string, { dir: boolean; byDefault?: boolean }>,
    visit: (path: string, info: BigIntStats, byDefault: boolean) => void,
  ): void {
    const consider = (path: string, byDefault: boolean): void => {
      const info = lstatOrNull(path);
      if (info !== null && info.isFile()) visit(path, info, byDefault);
    };
    const walk = (dir: string, byDefault: boolean): void => {
      for (const entry of this.listings.get(dir)?.entries ?? []) {
        const path = childPath(dir, entry.name);
        if (entry.kind === "dir") walk(path, byDefault);
        else if (entry.kind === "file") consider(path, byDefault);
      }
    };
    for (const [path, { dir, byDefault = false }] of hidden) {
      if (dir) walk(path, byDefault);
      else consider(path, byDefault);
    }
  }
}

/** `name` inside the folder `dir` (both already normal, real paths: no join() needed). */
function childPath(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
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

let picomatch: typeof Picomatch | null = null;

/** The glob compiler, loaded with the first deny glob: most sessions have none and never load it. */
function globMatcher(): typeof Picomatch {
  picomatch ??= createRequire(import.meta.url)("picomatch") as typeof Picomatch;
  return picomatch;
}
