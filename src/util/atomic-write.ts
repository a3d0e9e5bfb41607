/**
 * How codex-ts writes its own files. Replacing a file all at once: the data goes to a temporary file beside the target (created
 * with exactly `mode`, whatever the umask, and synced), which is then renamed over it. A reader
 * or a crash never sees half a file, and the permissions of an older file never carry over.
 * The temporary file is removed when anything fails.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * The mode of every folder codex-ts creates for its own files (CODEX_HOME, sessions, rules,
 * snapshots): owner only, whatever the umask (a umask only removes bits, never adds them).
 */
export const PRIVATE_DIR_MODE = 0o700;

export function writeFileAtomic(path: string, data: string, mode = 0o600): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temp, "wx", mode);
    // The umask may have removed bits from `mode` (never added any); make it exact.
    chmodSync(temp, mode);
    writeSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(temp, path);
  } catch (err) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // Already renamed, or never created.
    }
    throw err;
  }
}
