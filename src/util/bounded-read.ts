/**
 * Reading files that someone else may have shaped: a repository's AGENTS.md, `.git/HEAD`,
 * `.codex/config.toml`, rules, skills and prompts, and the files of the sessions folder. Such a
 * file may be a link to `/dev/zero` (endless), a FIFO (an `open` for reading waits for a writer
 * that never comes) or simply huge. So only regular files are read, the open itself never
 * waits (O_NONBLOCK, checked with fstat before any byte is read), and never more bytes are read
 * than the caller keeps.
 *
 * Links are followed as an ordinary read follows them: where a file may point is the sandbox's
 * concern, not a reader's.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/** A size limit for files meant to be read whole: settings, rules, prompts, skills, git metadata. */
export const SETTINGS_FILE_MAX_BYTES = 1024 * 1024;

/** Thrown for a FIFO, device or socket where a file was expected. */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file, so it was not read`);
    this.name = "NotRegularFileError";
  }
}

/** Thrown by readTextFile when a file is over the size it may have. */
export class FileTooLargeError extends Error {
  readonly code = "EFBIG";
  constructor(
    readonly path: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`${path} is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} a file of its kind may have, so it was not read`);
    this.name = "FileTooLargeError";
  }
}

export interface OpenedFile {
  fd: number;
  /** The size fstat gave when it was opened (0 for some special files such as /proc's). */
  size: number;
}

/**
 * Opens `path` for reading if (after links) it is a regular file; throws NotRegularFileError
 * for a FIFO, device or socket, and the usual errno errors (ENOENT, EACCES, EISDIR, …) as a
 * read would. The caller closes the descriptor.
 */
export function openRegularFile(path: string): OpenedFile {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    // A directory fails as reading one always has (EISDIR), so callers' errno handling holds.
    if (info.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: "EISDIR", syscall: "read", path });
    if (!info.isFile()) throw new NotRegularFileError(path, kindOf(info));
    return { fd, size: info.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

export interface BoundedBytes {
  data: Buffer;
  /** The file's size when opened, or the bytes read when that is larger (a growing file). */
  size: number;
  /** There was more than `maxBytes`: `data` is the first `maxBytes`. */
  truncated: boolean;
}

/** At most the first `maxBytes` of a regular file, reading no more than that (plus one byte to see whether more follow). */
export function readBoundedBytes(path: string, maxBytes: number): BoundedBytes {
  const { fd, size } = openRegularFile(path);
  try {
    // fstat's size is a hint: /proc files say 0, and a file may grow while it is read.
    const data = Buffer.allocUnsafe(Math.max(0, Math.min(maxBytes, size > 0 ? size : 64 * 1024)));
    let filled = 0;
    let buf = data;
    for (;;) {
      if (filled === buf.length) {
        if (buf.length >= maxBytes) break;
        const grown = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(buf.length * 2, 64 * 1024)));
        buf.copy(grown, 0, 0, filled);
        buf = grown;
      }
      const n = readSync(fd, buf, filled, buf.length - filled, null);
      if (n === 0) return { data: buf.subarray(0, filled), size: filled, truncated: false };
      filled += n;
    }
    const probe = Buffer.allocUnsafe(1);
    const more = readSync(fd, probe, 0, 1, null) > 0;
    return { data: buf.subarray(0, filled), size: Math.max(size, filled + (more ? 1 : 0)), truncated: more };
  } finally {
    closeSync(fd);
  }
}

export interface BoundedText {
  text: string;
  size: number;
  truncated: boolean;
}

/**
 * The first `maxBytes` of a regular file as UTF-8 text; when cut, the cut falls before a
 * character that would otherwise be split (so no replacement character appears at the end).
 */
export function readTextPrefix(path: string, maxBytes: number): BoundedText {
  const { data, size, truncated } = readBoundedBytes(path, maxBytes);
  const kept = truncated ? data.subarray(0, utf8Boundary(data)) : data;
  return { text: kept.toString("utf8"), size, truncated };
}

/** A regular file's whole text, refused with FileTooLargeError when over `maxBytes`. */
export function readTextFile(path: string, maxBytes: number = SETTINGS_FILE_MAX_BYTES): string {
  const { data, size, truncated } = readBoundedBytes(path, maxBytes);
  if (truncated) throw new FileTooLargeError(path, size, maxBytes);
  return data.toString("utf8");
}

/** Whether `err` is one of the refusals above (rather than a missing or unreadable file). */
export function isRefusedFile(err: unknown): err is NotRegularFileError | FileTooLargeError {
  return err instanceof NotRegularFileError || err instanceof FileTooLargeError;
}

/** Where a UTF-8 buffer can be cut without splitting a character: before a trailing incomplete sequence. */
function utf8Boundary(data: Buffer): number {
  let start = data.length;
  // A character is at most 4 bytes: look back over up to 3 continuation bytes for its lead.
  for (let i = data.length - 1; i >= 0 && i >= data.length - 4; i--) {
    const byte = data[i] ?? 0;
    if ((byte & 0xc0) !== 0x80) {
      start = i;
      break;
    }
  }
  if (start === data.length) return data.length;
  const lead = data[start] ?? 0;
  const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start + length <= data.length ? data.length : start;
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "a special file";
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
}
