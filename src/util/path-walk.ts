/**
 * Resolving a path one component at a time without ever letting the kernel follow a symbolic
 * link, so that what is checked is what gets opened.
 *
 * A plain `open(path)` resolves every link on the way at the moment of the call: a check made
 * before it (realpath, lstat) can be outdated by a concurrent rename or a new link, and a link
 * whose target does not exist yet is followed to create that target wherever it points. The
 * walker instead holds each directory it passes through open and names the next component
 * relative to that descriptor, refusing to let the kernel follow a link there (O_NOFOLLOW). A
 * link it meets is read and its target resolved the same way, by the walker, which records
 * where every link it followed sits. What it returns is the directory (held open) that holds
 * the final entry, the entry's name and its canonical path: a path without any link in it.
 *
 * Node has no `openat`, so on Linux a descriptor-relative name is spelled
 * `/proc/self/fd/<dir>/<name>`: the kernel takes the directory the descriptor holds, whatever
 * has happened to its path since, and looks `<name>` up inside it. Where /proc is missing
 * (macOS, a container without it), the walker falls back to the canonical path strings it
 * built: the same answers, but a directory renamed between two steps is not noticed there.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, type Stats } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { errorCode } from "./errors.js";

/** Linux's O_PATH: a handle on a name that neither reads nor follows it (Node has no constant). */
const O_PATH = 0o10000000;
/** How many links one resolution may follow before giving up, as the kernel's ELOOP limit. */
const MAX_LINKS = 40;

export type EntryKind = "file" | "dir" | "symlink" | "other" | "missing";

/** A directory the walker passed through: its canonical path and, with /proc, a descriptor. */
export interface WalkedDir {
  readonly path: string;
  /** -1 when the walker works on path strings. */
  readonly fd: number;
}

export interface Located {
  /** The directory that holds the final entry, held open until the walker closes. */
  dir: WalkedDir;
  /** The final entry's name in `dir`. */
  name: string;
  /** `dir.path` joined with `name`: where the path really leads, no link in it. */
  canonical: string;
  kind: EntryKind;
  /** Where each link that was followed sits (canonical), in the order they were met. */
  linksFollowed: string[];
}

export interface LocateOptions {
  /** Follow a link in the final position too (a write does; a deletion removes the link). */
  followFinal: boolean;
  /**
   * What a directory on the way that does not exist means. Unset: an ENOENT error. `assume`:
   * the rest of the path is taken as written (nothing below a missing directory can be a link),
   * for checks that must not create anything. `create`: the directory is made (`mkdir -p`)
   * after `allow` is called with its canonical path (it throws to refuse), and recorded in
   * `created`, outermost first, even when a later step fails.
   */
  missingDirs?: "assume" | { allow: (canonical: string) => void; created: Array<{ dir: WalkedDir; name: string }> };
}

