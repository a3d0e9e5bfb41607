/**
 * Ghost snapshots of a git working tree, made without touching the user's repository: the
 * user's index is copied to a temporary index (`GIT_INDEX_FILE`), the paths `git status` reports
 * as changed or untracked under the session's folder are brought up to date in the copy, and
 * `write-tree` turns it into a tree. New objects go to a shadow object folder of undo's own
 * (`GIT_OBJECT_DIRECTORY`), which borrows the repository's objects as an alternate: the user's
 * index, HEAD, refs, stash and even `.git/objects` stay exactly as they were.
 *
 * Copying the user's index keeps git's record of file times and sizes, so only the files that
 * differ from it are read again: a clean 10,000-file repository costs a `git status` and a
 * `write-tree`. The reference filled its index from HEAD instead, which makes git hash every file.
 * `git status` runs on undo's own copy of the user's index, which git may refresh
 * (`status-index.ts`); the temporary index is kept from one snapshot to the next (see `stage`),
 * and trees are reused while the user's index holds the same entries.
 */
import { accessSync, constants, copyFileSync, existsSync, readlinkSync, rmSync, statSync, utimesSync, type Stats } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { findProjectRoot } from "../util/project-root.js";
import { lstatOrNull } from "../util/lstat-or-null.js";
import { GitError, nulFields, runGit, runGitThen } from "./git.js";
import { selectUntracked, type LeftOut, type SnapshotLimits } from "./exclusions.js";
import { blobId, entryAt, modeOf } from "./blob-store.js";
import { StatusIndex } from "./status-index.js";
import { commitBody, writeLooseObject } from "./loose-object.js";
import { OTHER_STATE, type FileMode, type FileState, type PathChange } from "./types.js";
import { parseBatch, parseRawDiff, parseStatus } from "./git-output.js";

export interface GitRepo {
  /** The working tree's top folder, as git names it. */
  root: string;
  /** The session's folder inside it, `/`-terminated, or "" at the top. */
  prefix: string;
  /** The user's index file. */
  indexFile: string;
  /** The repository's object folder (shared by its worktrees). */
  objects: string;
  /** Bytes in an object id: 20 (SHA-1), or 32 in a SHA-256 repository. */
  oidBytes: number;
}

/** The repository whose working tree holds `cwd`, or null (not in one, or git is missing). */
export async function findRepo(cwd: string): Promise<GitRepo | null> {
  if (!mayBeInRepo(cwd)) return null;
  let fields: string[];
  let format: string | undefined;
  try {
    // A git older than 2.29 prints `--show-object-format` back as it is: SHA-1, then.
    const revParse = await runGit({ args: ["rev-parse", "--show-object-format", "--is-inside-work-tree", "--show-toplevel", "--show-prefix", "--git-path", "index", "--git-path", "objects"], cwd });
    [format, ...fields] = revParse.toString("utf8").split("\n");
  } catch {
    return null;
  }
  const [inside, root, prefix, index, objects] = fields;
  if (inside !== "true" || !root || index === undefined || objects === undefined) return null;
  return { root, prefix: prefix ?? "", indexFile: resolve(cwd, index), objects: resolve(cwd, objects), oidBytes: format === "sha256" ? 32 : 20 };
}

/**
 * Git finds a repository only through a `.git` in the folder or one above it, or through
 * GIT_DIR: without either there is none, and a turn outside git starts no git process to learn it.
 */
function mayBeInRepo(cwd: string): boolean {
  return process.env.GIT_DIR !== undefined || findProjectRoot(resolve(cwd), [".git"]) !== null;
}

/** A snapshot of the working tree under the session's folder. */
export interface GitCapture {
  /** Written after the files are read (see `ShadowGit.capture`). */
  tree: Promise<string>;
  /** HEAD when the snapshot was taken (null: no commit yet). */
  head: string | null;
  /** Untracked files and folders (nested repositories) at the time, as the reference records them. */
  untrackedFiles: string[];
  untrackedDirs: string[];
  leftOut: LeftOut;
  /** Ignored files, and folders (ending in `/`) matched as a whole, when asked for. */
  ignored: string[];
}

