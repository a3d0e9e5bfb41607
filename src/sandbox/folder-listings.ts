/**
 * Folder listings kept between a session's deny views (fs-guard.ts), so a view costs one `lstat`
 * per folder once they are known, and a folder is read again only when it may have changed.
 *
 * A folder may have changed when its change time (ctime), inode or device differs from what was
 * seen when it was listed. The change time rather than the modification time, because a command
 * can set a folder's modification time back (`touch -d`) but not its change time: that is the
 * kernel's clock at the last change, utimes included. And a listing is trusted only once the
 * folder's change time lies well before the moment it was read: timestamps are coarse (a kernel
 * tick, a second on some file systems), so an entry made in the same tick just after the listing
 * would leave the change time as it was. Such a folder is simply read again next time, as git
 * treats a "racily clean" file.
 *
 * `load` fills the same cache without blocking, for the first walk of a session (`prewarm`);
 * what it stores is as trustworthy as what `get` stores, since each listing is read after the
 * `lstat` it is recorded with.
 */
import { lstatSync, readdirSync, type Dirent, type Stats } from "node:fs";
import { lstat, readdir } from "node:fs/promises";

export interface Entry {
  name: string;
  kind: "dir" | "file" | "link" | "other";
  /** The inode, read (exactly) the first time a hard-link search needs it. */
  ino?: bigint;
}

export interface Listing<Memo> {
  entries: readonly Entry[];
  dev: number;
  /** What the guard worked out from these entries (per walk), dropped with the listing. */
  memo: Map<number, Memo>;
}

interface Cached<Memo> extends Listing<Memo> {
  ctimeMs: number;
  ino: number;
  /** Changed too close to when it was read for the listing to be trusted next time. */
  racy: boolean;
}

/** Longer than any file system's timestamp granularity (FAT's is 2 s). */
const RACY_WINDOW_MS = 2500;

export class FolderListings<Memo> {
  private readonly cache = new Map<string, Cached<Memo>>();

  /** `dir`'s entries (from the cache while it is unchanged); null when it is not a folder. */
  get(dir: string): Listing<Memo> | null {
    const info = lstatSync(dir, { throwIfNoEntry: false });
    const cached = this.reusable(dir, info);
    if (cached !== undefined) return cached;
    if (info === undefined || !info.isDirectory()) return null;
    const readAt = Date.now();
    let dirents: Dirent[];
    try {
      dirents = readdirSync(dir, { withFileTypes: true });
    } catch {
      // Unreadable for us means unreadable for the commands we start too.
      dirents = [];
    }
    return this.store(dir, info, dirents, readAt);
  }

  /** As `get`, without blocking the event loop. */
  async load(dir: string): Promise<Listing<Memo> | null> {
    const info = await lstat(dir).catch(() => undefined);
    const cached = this.reusable(dir, info);
    if (cached !== undefined) return cached;
    if (info === undefined || !info.isDirectory()) return null;
    const readAt = Date.now();
    const dirents = await readdir(dir, { withFileTypes: true }).catch((): Dirent[] => []);
    return this.store(dir, info, dirents, readAt);
  }

  /** The cached listing when the folder is unchanged; undefined (and forgotten) otherwise. */
  private reusable(dir: string, info: Stats | undefined): Cached<Memo> | undefined {
    const cached = this.cache.get(dir);
    if (cached === undefined) return undefined;
    if (info !== undefined && info.isDirectory() && !cached.racy && cached.ctimeMs === info.ctimeMs && cached.ino === info.ino && cached.dev === info.dev) return cached;
    this.cache.delete(dir);
    return undefined;
  }

  private store(dir: string, info: Stats, dirents: Dirent[], readAt: number): Cached<Memo> {
    const entries = dirents.map((dirent): Entry => ({ name: dirent.name, kind: kindOf(dirent) }));
    const listing: Cached<Memo> = {
      entries,
      dev: info.dev,
      memo: new Map(),
      ctimeMs: info.ctimeMs,
      ino: info.ino,
      racy: info.ctimeMs > readAt - RACY_WINDOW_MS,
    };
    this.cache.set(dir, listing);
    return listing;
  }
}

function kindOf(dirent: Dirent): Entry["kind"] {
  return dirent.isDirectory() ? "dir" : dirent.isSymbolicLink() ? "link" : dirent.isFile() ? "file" : "other";
}
