/**
 * The cross-session prompt history, `$CODEX_HOME/history.jsonl`: one JSON object per submitted
 * prompt, one per line, in the reference's byte format
 *
 *     {"session_id":"<thread id>","ts":<unix seconds>,"text":"<prompt>"}
 *
 * (codex-rs/core/src/message_history.rs, `HistoryEntry`; the field is still named `session_id`
 * although its value is the thread id). The file is created with mode 0600 and any other mode is
 * put back to 0600 before each write. `[history] persistence = "none"` writes nothing;
 * `max_bytes` (unset or 0: no limit) is enforced after each append, as the reference does:
 * once the file is larger than `max_bytes`, the oldest lines are dropped until it is at most
 * max(floor(0.8 × max_bytes), size of the newest line), so the next append does not trim again
 * and the newest entry always survives, even when it alone is larger than the cap.
 *
 * Cross-process safety. The reference appends under an advisory `flock` on the file itself
 * (try-lock, 10 tries 100 ms apart). Node has no flock, and relying on O_APPEND alone is not
 * enough: a single `write(2)` is only promised to be atomic up to PIPE_BUF (4 KiB on Linux) for
 * pipes, prompts are often longer, and trimming rewrites the file, which an unlocked appender
 * racing with it would lose its line to. So every append (and its trim) runs under the
 * process-wide lock file of util/lock-file.ts, `history.jsonl.lock`: waited for, without
 * blocking the event loop, until a deadline (2 s by default), past which the prompt is not saved
 * and a warning is returned; taken over when its holder is gone or it went untouched for 10 s (a
 * holder keeps it for well under a millisecond for a normal line).
 *
 * Appends write the whole line with one `writeSync` loop on an O_APPEND descriptor while the
 * lock is held; trimming copies the kept tail to a temporary file (mode 0600, fsynced) and
 * renames it over the history, so a reader sees the old file or the new one, never half of
 * either. Readers (`historyMetadata`, `lookupHistoryEntry`) take no lock: appenders only add
 * whole lines, an unfinished last line is not counted, and a trim replaces the file atomically.
 * Because a trim makes a new file, it also changes the log id (the inode): offsets a client
 * got before the trim no longer match, and a lookup with the old id answers `null` instead of
 * a shifted entry (the reference rewrites in place and keeps the inode).
 *
 * Limits: the lock only orders codex-ts processes. The Rust CLI locks with flock, which does
 * not see this lock file, so a Rust process and a codex-ts process sharing one CODEX_HOME only
 * have O_APPEND to keep their lines apart (and a Rust trim can race a codex-ts append). O_EXCL
 * and pid liveness are only dependable on a local filesystem of one host; on NFS a lock may be
 * judged by age alone.
 *
 * Errors never reach the caller: appending returns an outcome carrying a warning, reads return
 * zero counts or `null`. Everything is synchronous: the writes are tiny, and a synchronous
 * append keeps the entries of one process in submission order.
 */
import { randomBytes } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { openRegularFile } from "../util/bounded-read.js";
import { LockBusyError, withLockFile } from "../util/lock-file.js";
import { errorMessage } from "../util/errors.js";
import { PRIVATE_DIR_MODE } from "../util/atomic-write.js";


/** `[history]` from config.toml: whether prompts are kept, and how large the file may grow. */
export type HistoryPersistence = "save-all" | "none";

export interface HistorySettings {
  persistence: HistoryPersistence;
  /** Size at which the oldest entries are dropped; unset: no limit. */
  max_bytes?: number;
}

export const HISTORY_FILENAME = "history.jsonl";
const LOCK_SUFFIX = ".lock";
/** After exceeding `max_bytes`, trim down to this fraction of it (as the reference). */
const SOFT_CAP_RATIO = 0.8;
const DEFAULT_LOCK_TIMEOUT_MS = 2000;
/** A lock held longer than this is taken to be left behind by a crashed or stuck process. */
const STALE_LOCK_AGE_MS = 10_000;
const CHUNK_BYTES = 64 * 1024;
const OWNER_ONLY = 0o600;
const POSIX = process.platform !== "win32";
const NEWLINE = 0x0a;

export interface HistoryEntry {
  sessionId: string;
  /** Unix time in seconds. */
  ts: number;
  text: string;
}

export type AppendOutcome =
  | { kind: "appended"; trimmed: boolean }
  /** `persistence = "none"`: nothing was written. */
  | { kind: "disabled" }
  /** The prompt was not saved; `warning` says why (for a log, not for the user's screen). */
  | { kind: "failed"; warning: string };

export interface AppendOptions {
  /** How long to wait for another process's lock before giving up; default 2000 ms. */
  lockTimeoutMs?: number;
}