/**
 * Whether `path` was there, unseen, when `capture` was taken: ignored, or left out for its
 * size or its folder's. A path a later snapshot shows as new may be one of these (a
 * `.gitignore` edited, a file shrunk): undo must not take it for the turn's creation.
 */
export function hiddenFrom(capture: GitCapture, path: string): boolean {
  const under = (dir: string): boolean => path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
  return (
    capture.leftOut.largeFiles.some((f) => f.path === path) ||
    capture.leftOut.largeDirs.some((d) => under(d.path)) ||
    capture.ignored.some((entry) => entry === path || (entry.endsWith("/") && under(entry)))
  );
}

/** What a snapshot brings up to date in its copy of the user's index. */
interface SnapshotPaths {
  /** Tracked paths now folders (nested repositories too) or special files: taken out (a folder's files come as untracked). */
  removed: string[];
  /** Tracked paths that differ from the user's index. */
  tracked: string[];
  /** Untracked files the snapshot keeps. */
  untracked: string[];
}

/** An index kept between snapshots: a copy of the status index (of generation `base`) with `paths` brought up to date. */
interface WorkIndex extends SnapshotPaths {
  file: string;
  base: number;
}

/**
 * What a kept index must have redone, beside `paths`, to hold what a fresh copy of the user's
 * index would: tracked paths it brought up to date that now match the user's index are read
 * again (git skips those whose times did not change), untracked files no longer kept are taken
 * out. Null when a fresh copy is the safe way: a path taken out before is back (as the user's
 * index has it), or a path to read again is no longer a file, a link or gone (`rereadable`
 * false). Read again, a folder would fail the snapshot, a nested repository would go in as a
 * submodule, a special file or one that may not be read would fail it or be read against the
 * rules; a fresh copy holds the user's index's version of such a path, as a first snapshot does.
 */
function pathsSince(work: WorkIndex, paths: SnapshotPaths, rereadable: (path: string) => boolean): { reread: string[]; removed: string[] } | null {
  const stillRemoved = new Set(paths.removed);
  if (work.removed.some((path) => !stillRemoved.has(path))) return null;
  const now = new Set([...paths.tracked, ...paths.untracked]);
  const reread = work.tracked.filter((path) => !now.has(path));
  if (reread.some((path) => stillRemoved.has(path) || !rereadable(path))) return null;
  return { reread, removed: work.untracked.filter((path) => !now.has(path)) };
}

/**
 * For git commands on undo's own indexes: written plainly (never split into a shared index inside
 * the user's .git), without the user's file-system monitor or untracked cache.
 *
 * Why copies of a split index are safe: a copy of a user's split index links to the user's
 * `.git/sharedindex.<id>`, which git then reads (and sets the time of, as every git reading an
 * index linked to it does: that keeps it from expiring while a copy links to it). With
 * `core.splitIndex=false` git merges the shared entries in as it reads the copy and writes the
 * copy whole, so it never writes a shared index of its own into the user's .git, nor expires
 * (removes) old ones, which git does only when it writes a new shared index. A copy keeps the
 * user's index's modification time (`copyIndex`, status-index.ts), so git's racy-clean check (an
 * entry no older than its index is compared by content) holds in it as in the user's; git
 * writing the copy later moves its time forward only with the entries it checked.
 */
