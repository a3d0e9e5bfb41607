/**
 * Archiving a thread moves its rollout file, unchanged, to `$CODEX_HOME/archived_sessions/`
 * (flat, as the reference does); unarchiving moves it back to the dated folder its name gives
 * (`sessions/YYYY/MM/DD/`). Deleting removes the file from wherever it is. Listings and `--last`
 * only walk `sessions/`, so an archived thread drops out of them until it comes back.
 */
import { mkdirSync, readdirSync, renameSync, unlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { SESSIONS_SUBDIR, parseRolloutFileName } from "./format.js";

export const ARCHIVED_SUBDIR = "archived_sessions";

/** The archived file of thread `id`, or null. */
export function findArchivedThreadPath(codexHome: string, id: string): string | null {
  const wanted = id.toLowerCase();
  const dir = join(codexHome, ARCHIVED_SUBDIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const name = names.find((n) => parseRolloutFileName(n)?.threadId === wanted);
  return name === undefined ? null : join(dir, name);
}

/** Moves an active rollout file into the archive; returns its new path. */
export function archiveThreadFile(codexHome: string, path: string): string {
  const dir = join(codexHome, ARCHIVED_SUBDIR);
  mkdirSync(dir, { recursive: true });
  const target = join(dir, basename(path));
  renameSync(path, target);
  return target;
}

/** Moves an archived rollout file back under `sessions/YYYY/MM/DD/`; returns its new path. */
export function unarchiveThreadFile(codexHome: string, path: string): string {
  const parsed = parseRolloutFileName(basename(path));
  if (parsed === null) throw new Error(`${path} is not a rollout file name`);
  const [y, m, d] = parsed.stamp.slice(0, 10).split("-") as [string, string, string];
  const dir = join(codexHome, SESSIONS_SUBDIR, y, m, d);
  mkdirSync(dir, { recursive: true });
  const target = join(dir, basename(path));
  renameSync(path, target);
  return target;
}

export function deleteThreadFile(path: string): void {
  unlinkSync(path);
}
