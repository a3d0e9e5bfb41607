/**
 * What a snapshot leaves out, as the reference's ghost snapshots did: untracked files above a
 * size (10 MiB), untracked folders holding many files (200 or more directly in them), and
 * anything inside folders that are dependencies or build output by convention (node_modules,
 * virtual environments, caches). What is left out is never restored and never removed by an
 * undo: it stays as it is. `[ghost_snapshot]` in config.toml changes both limits (0: no limit).
 */
import { posix } from "node:path";

export const DEFAULT_LARGE_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_LARGE_DIR_FILES = 200;

/** Folder names whose contents are never snapshotted (nor a file of that name: `.env` holds secrets). */
export const SKIPPED_NAMES: ReadonlySet<string> = new Set([
  "node_modules",
  ".venv",
  "venv",
  "env",
  ".env",
  "dist",
  "build",
  ".pytest_cache",
  ".mypy_cache",
  ".cache",
  ".tox",
  "__pycache__",
]);

export interface SnapshotLimits {
  /** Untracked files larger than this many bytes are left out; 0: none are. */
  largeFileBytes: number;
  /** Untracked folders with at least this many files directly in them are left out; 0: none are. */
  largeDirFiles: number;
}

export const DEFAULT_LIMITS: SnapshotLimits = { largeFileBytes: DEFAULT_LARGE_FILE_BYTES, largeDirFiles: DEFAULT_LARGE_DIR_FILES };

/** True when a component of the `/`-separated relative path is a skipped name. */
export function inSkippedFolder(path: string): boolean {
  return path.split("/").some((part) => SKIPPED_NAMES.has(part));
}

/** What was left out, for the warning a front end may show. */
export interface LeftOut {
  largeFiles: Array<{ path: string; bytes: number }>;
  largeDirs: Array<{ path: string; files: number }>;
}

/**
 * Splits untracked files into those a snapshot takes and those it leaves out. `sizeOf` gives a
 * file's size in bytes (null: not a regular file any more, left to git to judge).
 */
export function selectUntracked(files: readonly string[], limits: SnapshotLimits, sizeOf: (path: string) => number | null): { kept: string[]; leftOut: LeftOut } {
  const leftOut: LeftOut = { largeFiles: [], largeDirs: [] };
  const candidates = files.filter((path) => !inSkippedFolder(path));
  let bigDirs = new Set<string>();
  if (limits.largeDirFiles > 0) {
    const perDir = new Map<string, number>();
    for (const path of candidates) {
      const dir = posix.dirname(path);
      perDir.set(dir, (perDir.get(dir) ?? 0) + 1);
    }
    // The repository's own top folder is never left out as a whole.
    const big = [...perDir].filter(([dir, n]) => dir !== "." && n >= limits.largeDirFiles);
    bigDirs = new Set(big.map(([dir]) => dir));
    leftOut.largeDirs = big.map(([path, n]) => ({ path, files: n })).sort((a, b) => b.files - a.files || a.path.localeCompare(b.path));
  }
  const kept: string[] = [];
  for (const path of candidates) {
    if (bigDirs.has(posix.dirname(path))) continue;
    const bytes = limits.largeFileBytes > 0 ? sizeOf(path) : null;
    if (bytes !== null && bytes > limits.largeFileBytes) leftOut.largeFiles.push({ path, bytes });
    else kept.push(path);
  }
  return { kept, leftOut };
}

/** One line for a warning, or null when nothing was left out. */
export function describeLeftOut(leftOut: LeftOut): string | null {
  const parts: string[] = [];
  const few = <T>(items: T[], show: (item: T) => string): string =>
    items.slice(0, 3).map(show).join(", ") + (items.length > 3 ? ` and ${items.length - 3} more` : "");
  if (leftOut.largeDirs.length > 0) parts.push(`folders with many untracked files (${few(leftOut.largeDirs, (d) => `${d.path}/: ${d.files} files`)})`);
  if (leftOut.largeFiles.length > 0) parts.push(`large untracked files (${few(leftOut.largeFiles, (f) => `${f.path}: ${formatBytes(f.bytes)}`)})`);
  if (parts.length === 0) return null;
  return `Undo snapshots leave out ${parts.join(" and ")}; changes to them cannot be undone. [ghost_snapshot] in config.toml sets the limits.`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}
