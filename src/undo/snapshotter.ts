/**
 * A session's snapshots, turn by turn. At the start of a turn that may change files the
 * snapshotter takes a snapshot of the turn's folder (a ghost snapshot in a git repository, a
 * copy of the files outside one); every file a patch is about to write outside what that
 * snapshot covers is copied first; at the end another snapshot shows what the turn changed.
 * A turn that changed nothing leaves nothing behind; one that did yields a `TurnRecord`.
 */
import { createHash } from "node:crypto";
import { lstatSync, realpathSync } from "node:fs";
import { relative, sep } from "node:path";
import { BlobStore } from "./blob-store.js";
import { describeLeftOut, type SnapshotLimits } from "./exclusions.js";
import { FolderSnapshots, FolderTooBigError, diffManifests, type FolderManifest } from "./folder-area.js";
import { ShadowGit, findRepo, hiddenFrom, type GitCapture, type GitRepo } from "./git-area.js";
import { ensureStore, type StoreLayout } from "./storage.js";
import { encodeState, sameState, type AreaChanges, type FileState } from "./types.js";

export interface SnapshotterOptions {
  limits: SnapshotLimits;
  /** False for paths a permission profile denies: never read, never copied. */
  mayRead(absolutePath: string): boolean;
  /** A problem that does not stop the turn (a snapshot that failed, files left out). */
  warn(message: string): void;
  /** `[ghost_snapshot] disable_warnings`: say nothing about files left out. */
  quietLeftOut?: boolean;
  /** Finds the repository holding a folder (the session may have started looking before its first turn); `findRepo` by default. */
  findRepo?: (cwd: string) => Promise<GitRepo | null>;
}

/** The reference's `ghost_commit` object, as its rollout lines hold it. */
export interface GhostCommit {
  id: string;
  parent: string | null;
  preexisting_untracked_files: string[];
  preexisting_untracked_dirs: string[];
}

/** What one turn changed, ready to be recorded and undone. */
export interface TurnRecord {
  turnId: string;
  storeId: string;
  ghostCommit: GhostCommit;
  areas: AreaChanges[];
}

type Area = { kind: "git"; git: ShadowGit } | { kind: "folder"; folder: FolderSnapshots } | { kind: "none" };

type Before = { kind: "git"; git: ShadowGit; capture: GitCapture } | { kind: "folder"; folder: FolderSnapshots; manifest: FolderManifest } | { kind: "none" };

export class Snapshotter {
  private readonly areas = new Map<string, Promise<Area>>();
  private readonly gits: ShadowGit[] = [];
  readonly blobs: BlobStore;
  private readonly said = new Set<string>();

  constructor(
    readonly layout: StoreLayout,
    readonly options: SnapshotterOptions,
  ) {
    this.blobs = new BlobStore(layout.blobs);
  }

  /** Starts the turn's first snapshot in the background. */
  beginTurn(turnId: string, cwd: string): TurnCapture {
    return new TurnCapture(this, turnId, this.areaFor(cwd));
  }

  /** The session ends: what snapshots keep between turns (a git area's indexes) is removed, once the gits at work on them are done. */
  async close(): Promise<void> {
    await Promise.all(this.gits.map((git) => git.close()));
  }

  /** Warns once per distinct message (a folder too big says so once, not every turn). */
  warnOnce(message: string): void {
    if (this.said.has(message)) return;
    this.said.add(message);
    this.options.warn(message);
  }

  private areaFor(cwd: string): Promise<Area> {
    let area = this.areas.get(cwd);
    if (area === undefined) {
      area = this.openArea(cwd);
      this.areas.set(cwd, area);
    }
    return area;
  }

  private async openArea(cwd: string): Promise<Area> {
    ensureStore(this.layout);
    const repo = await (this.options.findRepo ?? findRepo)(cwd);
    if (repo !== null) {
      const git = new ShadowGit(repo, this.layout.objects, this.layout.tmp);
      this.gits.push(git);
      return { kind: "git", git };
    }
    try {
      return { kind: "folder", folder: new FolderSnapshots(realpathSync(cwd), this.blobs, this.options.limits, (p) => this.options.mayRead(p)) };
    } catch {
      return { kind: "none" };
    }
  }
}

