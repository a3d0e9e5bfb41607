/**
 * Writing files back, on behalf of the agent's sandbox: every write lands where the session may
 * write, and never through a link. Each path is resolved by the same walker the agent's patches
 * use (util/path-walk.ts: one name at a time, relative to the folder held open before it, no
 * link ever followed by the kernel), and a restore refuses any path whose walk met a link at
 * all: snapshots hold links as links, so a link on the way is something swapped in since (a
 * folder replaced by a link to `/etc`), and the place it leads to is not the place snapshotted.
 * The place the walk ends at is checked against the writable folders at the moment of writing.
 *
 * A file is put back by writing a new file next to it and renaming it over the old name, so a
 * hard link to the old file elsewhere is never written through, and a link at the final name
 * is replaced, not followed.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fchmodSync, lstatSync, openSync, renameSync, rmdirSync, symlinkSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { PathWalker, type Located } from "../util/path-walk.js";
import type { FileState } from "./types.js";

export class RestoreRefused extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = "RestoreRefused";
  }
}

/** Why the session may not write at `canonical` (a real path), or null when it may. */
export type WriteRefusal = (canonical: string) => string | null;

/** One writer per restore; `close()` releases the folders its walker held. */
export class SafeWriter {
  private readonly walker = new PathWalker();

  constructor(private readonly refusal: WriteRefusal) {}

  /**
   * Where `path` (absolute) is, with no link on the way; folders missing on the way are made
   * when `create` is set (each checked first), else null is returned for a missing folder.
   */
  private locate(path: string, create: boolean): Located | null {
    let located: Located;
    try {
      located = this.walker.locate(path, {
        followFinal: false,
        ...(create
          ? {
              missingDirs: {
                allow: (folder: string) => {
                  const why = this.refusal(folder);
                  if (why !== null) throw new RestoreRefused(path, why);
                },
                created: [],
              },
            }
          : {}),
      });
    } catch (err) {
      if (err instanceof RestoreRefused) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (!create && code === "ENOENT") return null;
      if (code === "ENOTDIR" || code === "EEXIST") throw new RestoreRefused(path, "a file stands where a folder should be");
      throw err;
    }
    if (located.linksFollowed.length > 0) throw new RestoreRefused(path, `${located.linksFollowed[0] ?? "a folder on the way"} is a link now; undo does not write through links`);
    if (!this.walker.stillThere(located.dir)) throw new RestoreRefused(path, "a folder on the way moved while it was being restored");
    const why = this.refusal(located.canonical);
    if (why !== null) throw new RestoreRefused(path, why);
    return located;
  }

  /** Puts `state` (with `content`) at `path`, or removes what is there when `state` is null. */
  restore(path: string, state: FileState | null, content: Buffer | null): void {
    if (state === null) {
      const located = this.locate(path, false);
      if (located === null || located.kind === "missing") return;
      if (located.kind === "dir") throw new RestoreRefused(path, "a folder is there now; it is left as it is");
      unlinkSync(this.walker.entry(located.dir, located.name));
      return;
    }
    if (content === null) throw new RestoreRefused(path, "the snapshot's copy is missing");
    const located = this.locate(path, true);
    if (located === null) throw new RestoreRefused(path, "its folder could not be made");
    if (located.kind === "dir") throw new RestoreRefused(path, "a folder is there now; it is left as it is");
    const entry = this.walker.entry(located.dir, located.name);
    const existing = located.kind === "file" ? lstatSync(entry) : null;
    const temp = this.walker.entry(located.dir, `.${located.name}.undo-${randomBytes(6).toString("hex")}`);
    try {
      if (state.mode === "120000") symlinkSync(content, temp);
      else writeNewFile(temp, content, state.mode === "100755", existing);
      renameSync(temp, entry);
    } catch (err) {
      try {
        unlinkSync(temp);
      } catch {
        // nothing was made
      }
      throw err;
    }
  }

  /** Removes the folders above `path` that are left empty, up to (not including) `top`. */
  pruneEmpty(path: string, top: string): void {
    for (let folder = dirname(path); folder.startsWith(`${top}/`); folder = dirname(folder)) {
      try {
        const located = this.locate(folder, false);
        if (located === null || located.kind !== "dir") return;
        rmdirSync(this.walker.entry(located.dir, located.name));
      } catch {
        return; // not empty (or not ours to remove): the folders above are not empty either
      }
    }
  }

  close(): void {
    this.walker.close();
  }
}

/**
 * Writes a new file at `temp`: the old file's permissions when one is there (with the
 * executable bits as the snapshot says), else what the umask gives a new file.
 */
function writeNewFile(temp: string, content: Buffer, executable: boolean, existing: Stats | null): void {
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, executable ? 0o777 : 0o666);
  try {
    for (let off = 0; off < content.length; ) off += writeSync(fd, content, off);
    if (existing !== null) {
      const bits = existing.mode & 0o7777;
      fchmodSync(fd, executable ? bits | ((bits & 0o444) >> 2) : bits & ~0o111);
    }
  } finally {
    closeSync(fd);
  }
}
