/**
 * A lock file, for work that two processes must never do at once (refreshing a login whose
 * refresh token is single-use, rewriting a shared file). The holder creates the file (O_EXCL),
 * writes its pid into it and touches it while it holds it, so a waiter can tell a live holder
 * from a dead or stuck one; the file is removed on release.
 *
 * A waiter takes a lock over only when it is stale: its holder's process is gone, its heartbeat
 * stopped more than `staleAfterMs` ago, or it is an empty file (not written by a holder of ours)
 * past `emptyStaleAfterMs`. A holder that is alive and working is never taken over, however long
 * it takes. Waiters take a stale lock over one at a time (see `takeOverStaleLock`), each checking
 * that the file is still the one it judged stale, so a slow waiter never removes the live lock a
 * faster one created meanwhile.
 *
 * Pids and O_EXCL are dependable on a local file system of one host; on NFS a lock may be judged
 * by its heartbeat alone.
 */
import { closeSync, fstatSync, futimesSync, openSync, statSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { readTextPrefix } from "./bounded-read.js";
import { processAlive } from "./process-alive.js";
import { errorCode } from "./errors.js";

export interface LockFileOptions {
  /** Give up waiting after this long (LockBusyError). */
  waitLimitMs: number;
  /** A lock not touched for this long is stale even if a process with its pid exists (a reused pid, a hung holder). */
  staleAfterMs?: number;
  /** An empty lock older than this was left by something else (our holders write their pid at once). */
  emptyStaleAfterMs?: number;
  /** How often a holder touches its lock; well under `staleAfterMs`. */
  heartbeatMs?: number;
  pollMs?: number;
}

const DEFAULTS = { staleAfterMs: 60_000, emptyStaleAfterMs: 60_000, heartbeatMs: 10_000, pollMs: 50 };

/** The wait for a lock passed its limit while another process held it. */
export class LockBusyError extends Error {
  constructor(readonly lockPath: string) {
    super(`${lockPath} is held by another codex-ts process`);
    this.name = "LockBusyError";
  }
}

/** Runs `body` holding the lock at `lockPath`; releases it however `body` ends. */
export async function withLockFile<T>(lockPath: string, body: () => Promise<T>, options: LockFileOptions): Promise<T> {
  const settings = { ...DEFAULTS, ...options };
  const fd = await acquire(lockPath, settings);
  const heartbeat = setInterval(() => touch(fd), settings.heartbeatMs);
  heartbeat.unref();
  try {
    return await body();
  } finally {
    clearInterval(heartbeat);
    release(lockPath, fd);
  }
}

/** What a waiter saw at the lock path: the file's identity, and whether it is stale. */
export interface LockSighting {
  ino: number;
  mtimeMs: number;
  stale: boolean;
}

type Settings = typeof DEFAULTS & LockFileOptions;

async function acquire(lockPath: string, settings: Settings): Promise<number> {
  const started = Date.now();
  for (;;) {
    const fd = tryCreate(lockPath);
    if (fd !== null) return fd;
    const sighting = inspectLock(lockPath, settings);
    if (sighting?.stale) {
      takeOverStaleLock(lockPath, sighting);
      continue;
    }
    if (sighting !== null) {
      if (Date.now() - started > settings.waitLimitMs) throw new LockBusyError(lockPath);
      await new Promise((resolve) => setTimeout(resolve, settings.pollMs));
    }
  }
}

function tryCreate(lockPath: string): number | null {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (err) {
    if (errorCode(err) === "EEXIST") return null;
    throw err;
  }
  writeSync(fd, `${process.pid}\n`);
  return fd;
}

/** The lock file's identity and whether it is stale; null when there is none (released meanwhile). */
export function inspectLock(lockPath: string, options: Partial<Settings> = {}): LockSighting | null {
  const settings = { ...DEFAULTS, ...options };
  let info;
  let text;
  try {
    info = statSync(lockPath);
    text = readTextPrefix(lockPath, 64).text;
  } catch (err) {
    if (errorCode(err) === "ENOENT") return null;
    throw err;
  }
  const age = Date.now() - info.mtimeMs;
  const pid = holderPid(text);
  let stale: boolean;
  if (text === "") stale = age > settings.emptyStaleAfterMs;
  else if (!Number.isInteger(pid) || pid <= 0) stale = age > settings.staleAfterMs;
  else stale = !processAlive(pid) || age > settings.staleAfterMs;
  return { ino: info.ino, mtimeMs: info.mtimeMs, stale };
}

/** The holder's pid: ours write it bare; history locks of earlier codex-ts versions wrote `{"pid":…}`. */
function holderPid(text: string): number {
  if (!text.startsWith("{")) return Number.parseInt(text, 10);
  const found = /"pid"\s*:\s*(\d+)/.exec(text);
  return found ? Number(found[1]) : NaN;
}

/**
 * A takeover guard is held only between a few synchronous file calls; one older than this was
 * left by a waiter killed in between.
 */
const GUARD_STALE_MS = 5_000;

/**
 * Removes the stale lock `sighting` describes, and nothing else. Waiters take over one at a time,
 * each holding the guard file `<lock>.takeover` (created exclusively) while it checks that the
 * file at the lock path is still the one it judged stale (same inode and time: nobody replaced
 * or touched it) and removes it. A waiter that finds the guard taken leaves the takeover to its
 * holder and tries again. So a waiter that judged the lock stale late never removes the live lock
 * a faster one created: only the lock's own holder could change that file meanwhile, and it does
 * so only when it was hung past `staleAfterMs`.
 */
export function takeOverStaleLock(lockPath: string, sighting: LockSighting): void {
  const guardPath = `${lockPath}.takeover`;
  const guard = tryCreate(guardPath);
  if (guard === null) {
    if (inspectLock(guardPath, { staleAfterMs: GUARD_STALE_MS, emptyStaleAfterMs: GUARD_STALE_MS })?.stale) unlinkIfPresent(guardPath);
    return;
  }
  try {
    const now = statOrNull(lockPath);
    if (now !== null && now.ino === sighting.ino && now.mtimeMs === sighting.mtimeMs) unlinkIfPresent(lockPath);
  } finally {
    closeSync(guard);
    unlinkIfPresent(guardPath);
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch (err) {
    if (errorCode(err) === "ENOENT") return null;
    throw err;
  }
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if (errorCode(err) !== "ENOENT") throw err;
  }
}

function touch(fd: number): void {
  try {
    const now = new Date();
    futimesSync(fd, now, now);
  } catch {
    // The descriptor is ours until release; a failure here only makes the lock look older.
  }
}

/** Removes the lock if it is still ours (a waiter may have judged it stale and replaced it). */
function release(lockPath: string, fd: number): void {
  try {
    if (fstatSync(fd).ino === statSync(lockPath).ino) unlinkSync(lockPath);
  } catch {
    // Gone already: nothing left to release.
  } finally {
    closeSync(fd);
  }
}