/** True when `path` is `root` or inside it (both absolute, normalised). */
export function isUnder(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

export function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

let procUsable: boolean | undefined;

/** Whether `/proc/self/fd/<n>/<name>` reaches into the directory descriptor n holds. */
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

/**
 * One walker per batch of related operations (a patch's commit): the directories it opens are
 * shared by every path it resolves and stay open until `close()`, so an undo can reach the
 * same directories the writes used.
 */
export class PathWalker {
  private readonly byDescriptor: boolean;
  private readonly dirs = new Map<string, WalkedDir>();
  /** The directories on the way to a directory reached without a link, by the names that led there. */
  private readonly byName = new Map<string, WalkedDir[]>();
  private readonly verified = new Set<WalkedDir>();

  /**
   * `descriptors: false` walks path strings even where /proc would allow descriptors: for
   * callers with nothing to protect (a write that may go anywhere), which then pay no more than
   * plain opens.
   */
  constructor(options: { descriptors?: boolean } = {}) {
    this.byDescriptor = options.descriptors !== false && procFdUsable();
  }

  /** The string a system call uses to reach `name` inside `dir` (never following `dir` again). */
  entry(dir: WalkedDir, name: string): string {
    return dir.fd >= 0 ? `/proc/self/fd/${dir.fd}/${name}` : join(dir.path, name);
  }

  /** What `name` in `dir` is, without following it. */
  kindOf(dir: WalkedDir, name: string): EntryKind {
    let info: Stats | undefined;
    try {
      info = lstatSync(this.entry(dir, name));
    } catch (err) {
      if (isMissing(err)) return "missing";
      throw err;
    }
    return kindOfStats(info);
  }

  /**
   * The canonical location of an absolute `path`, resolving links by hand. Each directory on the
   * way is opened without following a link, so whatever the walk returns stays the object that
   * was resolved even if names change meanwhile.
   */
  locate(path: string, options: LocateOptions): Located {
    return this.walk(path, options, false);
  }

  /**
   * The directory `path` names, resolved as `locate` resolves the folders on the way to a file
   * (its last name included, created when `missingDirs` allows), held open until `close()`.
   */
  directory(path: string, missingDirs?: LocateOptions["missingDirs"]): { dir: WalkedDir; linksFollowed: string[] } {
    const { dir, linksFollowed } = this.walk(path, { followFinal: true, ...(missingDirs ? { missingDirs } : {}) }, true);
    return { dir, linksFollowed };
  }

  private walk(path: string, options: LocateOptions, asDirectory: boolean): Located {
    if (!isAbsolute(path)) throw errnoError("EINVAL", `not an absolute path: ${path}`);
    const linksFollowed: string[] = [];
    let pending = components(path);
    // Directories this walker already reached by the same leading names are taken as they were
    // then (held open), which saves re-walking them for every file of a patch.
    let stack: WalkedDir[] = [this.root()];
    // The leading names of `path` walked so far, while no link or ".." has intervened.
    let walked = "";
    let byNameUsable = true;
    for (let i = asDirectory ? pending.length : pending.length - 1; i > 0; i--) {
      const prefix = `/${pending.slice(0, i).join("/")}`;
      const known = this.byName.get(prefix);
      if (known) {
        stack = [...known];
        pending = pending.slice(i);
        walked = prefix;
        break;
      }
    }
    let follows = 0;
    for (;;) {
      const name = pending.shift();
      if (name === undefined) {
        const dir = stack[stack.length - 1] as WalkedDir;
        if (asDirectory) return { dir, name: "", canonical: dir.path, kind: "dir", linksFollowed };
        throw errnoError("EISDIR", `${path} names a directory, not a file`);
      }
      if (name === "..") {
        if (stack.length > 1) stack.pop();
        byNameUsable = false;
        continue;
      }
      const dir = stack[stack.length - 1] as WalkedDir;
      const last = pending.length === 0 && !asDirectory;
      const opened = this.openEntry(dir, name);
      if (opened.kind === "symlink" && (!last || options.followFinal)) {
        if (++follows > MAX_LINKS) throw errnoError("ELOOP", `too many symbolic links resolving ${path}`);
        const target = readlinkSync(this.entry(dir, name));
        linksFollowed.push(join(dir.path, name));
        pending = [...components(target), ...pending];
        if (isAbsolute(target)) stack = [this.root()];
        byNameUsable = false;
        continue;
      }
      if (last) {
        if (opened.fd >= 0) closeSync(opened.fd);
        return { dir, name, canonical: join(dir.path, name), kind: opened.kind, linksFollowed };
      }
      const canonical = join(dir.path, name);
      const missing = options.missingDirs;
      let next: WalkedDir;
      if (opened.kind === "dir") {
        next = this.keepDir(canonical, opened.fd);
      } else {
        if (opened.fd >= 0) closeSync(opened.fd);
        if (opened.kind !== "missing") {
          // As `mkdir -p` words it when a file stands where a folder should be.
          throw typeof missing === "object" ? errnoError("EEXIST", `not a directory: ${canonical}`) : errnoError("ENOTDIR", `not a directory: ${canonical}`);
        }
        if (missing === undefined) throw errnoError("ENOENT", `no such directory: ${canonical}`);
        if (missing === "assume") {
          const rest = join(name, ...pending);
          return { dir, name: rest, canonical: join(dir.path, rest), kind: "missing", linksFollowed };
        }
        missing.allow(canonical);
        mkdirSync(this.entry(dir, name), 0o777);
        missing.created.push({ dir, name });
        const made = this.openEntry(dir, name);
        // Something else took the name between the mkdir and the open: do not go through it.
        if (made.kind !== "dir") {
          if (made.fd >= 0) closeSync(made.fd);
          throw errnoError("ENOTDIR", `${canonical} changed while it was being created`);
        }
        next = this.keepDir(canonical, made.fd);
      }
      stack.push(next);
      if (byNameUsable) {
        walked = `${walked}/${name}`;
        this.byName.set(walked, [...stack]);
      }
    }
  }

  /**
   * Whether `dir` is still at the canonical path the walk found it at (asked of the kernel
   * through its descriptor, once per directory); true where the walker has no descriptors.
   */
  stillThere(dir: WalkedDir): boolean {
    if (dir.fd < 0 || this.verified.has(dir)) return true;
    let now: string;
    try {
      now = readlinkSync(`/proc/self/fd/${dir.fd}`);
    } catch {
      return false;
    }
    if (now !== dir.path) return false;
    this.verified.add(dir);
    return true;
  }

  /** Closes every directory the walker holds. */
  close(): void {
    for (const dir of this.dirs.values()) if (dir.fd >= 0) closeSync(dir.fd);
    this.dirs.clear();
    this.byName.clear();
    this.verified.clear();
  }

  private root(): WalkedDir {
    const known = this.dirs.get("/");
    if (known) return known;
    const fd = this.byDescriptor ? openSync("/", O_PATH | constants.O_DIRECTORY) : -1;
    return this.keepDir("/", fd);
  }

  /** Remembers a directory by its canonical path; a second handle on a known one is closed. */
  private keepDir(path: string, fd: number): WalkedDir {
    const known = this.dirs.get(path);
    if (known) {
      if (fd >= 0 && fd !== known.fd) closeSync(fd);
      return known;
    }
    const dir = { path, fd };
    this.dirs.set(path, dir);
    return dir;
  }

  /** Opens `name` in `dir` as a handle that follows nothing, and says what it is. */
  private openEntry(dir: WalkedDir, name: string): { kind: EntryKind; fd: number } {
    if (!this.byDescriptor) return { kind: this.kindOf(dir, name), fd: -1 };
    let fd: number;
    try {
      fd = openSync(this.entry(dir, name), O_PATH | constants.O_NOFOLLOW);
    } catch (err) {
      if (isMissing(err)) return { kind: "missing", fd: -1 };
      throw err;
    }
    const kind = kindOfStats(fstatSync(fd));
    if (kind === "dir") return { kind, fd };
    closeSync(fd);
    return { kind, fd: -1 };
  }
}

function kindOfStats(info: Stats): EntryKind {
  if (info.isSymbolicLink()) return "symlink";
  if (info.isDirectory()) return "dir";
  if (info.isFile()) return "file";
  return "other";
}

function isMissing(err: unknown): boolean {
  return errorCode(err) === "ENOENT";
}

function components(path: string): string[] {
  return path.split("/").filter((part) => part !== "" && part !== ".");
}