const OWN_INDEX_CONFIG = ["-c", "core.splitIndex=false", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false"];

/**
 * Snapshots take turns, so a lock file found on one of undo's own indexes as a snapshot starts
 * was left by a git that was killed (a time-out, a crash); git would refuse that index for good.
 * One older than this is removed; a younger one is left alone, and the snapshot does without
 * that index (see `lockFree`).
 */
const STALE_LOCK_MS = 10_000;

/**
 * A file changed this close to a snapshot (by its time or its inode change time) may change
 * again within the same time stamp: a tree written from it is not reused (git's "racy clean"
 * margin, widened for file systems with coarse times).
 */
const RACY_MS = 2_000;

/** How many recent trees a session keeps for reuse (a turn's first and second snapshots, a few turns back). */
const REMEMBERED_TREES = 8;

/** Decides which paths a snapshot may read: false for those a permission profile denies. */
export type MayRead = (absolutePath: string) => boolean;

export class ShadowGit {
  /**
   * Trees written lately, by what each was written from (`treeKey`): a snapshot of the same is
   * that tree again, without writing an index (the next turn's first snapshot, usually).
   */
  private readonly trees = new Map<string, string>();
  /** The index `git status` reads: the user's, copied (see status-index.ts). */
  private readonly statusIndex: StatusIndex;
  /** The index the last tree was written from, kept for the next one. */
  private work: WorkIndex | null = null;
  /**
   * Snapshots one at a time: each ends when every git it started has ended (its tree written; a
   * batch's may still run when the next batch's starts). `close` waits for it.
   */
  private queue: Promise<unknown> = Promise.resolve();
  /** Every index file this session made (kept, dropped or being written): removed with their locks on `close`. */
  private readonly ownFiles = new Set<string>();
  private closed = false;

  constructor(
    readonly repo: GitRepo,
    /** The shadow object folder. */
    private readonly objects: string,
    /** Where temporary indexes are made. */
    private readonly tmpDir: string,
  ) {
    this.statusIndex = new StatusIndex(repo.indexFile, repo.oidBytes, tmpDir);
  }

  private get shadowEnv(): Record<string, string> {
    return { GIT_OBJECT_DIRECTORY: this.objects, GIT_ALTERNATE_OBJECT_DIRECTORIES: this.repo.objects };
  }

  private git(args: readonly string[], options: { env?: Record<string, string>; input?: string | Buffer } = {}): Promise<Buffer> {
    return runGit({ args, cwd: this.repo.root, env: { ...this.shadowEnv, ...options.env }, input: options.input });
  }

  /** The pathspec limiting a command to the session's folder (none at the top). */
  private scope(): string[] {
    return this.repo.prefix === "" ? [] : ["--", `:(top,literal)${this.repo.prefix}`];
  }

  /**
   * Takes a snapshot. It resolves once every file it holds has been read (tools may run then);
   * its `tree` is written after that. `first`: the turn's first snapshot, which also notes HEAD
   * and what is ignored. `since`: a tree to compare this snapshot with (the turn's first):
   * `changes` then holds what differs.
   */
  async capture(options: { limits: SnapshotLimits; mayRead: MayRead; first: boolean; since?: Promise<string> }): Promise<GitCapture & { changes?: Promise<PathChange[]> }> {
    const previous = this.queue;
    let done: () => void = () => {};
    this.queue = new Promise<void>((resolve) => (done = resolve));
    await previous;
    try {
      if (this.closed) throw new GitError("the session has ended", null);
      const taken = await this.take(options);
      void Promise.allSettled([taken.tree, taken.changes]).then(done);
      return taken;
    } catch (err) {
      done();
      throw err;
    }
  }

  private async take(options: { limits: SnapshotLimits; mayRead: MayRead; first: boolean; since?: Promise<string> }): Promise<GitCapture & { changes?: Promise<PathChange[]> }> {
    const { root } = this.repo;
    const started = Date.now();
    const recent = started - 1000;
    this.statusIndex.update(recent);
    // The first snapshot also asks for HEAD (`--branch`) and what is ignored. Status may write
    // undo's own index (its optional lock, for this call alone), never the user's; what it
    // writes to the object database (nothing, as git stands) would go to the shadow's.
    const first = options.first ? ["--branch", "--ignored=matching"] : [];
    const mayRefresh = lockFree(this.statusIndex.file) && this.statusIndex.mayRefresh(recent);
    const status = await runGit({
      args: [...OWN_INDEX_CONFIG, "status", "--porcelain=2", "-z", "--untracked-files=all", ...first, "--no-renames", "--ignore-submodules=all", ...this.scope()],
      cwd: root,
      env: { ...this.shadowEnv, GIT_INDEX_FILE: this.statusIndex.file, GIT_OPTIONAL_LOCKS: mayRefresh ? "1" : "0" },
    });
    const { tracked, untracked, ignored: ignoredPaths, head } = parseStatus(status);
    const stats = new Map<string, Stats | null>();
    const statOf = (path: string): Stats | null => {
      if (!stats.has(path)) stats.set(path, lstatOrNull(join(root, path)));
      return stats.get(path) ?? null;
    };
    // Denied by the permission profile, or by the file system (a file its owner may not read).
    const readable = (path: string): boolean => options.mayRead(join(root, path)) && mayOpen(join(root, path), statOf(path));
    const untrackedDirs = untracked.filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1));
    const untrackedFiles = untracked.filter((p) => !p.endsWith("/"));
    const { kept, leftOut } = selectUntracked(untrackedFiles.filter(readable), options.limits, (path) => {
      const s = statOf(path);
      return s?.isFile() ? s.size : null;
    });
    // A tracked file now a folder (a nested repository too) or a special file leaves the index (a
    // folder's files come as untracked); one that may not be read keeps the index's version, so
    // it is never read and never restored.
    const paths: SnapshotPaths = { removed: [], tracked: [], untracked: [] };
    for (const path of tracked) {
      if (!readable(path)) continue;
      if (fileOrGone(statOf(path))) paths.tracked.push(path);
      else paths.removed.push(path);
    }
    for (const path of kept) if (fileOrGone(statOf(path))) paths.untracked.push(path);

    const base = this.statusIndex.generation;
    const key = this.treeKey(base, started - RACY_MS, paths, statOf);
    const known = key !== null ? this.trees.get(key) : undefined;
    let tree: Promise<string>;
    let changes: Promise<PathChange[]> | undefined;
    if (known !== undefined) {
      tree = Promise.resolve(known);
      changes = options.since?.then((since) => this.diff(since, known));
    } else {
      const { file, updated } = await this.stage(paths, base, (path) => readable(path) && fileOrGone(statOf(path)));
      ({ tree, changes } = await this.write(file, updated, options.since));
    }
    // Awaited later (or never, when the turn ends first): a failure is theirs to report.
    tree.catch(() => {});
    changes?.catch(() => {});
    if (key !== null) void tree.then((t) => this.remember(key, t), () => {});
    return { tree, head, untrackedFiles, untrackedDirs, leftOut, ignored: ignoredPaths, changes };
  }

  /**
   * What a tree is written from, as a key: what the user's index says (its entries, not their
   * times: git rewrites it often without changing one) and every path brought up to date, by
   * mode, size, time, inode change time and inode (a rewrite that kept the size and put the time
   * back still moves the change time). Null when a file changed after `racy` (`RACY_MS` before
   * the snapshot): a change within the same time stamp would go unseen, so such a tree is not reused.
   */
  private treeKey(base: number, racy: number, paths: SnapshotPaths, statOf: (path: string) => Stats | null): string | null {
    const hash = createHash("sha1").update(`${base}`).update(`\n${paths.removed.join("\0")}`);
    for (const path of [...paths.tracked, ...paths.untracked]) {
      const s = statOf(path);
      if (s !== null && (s.mtimeMs > racy || s.ctimeMs > racy)) return null;
      hash.update(s === null ? `\n${path}\0-` : `\n${path}\0${s.mode}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`);
    }
    return hash.digest("hex");
  }

  private remember(key: string, tree: string): void {
    this.trees.delete(key);
    this.trees.set(key, tree);
    for (const oldest of this.trees.keys()) {
      if (this.trees.size <= REMEMBERED_TREES) break;
      this.trees.delete(oldest);
    }
  }

  /**
   * The index a snapshot's tree is written from: the user's index (as the status index holds it)
   * with `paths.removed` taken out; `updated` are the paths `write` then reads into it. The
   * index is kept for the next snapshot: while the user's index holds the same entries (`base`),
   * the next starts from it instead of a fresh copy, so what it brought up to date is read again
   * only where the files' times changed since, and only the folders holding those are written
   * anew. `rereadable`: whether a path may be read into it as it is now (see `pathsSince`).
   */
  private async stage(paths: SnapshotPaths, base: number, rereadable: (path: string) => boolean): Promise<{ file: string; updated: string[] }> {
    const work = this.work;
    this.work = null;
    // A kept index still locked (a git killed on it moments ago) is left for `close`.
    const file = work !== null && lockFree(work.file) ? work.file : this.newIndexFile();
    if (work !== null && file !== work.file) rmSync(work.file, { force: true });
    const kept = work !== null && file === work.file && work.base === base && existsSync(file) ? pathsSince(work, paths, rereadable) : null;
    let taken = paths.removed;
    let updated = [...paths.tracked, ...paths.untracked];
    // The status index, with the file times git refreshed in it: what it had to compare by
    // content is not compared again when this one is written.
    if (kept === null) copyIndex(this.statusIndex.file, file);
    else {
      taken = [...taken, ...kept.removed];
      updated = [...updated, ...kept.reread];
    }
    this.work = { file, base, ...paths };
    if (taken.length > 0) {
      const none = "0".repeat(this.repo.oidBytes * 2);
      const input = taken.map((path) => `0 ${none}\t${path}\0`).join("");
      await this.dropOnFailure(file, this.git([...OWN_INDEX_CONFIG, "update-index", "-z", "--index-info"], { env: { GIT_INDEX_FILE: file }, input }));
    }
    return { file, updated };
  }

  /**
   * Reads `updated` into the staged index, then writes the index as a tree. A first snapshot
   * resolves once the files are read: tools wait for that, not for the tree. A second one
   * compares the index with `since` right after reading the files, in the same process start (a
   * turn's end waits for the comparison), and writes its tree after that.
   */
  private async write(file: string, updated: string[], since: Promise<string> | undefined): Promise<{ tree: Promise<string>; changes?: Promise<PathChange[]> }> {
    const env = { GIT_INDEX_FILE: file };
    const read = [...OWN_INDEX_CONFIG, "update-index", "--add", "--remove", "--replace", "-z", "--stdin"];
    const input = updated.map((path) => `${path}\0`).join("");
    let changes: Promise<PathChange[]> | undefined;
    let staged: Promise<unknown>;
    if (since === undefined) {
      if (updated.length > 0) await this.dropOnFailure(file, this.git(read, { env, input }));
      // The tree is started once what waited for the files (a turn's tools) has gone ahead.
      staged = new Promise<void>((resolve) => setImmediate(resolve));
    } else {
      const compared = since.then((before) => {
        const compare = ["diff-index", "--cached", "-r", "-z", "--no-renames", "--raw", before, ...this.scope()];
        if (updated.length === 0) return this.git(compare, { env });
        return runGitThen({ first: read, args: compare, cwd: this.repo.root, env: { ...this.shadowEnv, ...env }, input });
      });
      changes = this.dropOnFailure(file, compared).then(parseRawDiff);
      // Likewise once what waited for the comparison (the turn's end, its record and ghost
      // commit) has gone ahead: starting a process forks this one, which would hold them up.
      staged = changes.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    }
    const tree = staged.then(() => this.dropOnFailure(file, this.git([...OWN_INDEX_CONFIG, "write-tree"], { env }))).then((out) => out.toString("utf8").trim());
    return { tree, changes };
  }

  /** `step`, run on the kept index `file`: when it fails the index is dropped (the next snapshot starts afresh). */
  private dropOnFailure<T>(file: string, step: Promise<T>): Promise<T> {
    return step.catch((err: unknown) => {
      if (this.work?.file === file) this.work = null;
      rmSync(file, { force: true });
      throw err;
    });
  }

  private newIndexFile(): string {
    const file = join(this.tmpDir, `work-index-${randomBytes(8).toString("hex")}`);
    this.ownFiles.add(file);
    return file;
  }

  /**
   * The session ends: once the snapshot under way has ended its gits (a tree still being written
   * would write its index again), removes every index the session made, and any lock a killed
   * git left on one. No snapshot is taken after.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    this.work = null;
    for (const file of this.ownFiles) for (const name of [file, `${file}.lock`]) rmSync(name, { force: true });
    this.ownFiles.clear();
    this.statusIndex.remove();
  }

  /** The ghost commit: an unreferenced commit of `tree` on top of `parent`, written into the shadow objects (as `git commit-tree` would, without starting it). */
  commit(tree: string, parent: string | null): string {
    return writeLooseObject(this.objects, "commit", commitBody(tree, parent, "codex-ts snapshot <snapshot@codex-ts.invalid>", "codex-ts snapshot", new Date()), this.repo.oidBytes);
  }

  /** What differs between two snapshots under the session's folder (paths from the top). */
  async diff(before: string, after: string): Promise<PathChange[]> {
    if (before === after) return [];
    return parseRawDiff(await this.git(["diff-tree", "-r", "-z", "--no-renames", "--raw", before, after, ...this.scope()]));
  }

  /** Whether each of `paths` is in `tree` (a file undo would restore from this snapshot). */
  async holds(tree: string, paths: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < paths.length; i += 500) {
      const chunk = paths.slice(i, i + 500);
      const out = await this.git(["ls-tree", "-r", "-z", "--full-tree", "--name-only", tree, "--", ...chunk], { env: { GIT_LITERAL_PATHSPECS: "1" } });
      for (const path of nulFields(out)) found.add(path);
    }
    return found;
  }

  /**
   * The state of each path on disk now, as git would record it (clean filters applied, so a
   * file checked out with CRLF endings matches its LF blob). Paths that may not be read get
   * OTHER_STATE: they match nothing and are never restored.
   */
  async current(paths: readonly string[], mayRead: MayRead): Promise<Map<string, FileState | null>> {
    const states = new Map<string, FileState | null>();
    const files: Array<{ path: string; mode: FileMode }> = [];
    for (const path of paths) {
      const absolute = join(this.repo.root, path);
      const stats = entryAt(this.repo.root, path);
      if (stats === null) states.set(path, null);
      else if (stats === "through-link" || !mayRead(absolute)) states.set(path, OTHER_STATE);
      else if (stats.isSymbolicLink()) states.set(path, { mode: "120000", oid: blobId(Buffer.from(readlinkSync(absolute, { encoding: "buffer" }))) });
      else if (stats.isFile()) files.push({ path, mode: modeOf(stats) });
      else states.set(path, OTHER_STATE);
    }
    // One file name per line: a name with a newline in it is hashed as it is.
    const byGit = files.filter((f) => !f.path.includes("\n"));
    if (byGit.length > 0) {
      const out = (await this.git(["hash-object", "--stdin-paths"], { input: byGit.map((f) => `${f.path}\n`).join("") })).toString("utf8").split("\n");
      byGit.forEach((f, i) => states.set(f.path, { mode: f.mode, oid: out[i] ?? OTHER_STATE.oid }));
    }
    for (const f of files.filter((f) => f.path.includes("\n"))) {
      const stats = lstatOrNull(join(this.repo.root, f.path));
      states.set(f.path, stats?.isFile() ? { mode: f.mode, oid: await this.hashRaw(f.path) } : OTHER_STATE);
    }
    return states;
  }

  private async hashRaw(path: string): Promise<string> {
    return (await this.git(["hash-object", "--no-filters", "--", path])).toString("utf8").trim();
  }

  /**
   * The bytes to write back for each state, as a checkout would write them (smudge filters and
   * line endings applied where attributes or core.autocrlf ask for them; a link's target as is).
   */
  async contents(items: ReadonlyArray<{ path: string; state: FileState }>): Promise<Map<string, Buffer>> {
    const result = new Map<string, Buffer>();
    if (items.length === 0) return result;
    const filtered = await this.pathsWithFilters(items.filter((i) => i.state.mode !== "120000").map((i) => i.path));
    const raw = items.filter((i) => !filtered.has(i.path));
    if (raw.length > 0) {
      const blobs = parseBatch(await this.git(["cat-file", "--batch"], { input: raw.map((i) => `${i.state.oid}\n`).join("") }));
      for (const item of raw) {
        const blob = blobs.get(item.state.oid);
        if (blob === undefined) throw new GitError(`the snapshot's copy of ${item.path} is gone (object ${item.state.oid.slice(0, 12)})`, null);
        result.set(item.path, blob);
      }
    }
    for (const item of items.filter((i) => filtered.has(i.path))) {
      result.set(item.path, await this.git(["cat-file", "--filters", `--path=${item.path}`, item.state.oid]));
    }
    return result;
  }

  /** Of `paths`, those a checkout would convert (line endings, filters, encodings). */
  private async pathsWithFilters(paths: readonly string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    const autocrlf = await runGit({ args: ["config", "core.autocrlf"], cwd: this.repo.root }).then((b) => b.toString("utf8").trim(), () => "");
    if (autocrlf === "true") return new Set(paths);
    const out = await runGit({ args: ["check-attr", "-z", "--stdin", "text", "eol", "crlf", "filter", "ident", "working-tree-encoding"], cwd: this.repo.root, input: paths.map((p) => `${p}\0`).join("") });
    const fields = nulFields(out);
    const converted = new Set<string>();
    for (let i = 0; i + 2 < fields.length; i += 3) {
      if (fields[i + 2] !== "unspecified") converted.add(fields[i] ?? "");
    }
    return converted;
  }
}

