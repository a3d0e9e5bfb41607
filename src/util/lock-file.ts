/**
 * A lock file, so two codex-ts processes never do the same guarded work at once (refreshing one
 * login, appending to one history file). Created with O_CREAT|O_EXCL (`wx`), atomic on local
 * filesystems: whoever creates it holds the lock, and it holds `{"pid","host","acquired_at"}`.
 *
 * A busy lock is retried, without blocking the event loop, after short randomised pauses that
 * grow, until a deadline. A lock is stale when it is older than any holder takes, when its holder
 * on this host no longer runs, or (with `emptyStaleAfterMs`) when it stayed empty that long: the
 * reference CLI leaves an empty `auth.json.lock` behind, since it locks with the OS instead. A
 * stale lock is renamed aside and checked to be the inode judged stale; if a live lock took its
 * place in between, it is linked back. Only codex-ts processes of one host are ordered by it.
 */
import { closeSync, fstatSync, linkSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { errorCode } from "./errors.js";
import { processAlive } from "./process-alive.js";
import { sleep } from "./sleep.js";

export interface LockFileOptions {
  /** How long to wait for another process's lock before giving up. */
  timeoutMs: number;
  /** A lock older than this was left behind by a crashed or stuck process. */
  staleAfterMs: number;
  /** An empty lock older than this is not one of ours; absent: empty locks wait for `staleAfterMs`. */
  emptyStaleAfterMs?: number;
}

export interface HeldLock {
  path: string;
  ino: number;
}

/** The lock was not obtained in time. */
export class LockTimeoutError extends Error {}

/** Runs `body` holding the lock; throws LockTimeoutError when another process holds it too long. */
export async function withLockFile<T>(path: string, options: LockFileOptions, body: () => Promise<T>): Promise<T> {
  const lock = await acquireLockFile(path, options);
  if (!lock) throw new LockTimeoutError(`${path} is held by another codex-ts process; try again`);
  try {
    return await body();
  } finally {
    releaseLockFile(lock);
  }
}

/** Creates the lock file, waiting out (or breaking, when stale) another's; null on timeout. */
export async function acquireLockFile(path: string, options: LockFileOptions): Promise<HeldLock | null> {
  const deadline = Date.now() + options.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const handle = tryCreate(path);
    if (handle) return handle;
    const state = inspect(path, options);
    if (state.kind === "stale") breakLock(path, state.ino);
    if (Date.now() >= deadline) return null;
    if (state.kind === "held") await sleep(Math.min(2 ** Math.min(attempt, 4), 16) * (0.5 + Math.random()));
  }
}

/** Removes the lock if it is still the one we created (another process may have broken it as stale). */
export function releaseLockFile(lock: HeldLock): void {
  try {
    if (statSync(lock.path).ino === lock.ino) unlinkSync(lock.path);
  } catch {
    // already gone (broken as stale by another process)
  }
}

function tryCreate(path: string): HeldLock | null {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (err) {
    const code = errorCode(err);
    // Windows answers EPERM while a just-deleted lock is still being removed.
    if (code === "EEXIST" || (process.platform === "win32" && code === "EPERM")) return null;
    throw err;
  }
  let ino: number;
  try {
    const owner = Buffer.from(`${JSON.stringify({ pid: process.pid, host: hostname(), acquired_at: Date.now() })}\n`);
    let off = 0;
    while (off < owner.length) off += writeSync(fd, owner, off, owner.length - off);
    ino = fstatSync(fd).ino;
  } catch (err) {
    closeQuietly(fd);
    unlinkQuietly(path);
    throw err;
  }
  closeQuietly(fd);
  return { path, ino };
}

type LockState = { kind: "gone" } | { kind: "held" } | { kind: "stale"; ino: number };

function inspect(path: string, options: LockFileOptions): LockState {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return { kind: "gone" };
  }
  try {
    const st = fstatSync(fd);
    const age = Math.abs(Date.now() - st.mtimeMs);
    if (age > options.staleAfterMs) return { kind: "stale", ino: st.ino };
    const buf = Buffer.alloc(512);
    const text = buf.toString("utf8", 0, readSync(fd, buf, 0, buf.length, 0));
    if (text === "") return options.emptyStaleAfterMs !== undefined && age > options.emptyStaleAfterMs ? { kind: "stale", ino: st.ino } : { kind: "held" };
    const owner = parseOwner(text);
    if (owner && owner.host === hostname() && !processAlive(owner.pid)) return { kind: "stale", ino: st.ino };
    return { kind: "held" };
  } catch {
    return { kind: "held" };
  } finally {
    closeQuietly(fd);
  }
}

/**
 * Removes a stale lock without removing a live one that replaced it since it was judged: the
 * lock is renamed aside, and if what was moved is not the stale inode it is linked back.
 */
function breakLock(path: string, staleIno: number): void {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else already removed it
  }
  try {
    if (statSync(aside).ino !== staleIno) {
      try {
        linkSync(aside, path);
      } catch {
        // A newer lock already took the name; it stays.
      }
    }
  } catch {
    // cannot stat what was moved: leave the name free
  } finally {
    unlinkQuietly(aside);
  }
}

/** The holder: our JSON, or a bare pid (locks written by earlier codex-ts versions). */
function parseOwner(text: string): { pid: number; host: string } | null {
  const bare = /^\s*(\d+)\s*$/.exec(text);
  if (bare) return { pid: Number(bare[1]), host: hostname() };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return null;
    const { pid, host } = value as Record<string, unknown>;
    if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0 || typeof host !== "string") return null;
    return { pid, host };
  } catch {
    return null; // not written yet, or not ours
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