/** What a second snapshot found: the area's changes, and which files it holds (for patches' copies). */
interface AfterArea {
  changes: AreaChanges | null;
  /** Of `paths` (real), those the area's snapshots hold: its changes cover them. */
  covered(paths: string[]): Promise<Set<string>>;
}

/** A turn's changes, found before the turn ends; `complete` gives the record with its ghost commit (after it ended). */
export interface PendingRecord {
  areas: AreaChanges[];
  complete(): Promise<TurnRecord>;
}

export class TurnCapture {
  /** Settles when the first snapshot is taken (or failed, which only turns undo off for the turn). */
  readonly ready: Promise<void>;
  private before: Before = { kind: "none" };
  /** Files a patch wrote, by real path, as they were before its first write in this turn. */
  private readonly loose = new Map<string, FileState | null>();
  /**
   * Counts batches of tool calls; a second snapshot taken after the last batch (while the
   * model writes its answer) is the turn's, one taken before a later batch is not.
   */
  private batch = 0;
  private after: { batch: number; result: Promise<AfterArea> } | null = null;

  constructor(
    private readonly owner: Snapshotter,
    readonly turnId: string,
    area: Promise<Area>,
  ) {
    this.ready = area.then((a) => this.takeBefore(a)).catch((err: unknown) => owner.warnOnce(`Undo is off for this turn: the snapshot failed: ${(err as Error).message}`));
  }

  private async takeBefore(area: Area): Promise<void> {
    const { options } = this.owner;
    if (area.kind === "git") {
      const capture = await area.git.capture({ limits: options.limits, mayRead: options.mayRead, first: true });
      this.before = { kind: "git", git: area.git, capture };
      const note = describeLeftOut(capture.leftOut);
      if (note !== null && options.quietLeftOut !== true) this.owner.warnOnce(note);
    } else if (area.kind === "folder") {
      try {
        this.before = { kind: "folder", folder: area.folder, manifest: area.folder.capture() };
      } catch (err) {
        if (!(err instanceof FolderTooBigError)) throw err;
        this.owner.warnOnce(err.message);
      }
    }
  }

  /** Tools are about to run: a second snapshot taken so far is not the turn's last. */
  toolsStarting(): void {
    this.batch++;
  }

  /**
   * A batch of tools ended: the second snapshot starts now, in the background, while the model
   * writes its next answer; if that answer calls no tool, it is the turn's and the turn ends
   * without waiting for one.
   */
  toolsFinished(): void {
    const batch = ++this.batch;
    this.after = { batch, result: this.ready.then(() => this.takeAfter()) };
    // Its failure is the turn's when the turn uses it; a later batch's snapshot replaces it.
    this.after.result.catch(() => {});
  }

  /**
   * Copies each of `paths` as it is now, before a patch writes it (the first time in this turn).
   * The paths are where the patch's writes really land (links resolved, as the patch engine's
   * walker found them), so a file is known by one name whichever name the patch used.
   */
  async beforeWrite(paths: readonly string[]): Promise<void> {
    await this.ready;
    for (const path of paths) {
      if (this.loose.has(path) || !this.owner.options.mayRead(path)) continue;
      this.loose.set(path, this.stateNow(path));
    }
  }

  private stateNow(path: string): FileState | null {
    try {
      return this.owner.blobs.putEntry(path, lstatSync(path));
    } catch {
      return null;
    }
  }

