/**
 * Writing files back, on behalf of the agent's sandbox: every write lands where the session may
 * write, and never through a link. A restore starts at the folder the snapshot was taken in
 * (its real path, checked against the writable folders) and goes down one name at a time,
 * refusing any name on the way that is a link: a folder swapped for a link to `/etc` after the
 * turn cannot carry a restore out. On Linux each step is taken relative to the folder
 * descriptor held open before it (`/proc/self/fd/<fd>/<name>`, Node having no `openat`), so a
 * rename racing the restore does not move it either; elsewhere the same checks run on path
 * strings.
 *
 * A file is put back by writing a new file next to it and renaming it over the old name, so a
 * hard link to the old file elsewhere is never written through, and a link at the final name
 * is replaced, not followed. The patch engine has its own descriptor-relative walker for the
 * agent's writes (the "sandbox" work in src/patch/); this one is stricter (it follows no link
 * at all) because a restore only ever puts back what a snapshot saw, and snapshots hold links
 * as links.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, rmdirSync, symlinkSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { join } from "node:path";
import type { FileState } from "./types.js";

/** Linux's O_PATH (Node has no constant): a handle on a folder that reads nothing. */
const O_PATH = 0o10000000;
const DIR_FLAGS = constants.O_DIRECTORY | constants.O_NOFOLLOW;

let procUsable: boolean | undefined;

function procFdUsable(): boolean {
  if (procUsable === undefined) {
    procUsable = false;
    if (process.platform === "linux") {
      let fd = -1;
      try {
        fd = openSync("/", O_PATH | constants.O_DIRECTORY);
        procUsable = readlinkSync(`/proc/self/fd/${fd}`) === "/" && lstatSync(`/proc/self/fd/${fd}/.`).isDirectory();
      } catch {
        procUsable = false;
      } finally {
        if (fd >= 0) closeSync(fd);
      }
    }
  }
  return procUsable;
}

export class RestoreRefused extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = "RestoreRefused";
  }
}

/** A folder on the way: its real path and, where /proc allows, a descriptor held on it. */
interface HeldDir {
  path: string;
  fd: number;
}

/**
 * Writes under one root (real path, already checked to be writable). One writer per restore;
 * `close()` releases the folders it held.
 */
export class SafeWriter {
  private readonly byDescriptor = procFdUsable();
  private readonly held = new Map<string, HeldDir>();

  constructor(private readonly root: string) {}

  /** The name of `entry` inside `dir` for a system call, never resolving `dir`'s path again. */
  private at(dir: HeldDir, entry: string): string {
    return dir.fd >= 0 ? `/proc/self/fd/${dir.fd}/${entry}` : join(dir.path, entry);
  }

  private open(path: string, expect: Stats | null): HeldDir {
    if (!this.byDescriptor) return { path, fd: -1 };
    const fd = openSync(path, O_PATH | DIR_FLAGS);
    const opened = fstatSync(fd);
    if (expect !== null && (opened.ino !== expect.ino || opened.dev !== expect.dev)) {
      closeSync(fd);
      throw new Error("it changed while being restored");
    }
    return { path, fd };
  }

  /**
   * The folder holding `relative` (its `/`-separated parts under the root), made when missing
   * and `create` is set; null when it is missing and not to be made.
   */
  private parent(relative: string, create: boolean, display: string): HeldDir | null {
    const parts = relative.split("/");
    parts.pop();
    let key = "";
    let dir = this.held.get(key);
    if (dir === undefined) {
      dir = this.open(this.root, null);
      this.held.set(key, dir);
    }
    for (const part of parts) {
      if (part === "" || part === "." || part === "..") throw new RestoreRefused(display, "the path is not a plain relative path");
      key = key === "" ? part : `${key}/${part}`;
      const known = this.held.get(key);
      if (known) {
        dir = known;
        continue;
      }
      const name = this.at(dir, part);
      let stats = lstatOrNull(name);
      if (stats === null) {
        if (!create) return null;
        mkdirSync(name, 0o777);
        stats = lstatSync(name);
      }
      if (stats.isSymbolicLink()) throw new RestoreRefused(display, `${key} is a link now; undo does not write through links`);
      if (!stats.isDirectory()) throw new RestoreRefused(display, `${key} is not a folder now`);
      const next = this.open(name, stats);
      next.path = join(dir.path, part);
      this.held.set(key, next);
      dir = next;
    }
    return dir;
  }

  /** Puts `state` (with `content`) at `relative`, or removes what is there when `state` is null. */
  restore(relative: string, state: FileState | null, content: Buffer | null, display: string): void {
    const name = relative.split("/").pop() ?? "";
    if (state === null) {
      const dir = this.parent(relative, false, display);
      if (dir === null) return;
      const entry = this.at(dir, name);
      const stats = lstatOrNull(entry);
      if (stats === null) return;
      if (stats.isDirectory()) throw new RestoreRefused(display, "a folder is there now; it is left as it is");
      unlinkSync(entry);
      return;
    }
    if (content === null) throw new RestoreRefused(display, "the snapshot's copy is missing");
    const dir = this.parent(relative, true, display);
    if (dir === null) throw new RestoreRefused(display, "its folder could not be made");
    const entry = this.at(dir, name);
    const existing = lstatOrNull(entry);
    if (existing?.isDirectory()) throw new RestoreRefused(display, "a folder is there now; it is left as it is");
    const temp = this.at(dir, `.${name}.undo-${randomBytes(6).toString("hex")}`);
    try {
      if (state.mode === "120000") symlinkSync(content, temp);
      else writeFileAt(temp, content, state.mode === "100755", existing);
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

  /** Removes folders left empty on the way to `relative` (deepest first), never the root. */
  pruneEmpty(relative: string): void {
    const parts = relative.split("/");
    parts.pop();
    while (parts.length > 0) {
      const key = parts.join("/");
      const name = parts.pop() ?? "";
      const parent = this.held.get(parts.join("/"));
      if (parent === undefined) return;
      try {
        rmdirSync(this.at(parent, name));
      } catch {
        return; // not empty (or not ours to remove): the folders above are not empty either
      }
      const gone = this.held.get(key);
      if (gone && gone.fd >= 0) closeSync(gone.fd);
      this.held.delete(key);
    }
  }

  close(): void {
    for (const dir of this.held.values()) if (dir.fd >= 0) closeSync(dir.fd);
    this.held.clear();
  }
}

/**
 * Writes a new file at `temp`: the old file's permissions when one is there (with the
 * executable bits as the snapshot says), else what the umask gives a new file.
 */
function writeFileAt(temp: string, content: Buffer, executable: boolean, existing: Stats | null): void {
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, executable ? 0o777 : 0o666);
  try {
    for (let off = 0; off < content.length; ) off += writeSync(fd, content, off);
    if (existing?.isFile()) {
      const bits = existing.mode & 0o7777;
      const readable = bits & 0o444;
      fchmodSync(fd, executable ? bits | (readable >> 2) : bits & ~0o111);
    }
  } finally {
    closeSync(fd);
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
