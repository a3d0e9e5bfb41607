/**
 * Undo's own content store, for what git does not keep: the files of a folder outside any
 * repository, and single files a patch writes outside the snapshotted folder. Contents are kept
 * by their git blob id (so they compare with git's states), one file each, written once
 * (temporary name, then rename) and never changed. Files are read without following links and
 * without blocking on anything that is not a regular file.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import type { FileMode, FileState } from "./types.js";

/** The git blob id of `content`. */
export function blobId(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

export function modeOf(stats: Stats): FileMode {
  if (stats.isSymbolicLink()) return "120000";
  return (stats.mode & 0o100) !== 0 ? "100755" : "100644";
}

/**
 * What is at `relative` under `root` (a real path) without going through a link on the way:
 * null when nothing is there, "through-link" when a folder on the way is a link now (what is
 * behind it is not the snapshotted path, and is neither read nor hashed).
 */
export function entryAt(root: string, relative: string): Stats | null | "through-link" {
  const absolute = join(root, relative);
  let stats: Stats;
  try {
    stats = lstatSync(absolute);
  } catch {
    return null;
  }
  try {
    if (realpathSync(dirname(absolute)) !== dirname(absolute)) return "through-link";
  } catch {
    return null;
  }
  return stats;
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * The bytes a snapshot keeps for the entry at `path` as `stats` describes it: a link's target,
 * a regular file's content; null for anything else (or a file replaced meanwhile by something
 * that is not a regular file).
 */
export function readEntry(path: string, stats: Stats): Buffer | null {
  if (stats.isSymbolicLink()) return Buffer.from(readlinkSync(path, { encoding: "buffer" }));
  if (!stats.isFile()) return null;
  const fd = openSync(path, READ_FLAGS);
  try {
    if (!fstatSync(fd).isFile()) return null;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class BlobStore {
  constructor(readonly dir: string) {}

  private pathOf(oid: string): string {
    return join(this.dir, oid.slice(0, 2), oid.slice(2));
  }

  /** Keeps `content`; returns its id. */
  put(content: Buffer): string {
    const oid = blobId(content);
    const target = this.pathOf(oid);
    if (existsFile(target)) return oid;
    mkdirSync(join(this.dir, oid.slice(0, 2)), { recursive: true, mode: 0o700 });
    const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    writeFileSync(temp, content, { mode: 0o600, flag: "wx" });
    try {
      renameSync(temp, target);
    } catch (err) {
      unlinkSync(temp);
      throw err;
    }
    return oid;
  }

  /** Keeps the entry at `path` and returns its state; null when there is nothing a snapshot keeps there. */
  putEntry(path: string, stats: Stats): FileState | null {
    const content = readEntry(path, stats);
    return content === null ? null : { mode: modeOf(stats), oid: this.put(content) };
  }

  has(oid: string): boolean {
    return existsFile(this.pathOf(oid));
  }

  /** The content kept under `oid`; throws when it is not here (the store was removed). */
  read(oid: string): Buffer {
    return readFileSync(this.pathOf(oid));
  }
}

function existsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
