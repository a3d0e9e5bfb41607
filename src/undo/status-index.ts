/**
 * The index snapshots run `git status` on: undo's own copy of the user's index, kept for the
 * session. Git may write this copy (its optional lock is undo's to take, never the user's), so
 * the file times git refreshes in it are kept: an entry git cannot trust by its times (a file
 * written in the same second as the user's index, which git compares by content every time it
 * reads that index without rewriting it) is read once, not at every snapshot.
 *
 * The copy holds the user's entries; only git's record of file times may differ, and git checks
 * those against the copy's own time. It is made again when the user's index holds other entries
 * (its content digest, `index-digest.ts`), found by its file times first.
 */
import { existsSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync, type Stats } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { lstatOrNull } from "../util/lstat-or-null.js";
import { indexContentDigest } from "./index-digest.js";

export class StatusIndex {
  readonly file: string;
  private copies = 0;
  /** The user's index's times when it was last found to hold the copy's entries. */
  private seen: string | null = null;
  /** The content digest of the entries copied, or the bytes copied until it is needed. */
  private copied: { digest: string | null } | { bytes: Buffer } | null = null;

  constructor(
    private readonly userIndex: string,
    private readonly oidBytes: number,
    tmpDir: string,
  ) {
    this.file = join(tmpDir, `status-index-${randomBytes(8).toString("hex")}`);
  }

  /**
   * Makes the copy hold the user's index's entries. `recent`: an index written after this time
   * could be written again with the same times, so its times alone do not say it is unchanged.
   */
  update(recent: number): void {
    // Timed first: an index replaced meanwhile makes the copy look older, never newer.
    const s = lstatOrNull(this.userIndex);
    const stat = s === null ? "-" : `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    if (this.copied !== null && this.seen === stat && (s === null || s.mtimeMs <= recent) && this.intact()) return;
    const bytes = s === null ? null : readOrNull(this.userIndex);
    if (bytes === null) {
      // No index (nothing ever staged): git reads a missing file as an empty index.
      if (this.copied === null || this.digest() !== "") this.copies++;
      rmSync(this.file, { force: true });
      this.copied = { digest: "" };
    } else if (this.copied === null || !this.intact()) {
      this.write(bytes, s);
      // Digested only if the user's index is rewritten (a fresh session never needs it).
      this.copied = { bytes };
    } else {
      // Rewritten: the same entries with other times (a `git status` of the user's), or others.
      const digest = indexContentDigest(Buffer.from(bytes), this.oidBytes);
      if (digest === null || digest !== this.digest()) this.write(bytes, s);
      this.copied = { digest };
    }
    this.seen = stat;
  }

  /**
   * Counts the copies made: the same number, the same entries. What was derived from the copy
   * (a work index, a tree) holds while it stays.
   */
  get generation(): number {
    return this.copies;
  }

  private digest(): string | null {
    if (this.copied === null) return null;
    if ("bytes" in this.copied) this.copied = { digest: indexContentDigest(this.copied.bytes, this.oidBytes) };
    return this.copied.digest;
  }

  /**
   * Whether git may write the copy with the file times it checked: not when the copy was written
   * in the last second (by git or by `update`), since an entry git had to compare by content
   * then may still need it after a write in that second, and git would rewrite the whole index
   * for it at every snapshot. Once the second has passed, one write settles it.
   */
  mayRefresh(recent: number): boolean {
    const s = lstatOrNull(this.file);
    return s !== null && s.mtimeMs <= recent;
  }

  /** Whether the copy is still there (it is missing only where the user's index is). */
  private intact(): boolean {
    return (this.copied !== null && "digest" in this.copied && this.copied.digest === "") || existsSync(this.file);
  }

  /** The session ends: the copy goes, with what a killed write left (git's lock, a partial copy). */
  remove(): void {
    for (const name of [this.file, `${this.file}.lock`, `${this.file}.partial`]) rmSync(name, { force: true });
    this.copied = null;
  }

  /**
   * Written whole under another name, then renamed: a git reading the copy never sees half of
   * it. The copy keeps the index's modification time: git takes an entry written in the same
   * second as its index for "racily clean" and compares its content, and a copy with a newer
   * time would trust that entry's times instead, missing a same-size rewrite made in that second
   * (rounding down to whole milliseconds only makes more entries racy).
   */
  private write(bytes: Buffer, times: Stats | null): void {
    this.copies++;
    const partial = `${this.file}.partial`;
    writeFileSync(partial, bytes);
    if (times !== null) utimesSync(partial, times.atime, times.mtime);
    renameSync(partial, this.file);
  }
}

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}