/**
 * The copy keeps the index's modification time: git takes an entry written in the same second as
 * its index for "racily clean" and compares its content, and a copy with a newer time would
 * trust that entry's times instead, missing a same-size rewrite made in that second.
 */
function copyIndex(from: string, to: string): void {
  try {
    // Timed first: an index replaced meanwhile makes the copy look older, never newer (so does
    // the rounding down to whole milliseconds).
    const { atime, mtime } = statSync(from);
    copyFileSync(from, to);
    utimesSync(to, atime, mtime);
  } catch (err) {
    // A repository where nothing was ever staged has no index: the snapshot starts empty.
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** A state a snapshot keeps as it is: a file, a link, or nothing (a folder or a special file is not one). */
function fileOrGone(s: Stats | null): boolean {
  return s === null || s.isFile() || s.isSymbolicLink();
}

/** Whether this process may read `path` (`s`: its lstat), as far as the file system says: only files are opened. */
function mayOpen(path: string, s: Stats | null): boolean {
  if (s === null || !s.isFile()) return true;
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether no git holds a lock on `file`: a lock older than `STALE_LOCK_MS` is a killed git's,
 * and is removed; a younger one may still be a git's at work.
 */
function lockFree(file: string): boolean {
  const lock = lstatOrNull(`${file}.lock`);
  if (lock === null) return true;
  if (Date.now() - lock.mtimeMs < STALE_LOCK_MS) return false;
  rmSync(`${file}.lock`, { force: true });
  return true;
}
