/**
 * Archiving a thread, as the reference does: its file moves from `sessions/YYYY/MM/DD/` to the
 * flat `archived_sessions/` folder (so listings and `--last` no longer see it), and back to the
 * dated folder its name gives when it is unarchived. Nothing in the file changes.
 */
import { mkdirSync, renameSync } from "node:fs";
import { basename, join } from "node:path";
import { ARCHIVED_SUBDIR, SESSIONS_SUBDIR, parseRolloutFileName } from "./format.js";
import { findThreadPath } from "./list.js";

/** Moves thread `id`'s file into the archive; returns its new path, or null when it is not recorded. */
export function archiveThread(codexHome: string, id: string): string | null {
  const path = findThreadPath(codexHome, id);
  if (path === null) return null;
  const folder = join(codexHome, ARCHIVED_SUBDIR);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const target = join(folder, basename(path));
  renameSync(path, target);
  return target;
}

/** Moves an archived thread's file back under `sessions/`; returns its path, or null when it is not archived. */
export function unarchiveThread(codexHome: string, id: string): string | null {
  const path = findThreadPath(codexHome, id, true);
  if (path === null) return null;
  const name = basename(path);
  const stamp = parseRolloutFileName(name)?.stamp ?? "";
  const [y = "", m = "", d = ""] = stamp.slice(0, 10).split("-");
  const folder = join(codexHome, SESSIONS_SUBDIR, y, m, d);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const target = join(folder, name);
  renameSync(path, target);
  return target;
}
