/**
 * Snapshots of a folder outside any git repository: every file under it is kept in the blob
 * store and listed by path. Files whose size, time and inode have not changed since the last
 * snapshot are not read again, so only the first snapshot of a session reads the whole folder.
 * A folder too big for that (more files or bytes than the limits below, after leaving out what
 * exclusions.ts leaves out) is not snapshotted at all, and says so once: patches are still
 * covered file by file.
 */
import { lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { BlobStore, blobId, entryAt, modeOf, readEntry } from "./blob-store.js";
import { inSkippedFolder, type SnapshotLimits } from "./exclusions.js";
import { OTHER_STATE, sameState, type FileState, type PathChange } from "./types.js";

export const FOLDER_MAX_FILES = 10_000;
export const FOLDER_MAX_BYTES = 256 * 1024 * 1024;

/** A folder's files by relative path (`/`-separated), and those left out for their size. */
export interface FolderManifest {
  files: Map<string, FileState>;
  leftOut: Set<string>;
}

export class FolderTooBigError extends Error {
  constructor(root: string, what: string) {
    super(`${root} holds ${what}, more than undo snapshots outside a git repository take; commands' changes there cannot be undone (patches' still can).`);
    this.name = "FolderTooBigError";
  }
}

interface Cached {
  /** When it was read: a file changed less than a second before could change again unseen (same time stamp). */
  readAt: number;
  size: number;
  mtimeMs: number;
  ino: number;
  mode: number;
  state: FileState;
}

export class FolderSnapshots {
  /** What each path was at the last snapshot, to skip reading unchanged files. */
  private readonly cache = new Map<string, Cached>();

  constructor(
    readonly root: string,
    private readonly store: BlobStore,
    private readonly limits: SnapshotLimits,
    private readonly mayRead: (absolutePath: string) => boolean,
  ) {}

  capture(): FolderManifest {
    const manifest = new Map<string, FileState>();
    const leftOut = new Set<string>();
    let bytesRead = 0;
    const walk = (dir: string, rel: string): void => {
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch {
        return; // unreadable: its contents are simply not in the snapshot
      }
      for (const name of names) {
        const relative = rel === "" ? name : `${rel}/${name}`;
        if (name === ".git" || inSkippedFolder(name)) continue;
        const absolute = join(dir, name);
        if (!this.mayRead(absolute)) continue;
        let stats: Stats;
        try {
          stats = lstatSync(absolute);
        } catch {
          continue;
        }
        if (stats.isDirectory()) {
          walk(absolute, relative);
          continue;
        }
        if (!stats.isFile() && !stats.isSymbolicLink()) continue;
        if (this.limits.largeFileBytes > 0 && stats.isFile() && stats.size > this.limits.largeFileBytes) {
          leftOut.add(relative);
          continue;
        }
        if (manifest.size >= FOLDER_MAX_FILES) throw new FolderTooBigError(this.root, `more than ${FOLDER_MAX_FILES} files`);
        const cached = this.cache.get(relative);
        if (cached && cached.size === stats.size && cached.mtimeMs === stats.mtimeMs && cached.ino === stats.ino && cached.mode === stats.mode && cached.readAt - cached.mtimeMs > 1000) {
          manifest.set(relative, cached.state);
          continue;
        }
        bytesRead += stats.size;
        if (bytesRead > FOLDER_MAX_BYTES) throw new FolderTooBigError(this.root, `more than ${FOLDER_MAX_BYTES / (1024 * 1024)} MiB of files`);
        const state = this.store.putEntry(absolute, stats);
        if (state === null) continue;
        this.cache.set(relative, { readAt: Date.now(), size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, mode: stats.mode, state: { mode: modeOf(stats), oid: state.oid } });
        manifest.set(relative, state);
      }
    };
    walk(this.root, "");
    return { files: manifest, leftOut };
  }

  /** The state of each path on disk now (entries a snapshot does not keep count as absent). */
  current(paths: readonly string[]): Map<string, FileState | null> {
    return currentStates(this.root, paths, this.mayRead);
  }
}

/**
 * What changed between two manifests. A file new in `after` that `before` left out for its
 * size was there all along: it is not the turn's creation.
 */
export function diffManifests(before: FolderManifest, after: FolderManifest): PathChange[] {
  const changes: PathChange[] = [];
  for (const [path, state] of after.files) {
    const old = before.files.get(path) ?? null;
    if (old === null && before.leftOut.has(path)) continue;
    if (!sameState(old, state)) changes.push({ path, before: old, after: state });
  }
  for (const [path, state] of before.files) if (!after.files.has(path)) changes.push({ path, before: state, after: null });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The state of each path (relative to `root`) on disk now. A path that may not be read, or
 * holds a folder or a device, gets a state matching nothing.
 */
export function currentStates(root: string, paths: readonly string[], mayRead: (absolutePath: string) => boolean): Map<string, FileState | null> {
  const states = new Map<string, FileState | null>();
  for (const path of paths) {
    const absolute = join(root, path);
    const stats = entryAt(root, path);
    if (stats === null) {
      states.set(path, null);
      continue;
    }
    if (stats === "through-link" || !mayRead(absolute)) {
      states.set(path, OTHER_STATE);
      continue;
    }
    const content = readEntry(absolute, stats);
    states.set(path, content === null ? OTHER_STATE : { mode: modeOf(stats), oid: blobId(content) });
  }
  return states;
}