  private async takeAfter(): Promise<AfterArea> {
    const { options } = this.owner;
    const before = this.before;
    if (before.kind === "git") {
      const { git, capture } = before;
      const after = await git.capture({ limits: options.limits, mayRead: options.mayRead, first: false, since: capture.tree });
      // A path that looks new but was there unseen (ignored, too big) is not the turn's to remove.
      const changes = ((await after.changes) ?? []).filter((c) => c.before !== null || !hiddenFrom(capture, c.path));
      return {
        changes: changes.length > 0 ? { root: git.repo.root, source: "git", repoObjects: git.repo.objects, changes } : null,
        covered: async (paths) => {
          const rels = new Map(
            paths.flatMap((p) => {
              const rel = inside(git.repo.root, p);
              return rel === null ? [] : [[rel, p] as const];
            }),
          );
          const inAfter = [...(await git.holds(await after.tree, [...rels.keys()]))].filter((rel) => !hiddenFrom(capture, rel));
          const held = new Set([...(await git.holds(await capture.tree, [...rels.keys()])), ...inAfter]);
          return new Set([...rels].filter(([rel]) => held.has(rel)).map(([, p]) => p));
        },
      };
    }
    if (before.kind === "folder") {
      const after = before.folder.capture();
      const changes = diffManifests(before.manifest, after);
      return {
        changes: changes.length > 0 ? { root: before.folder.root, source: "blobs", changes } : null,
        covered: (paths) =>
          Promise.resolve(
            new Set(
              paths.filter((p) => {
                const rel = inside(before.folder.root, p);
                return rel !== null && (before.manifest.files.has(rel) || (after.files.has(rel) && !before.manifest.leftOut.has(rel)));
              }),
            ),
          ),
      };
    }
    return { changes: null, covered: () => Promise.resolve(new Set()) };
  }

  /**
   * What the turn changed (the second snapshot taken while the model answered, or now), or null
   * when it changed nothing undo can see. The ghost commit is made by `complete`, after the turn
   * has ended, only for a turn that changed files.
   */
  async finish(): Promise<PendingRecord | null> {
    await this.ready;
    const taken = this.after !== null && this.after.batch === this.batch ? this.after.result : this.takeAfter();
    const { changes, covered } = await taken;
    const areas: AreaChanges[] = changes === null ? [] : [changes];
    const looseChanges = [];
    const heldByArea = this.loose.size > 0 ? await covered([...this.loose.keys()]) : new Set<string>();
    for (const [path, was] of this.loose) {
      if (heldByArea.has(path)) continue;
      const now = this.stateNow(path);
      if (!sameState(was, now)) looseChanges.push({ path: path.slice(1), before: was, after: now });
    }
    if (looseChanges.length > 0) areas.push({ root: "/", source: "blobs", changes: looseChanges });
    if (areas.length === 0) return null;
    const before = this.before;
    const record = (ghostCommit: GhostCommit): TurnRecord => ({ turnId: this.turnId, storeId: this.owner.layout.storeId, ghostCommit, areas });
    return {
      areas,
      complete: async () => {
        if (before.kind !== "git") return record({ id: contentId(this.turnId, areas), parent: null, preexisting_untracked_files: [], preexisting_untracked_dirs: [] });
        const { capture } = before;
        return record({
          // Made only for a turn that changed files (written in-process: it costs no git start).
          id: before.git.commit(await capture.tree, capture.head),
          parent: capture.head,
          preexisting_untracked_files: capture.untrackedFiles,
          preexisting_untracked_dirs: capture.untrackedDirs,
        });
      },
    };
  }
}

/** `path` relative to `root` (`/`-separated), or null outside it. */
function inside(root: string, path: string): string | null {
  const rel = relative(root, path);
  if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || rel.startsWith(sep)) return null;
  return rel.split(sep).join("/");
}

/** An id for a record without a ghost commit (outside git): a hash of its turn and changes. */
function contentId(turnId: string, areas: readonly AreaChanges[]): string {
  const hash = createHash("sha1").update(turnId);
  for (const area of areas) for (const c of area.changes) hash.update(`${area.root}\0${c.path}\0${encodeState(c.before)}\0${encodeState(c.after)}\n`);
  return hash.digest("hex");
}