export function historyFilePath(codexHome: string): string {
  return join(codexHome, HISTORY_FILENAME);
}

/** One history line, newline included, exactly as the reference serialises it. */
export function historyLine(sessionId: string, ts: number, text: string): string {
  return `${JSON.stringify({ session_id: wellFormed(sessionId), ts, text: wellFormed(text) })}\n`;
}

/**
 * Appends `text` as submitted in session `sessionId`. Never throws: a failure (no CODEX_HOME,
 * lock not obtained, a read-only file, a mode that cannot be fixed) comes back as a warning.
 * Callers skip empty prompts, as the reference's front end does.
 */
export async function appendPromptHistory(
  codexHome: string,
  sessionId: string,
  text: string,
  settings: HistorySettings,
  options: AppendOptions = {},
): Promise<AppendOutcome> {
  if (settings.persistence === "none") return { kind: "disabled" };
  const path = historyFilePath(codexHome);
  const lockPath = path + LOCK_SUFFIX;
  const timeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const line = Buffer.from(historyLine(sessionId, Math.floor(Date.now() / 1000), text), "utf8");
  try {
    mkdirSync(codexHome, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (err) {
    return failed(`could not lock ${lockPath}: ${errorMessage(err)}`);
  }
  try {
    return await withLockFile(
      lockPath,
      async (): Promise<AppendOutcome> => {
        try {
          appendLine(path, line);
          return { kind: "appended", trimmed: enforceLimit(path, settings.max_bytes) };
        } catch (err) {
          return failed(`could not append to ${path}: ${errorMessage(err)}`);
        }
      },
      { waitLimitMs: timeoutMs, staleAfterMs: STALE_LOCK_AGE_MS, emptyStaleAfterMs: STALE_LOCK_AGE_MS, heartbeatMs: 2_000, pollMs: 10 },
    );
  } catch (err) {
    if (err instanceof LockBusyError) return failed(`${lockPath} stayed locked by another process for ${timeoutMs} ms`);
    return failed(`could not lock ${lockPath}: ${errorMessage(err)}`);
  }
}

/**
 * The history's log id (its inode; 0 when there is no file) and its entry count (its newline
 * bytes), for `session_configured`'s `history_log_id` / `history_entry_count`.
 */
export function historyMetadata(codexHome: string): { logId: number; count: number } {
  let fd: number;
  try {
    fd = openRegularFile(historyFilePath(codexHome)).fd;
  } catch {
    return { logId: 0, count: 0 };
  }
  let logId = 0;
  try {
    logId = fstatSync(fd).ino;
    let count = 0;
    forEachChunk(fd, 0, (chunk) => {
      for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) count++;
      return true;
    });
    return { logId, count };
  } catch {
    return { logId, count: 0 };
  } finally {
    closeQuietly(fd);
  }
}

/**
 * `historyMetadata` without blocking the event loop while a long file is counted: sessions
 * started by the thread manager get their `history_entry_count` this way.
 */
export async function historyMetadataAsync(codexHome: string): Promise<{ logId: number; count: number }> {
  let handle: FileHandle;
  try {
    // Non-blocking, so a FIFO in its place cannot hang the open; only a regular file is counted.
    handle = await open(historyFilePath(codexHome), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return { logId: 0, count: 0 };
  }
  let logId = 0;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { logId: 0, count: 0 };
    logId = info.ino;
    let count = 0;
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      const view = chunk.subarray(0, bytesRead);
      for (let i = view.indexOf(NEWLINE); i !== -1; i = view.indexOf(NEWLINE, i + 1)) count++;
      position += bytesRead;
    }
    return { logId, count };
  } catch {
    return { logId, count: 0 };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The entry at zero-based line `offset`, or null when the file's log id is not `logId` (0
 * matches any file, as the reference), the line does not exist, or it does not parse.
 */
export function lookupHistoryEntry(codexHome: string, logId: number, offset: number): HistoryEntry | null {
  if (!Number.isSafeInteger(offset) || offset < 0) return null;
  let fd: number;
  try {
    fd = openRegularFile(historyFilePath(codexHome)).fd;
  } catch {
    return null;
  }
  try {
    if (logId !== 0 && fstatSync(fd).ino !== logId) return null;
    let index = 0;
    const parts: Buffer[] = [];
    let complete = false;
    forEachChunk(fd, 0, (chunk) => {
      let pos = 0;
      while (pos < chunk.length) {
        const nl = chunk.indexOf(NEWLINE, pos);
        const end = nl === -1 ? chunk.length : nl;
        if (index === offset) parts.push(Buffer.from(chunk.subarray(pos, end)));
        if (nl === -1) return true;
        if (index === offset) {
          complete = true;
          return false;
        }
        index++;
        pos = nl + 1;
      }
      return true;
    });
    // Like the reference's line reader, an unterminated last line is still a line.
    if (!complete && parts.length === 0) return null;
    return parseEntry(Buffer.concat(parts).toString("utf8"));
  } catch {
    return null;
  } finally {
    closeQuietly(fd);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

function appendLine(path: string, line: Buffer): void {
  const fd = openSync(path, "a+", OWNER_ONLY);
  try {
    ensureOwnerOnly(fd);
    const size = fstatSync(fd).size;
    // A line cut short by a crash must not swallow this one: end it first.
    if (size > 0 && lastByte(fd, size) !== NEWLINE) writeAll(fd, Buffer.from("\n"));
    writeAll(fd, line);
  } finally {
    closeSync(fd);
  }
}

/** Drops the oldest lines when the file exceeds `maxBytes`; true when it did. */
function enforceLimit(path: string, maxBytes: number | undefined): boolean {
  if (maxBytes === undefined || !Number.isFinite(maxBytes) || maxBytes <= 0) return false;
  let tmp: string | null = null;
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size <= maxBytes) return false;
    const lengths = lineLengths(fd);
    const newest = lengths.at(-1);
    if (newest === undefined) return false;
    const target = Math.max(softCap(maxBytes), newest);
    let remaining = size;
    let drop = 0;
    for (let i = 0; remaining > target && i < lengths.length - 1; i++) {
      const len = lengths[i] ?? 0;
      remaining -= len;
      drop += len;
    }
    if (drop === 0) return false;
    tmp = copyTail(path, fd, drop);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    unlinkQuietly(tmp);
    throw err;
  }
  return true;
}

function softCap(maxBytes: number): number {
  return Math.min(Math.max(Math.floor(maxBytes * SOFT_CAP_RATIO), 1), maxBytes);
}

/** Byte length of every line, newline included; an unterminated last line counts too. */
function lineLengths(fd: number): number[] {
  const lengths: number[] = [];
  let start = 0;
  forEachChunk(fd, 0, (chunk, at) => {
    for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) {
      lengths.push(at + i + 1 - start);
      start = at + i + 1;
    }
    return true;
  });
  const size = fstatSync(fd).size;
  if (size > start) lengths.push(size - start);
  return lengths;
}

