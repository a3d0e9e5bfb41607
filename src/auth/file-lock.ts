/**
 * A lock file beside auth.json, so two codex-ts processes never refresh the same login at once
 * (the issuer rotates refresh tokens: the second refresh would present a used token and lose the
 * login). The holder writes its pid; a lock whose holder is gone, or that is older than any
 * refresh can take, is stale and taken over.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { processAlive } from "../util/process-alive.js";

/** A refresh never takes this long; a lock older than this was left behind. */
const STALE_AFTER_MS = 60_000;
/**
 * Our holders write their pid right after creating the file, so an empty lock older than this is
 * not ours: the reference CLI leaves an empty `auth.json.lock` behind in a CODEX_HOME it shares
 * with codex-ts (it locks the file with the OS instead of creating and removing it).
 */
const EMPTY_STALE_AFTER_MS = 2_000;
const POLL_MS = 50;
const WAIT_LIMIT_MS = 45_000;

export async function withFileLock<T>(lockPath: string, body: () => Promise<T>): Promise<T> {
  await acquire(lockPath);
  try {
    return await body();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      // Taken over as stale by another process meanwhile; nothing left to release.
    }
  }
}

async function acquire(lockPath: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    if (isStale(lockPath)) {
      try {
        unlinkSync(lockPath);
      } catch {
        // Another waiter removed it first; try again.
      }
      continue;
    }
    if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`${lockPath} is held by another codex-ts process; try again`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function isStale(lockPath: string): boolean {
  try {
    const age = Date.now() - statSync(lockPath).mtimeMs;
    if (age > STALE_AFTER_MS) return true;
    const text = readFileSync(lockPath, "utf8");
    if (text === "") return age > EMPTY_STALE_AFTER_MS;
    const pid = Number.parseInt(text, 10);
    if (!Number.isInteger(pid) || pid <= 0) return false; // Being written right now.
    return !processAlive(pid);
  } catch {
    // Released meanwhile (ENOENT): not stale, the next attempt takes it.
    return false;
  }
}
