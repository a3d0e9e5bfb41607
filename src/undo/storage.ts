/**
 * Where undo keeps what it saved: `$CODEX_HOME/undo/<thread id>/`, one folder per thread, with
 * `objects/` (the shadow git objects of ghost snapshots), `blobs/` (undo's own copies) and
 * `tmp/` (temporary indexes). It lives exactly as long as its session: deleting the session
 * deletes it, and a folder whose thread has no session file any more is removed by the next
 * sweep. A thread with no session file at all (`--ephemeral`) keeps its folder in the system's
 * temporary folder and removes it when it ends.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

export const UNDO_SUBDIR = "undo";

export interface StoreLayout {
  /** The thread whose folder it is. */
  readonly storeId: string;
  readonly dir: string;
  readonly objects: string;
  readonly blobs: string;
  readonly tmp: string;
}

/** The folder of thread `storeId` under `base` (`$CODEX_HOME/undo`, or a temporary folder). */
export function storeLayout(base: string, storeId: string): StoreLayout {
  const dir = join(base, storeId);
  return { storeId, dir, objects: join(dir, "objects"), blobs: join(dir, "blobs"), tmp: join(dir, "tmp") };
}

/** Makes the folders (owner-only: they hold copies of the user's files). */
export function ensureStore(layout: StoreLayout): void {
  for (const dir of [layout.objects, layout.blobs, layout.tmp]) mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Removes what undo kept for thread `threadId` (with its session, or when the session is gone). */
export function removeThreadStore(codexHome: string, threadId: string): void {
  if (!/^[0-9a-f-]{36}$/i.test(threadId)) return;
  rmSync(join(codexHome, UNDO_SUBDIR, threadId.toLowerCase()), { recursive: true, force: true });
}

/**
 * Removes the folders of threads that no longer exist: `exists(threadId)` answers from the
 * session files. Returns the ids removed.
 */
export function sweepStores(codexHome: string, exists: (threadId: string) => boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(join(codexHome, UNDO_SUBDIR));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!/^[0-9a-f-]{36}$/i.test(name) || exists(name)) continue;
    removeThreadStore(codexHome, name);
    removed.push(name);
  }
  return removed;
}