/** Writes the file from byte `from` on into a new owner-only temporary file; returns its path. */
function copyTail(path: string, src: number, from: number): string {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const out = openSync(tmp, "wx", OWNER_ONLY);
  try {
    ensureOwnerOnly(out);
    forEachChunk(src, from, (chunk) => {
      writeAll(out, chunk);
      return true;
    });
    fsyncSync(out);
    closeSync(out);
  } catch (err) {
    closeQuietly(out);
    unlinkQuietly(tmp);
    throw err;
  }
  return tmp;
}

function ensureOwnerOnly(fd: number): void {
  if (!POSIX) return;
  if ((fstatSync(fd).mode & 0o777) !== OWNER_ONLY) fchmodSync(fd, OWNER_ONLY);
}

function writeAll(fd: number, data: Buffer): void {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off);
}

function lastByte(fd: number, size: number): number | undefined {
  const one = Buffer.alloc(1);
  return readSync(fd, one, 0, 1, size - 1) === 1 ? one[0] : undefined;
}

/** Calls `visit` with successive chunks from `from` on (valid until it returns) until EOF or `false`. */
function forEachChunk(fd: number, from: number, visit: (chunk: Buffer, at: number) => boolean): void {
  const buf = Buffer.allocUnsafe(CHUNK_BYTES);
  let at = from;
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n === 0) return;
    if (!visit(buf.subarray(0, n), at)) return;
    at += n;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

function parseEntry(line: string): HistoryEntry | null {
  try {
    const value: unknown = JSON.parse(line.endsWith("\r") ? line.slice(0, -1) : line);
    if (typeof value !== "object" || value === null) return null;
    const record = value as Record<string, unknown>;
    // `conversation_id` is what the reference wrote before it renamed the field.
    const sessionId = record.session_id ?? record.conversation_id;
    const { ts, text } = record;
    if (typeof sessionId !== "string" || typeof ts !== "number" || typeof text !== "string") return null;
    return { sessionId, ts, text };
  } catch {
    return null;
  }
}

/** Lone surrogates become U+FFFD, so the line stays valid UTF-8 JSON for strict readers. */
function wellFormed(s: string): string {
  return /[\uD800-\uDFFF]/.test(s) ? Buffer.from(s, "utf8").toString("utf8") : s;
}

function failed(warning: string): AppendOutcome {
  return { kind: "failed", warning: `prompt history: ${warning}` };
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
