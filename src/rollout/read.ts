/**
 * Reads a rollout file line by line in fixed-size chunks, so a reader can stop after the head
 * (listing) and memory never holds more than one chunk plus the line being assembled. Lines are
 * split on bytes, before UTF-8 decoding, so a multi-byte character across a chunk boundary is
 * never mangled.
 *
 * Lines are parsed lazily. A line in the compact shape the reference and codex-ts write
 * (`{"timestamp":"…","type":"…","payload":{"type":"…"`) reveals its kind from its first
 * characters, so a reader that only needs some kinds (a resume skips most events) never parses
 * the rest; other shapes are parsed whole. Each chunk is decoded to one string up to its last
 * newline and split there: per-line buffers and decoding calls cost more than the parsing itself.
 *
 * Damage never throws: a line that is not JSON is skipped with a warning, and a last line
 * without its newline (a write cut short when the process died) is reported as torn.
 */
import { isAscii } from "node:buffer";
import { closeSync, readSync } from "node:fs";
import { openRegularFile } from "../util/bounded-read.js";

export interface RolloutLine {
  type: string;
  /** 1-based, counting every line of the file. */
  lineNo: number;
  /** The payload's own `type` (event kinds), when the line's head shows it; else undefined. */
  readonly payloadType: string | undefined;
  /** The line as stored, without its newline. */
  readonly raw: string;
  /** The parsed payload (parsed on first use); undefined if the line turns out not to be JSON. */
  readonly payload: unknown;
}

export interface ScanResult {
  warnings: string[];
  /** False when the reader stopped early (visit returned false, or maxBytes was reached). */
  reachedEnd: boolean;
  /** The file's last line had no newline and was not valid JSON: a write cut short. */
  tornTail: boolean;
}

export interface ScanOptions {
  /** Stop after reading this many bytes (for heads); the line cut there is not visited. */
  maxBytes?: number;
  chunkBytes?: number;
}

const DEFAULT_CHUNK = 1 << 20;
const LINE_START = '{"timestamp":"';
const TYPE_KEY = '","type":"';
const PAYLOAD_KEY = '","payload":';
const PAYLOAD_TYPE = '{"type":"';

/**
 * A compact line: its kind read from its head, the payload parsed only if the visitor asks. One
 * instance is re-aimed at each line in turn (a long session has tens of thousands), so a visitor
 * keeps the values it needs (`raw`, `payload`), never the line object itself.
 */
class LazyLine implements RolloutLine {
  raw = "";
  lineNo = 0;
  type = "";
  /** Where the payload's value starts in `raw`. */
  private payloadAt = 0;
  private parsed: { value: unknown } | undefined;

  constructor(private readonly onBroken: (lineNo: number) => void) {}

  /** Points at `line` if it has the compact head; false (and unchanged) otherwise. */
  aim(line: string, lineNo: number): boolean {
    if (!line.startsWith(LINE_START)) return false;
    const q = line.indexOf('"', LINE_START.length);
    if (q === -1 || !line.startsWith(TYPE_KEY, q)) return false;
    const typeStart = q + TYPE_KEY.length;
    let type: string | undefined;
    for (const known of KNOWN_TYPES) {
      if (line.startsWith(known, typeStart) && line.charCodeAt(typeStart + known.length) === 34) {
        type = known;
        break;
      }
    }
    const typeEnd = type === undefined ? line.indexOf('"', typeStart) : typeStart + type.length;
    if (typeEnd === -1 || !line.startsWith(PAYLOAD_KEY, typeEnd)) return false;
    this.raw = line;
    this.lineNo = lineNo;
    this.type = type ?? line.slice(typeStart, typeEnd);
    this.payloadAt = typeEnd + PAYLOAD_KEY.length;
    this.parsed = undefined;
    return true;
  }

  get payloadType(): string | undefined {
    if (!this.raw.startsWith(PAYLOAD_TYPE, this.payloadAt)) return undefined;
    const start = this.payloadAt + PAYLOAD_TYPE.length;
    const end = this.raw.indexOf('"', start);
    return end === -1 ? undefined : this.raw.slice(start, end);
  }

  get payload(): unknown {
    if (this.parsed === undefined) {
      try {
        this.parsed = { value: (JSON.parse(this.raw) as { payload?: unknown }).payload };
      } catch {
        this.onBroken(this.lineNo);
        this.parsed = { value: undefined };
      }
    }
    return this.parsed.value;
  }
}

/** The kinds of line there are; matching them in place spares a string per line. */
const KNOWN_TYPES = ["response_item", "event_msg", "turn_context", "session_meta", "compacted"];

/**
 * Calls `visit` for each line in order; `visit` returns false to stop reading. The line object
 * may be reused for the next line: keep its values, not the object.
 */
export function scanRollout(path: string, visit: (line: RolloutLine) => boolean | void, options: ScanOptions = {}): ScanResult {
  const result: ScanResult = { warnings: [], reachedEnd: false, tornTail: false };
  const broken = (lineNo: number): void => void result.warnings.push(`${path}: line ${lineNo} is not valid JSON; skipped it`);
  const cursor = new LazyLine(broken);
  let lineNo = 0;
  let stopped = false;
  const handle = (text: string, terminated: boolean): void => {
    lineNo += 1;
    if (terminated && cursor.aim(text, lineNo)) {
      if (visit(cursor) === false) stopped = true;
      return;
    }
    // Any other shape, and always an unterminated last line (it may be torn): parse it whole.
    if (text.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      if (terminated) broken(lineNo);
      else {
        result.tornTail = true;
        result.warnings.push(`${path}: the last line is incomplete (${Buffer.byteLength(text)} bytes, cut off when its writer stopped); skipped it`);
      }
      return;
    }
    const line = parsed as { type?: unknown; payload?: unknown } | null;
    if (!line || typeof line !== "object" || typeof line.type !== "string") {
      result.warnings.push(`${path}: line ${lineNo} is not a rollout line; skipped it`);
      return;
    }
    const payload = line.payload;
    const payloadType = isObject(payload) && typeof payload.type === "string" ? payload.type : undefined;
    if (visit({ type: line.type, lineNo, payloadType, raw: text, payload }) === false) stopped = true;
  };

  // Only a regular file: a FIFO in the sessions folder would hang the open, a device never end.
  const { fd, size } = openRegularFile(path);
  try {
    const buf = Buffer.allocUnsafe(Math.max(1, Math.min(options.chunkBytes ?? DEFAULT_CHUNK, size)));
    const carry: Buffer[] = [];
    let position = 0;
    while (!stopped) {
      const budget = options.maxBytes === undefined ? buf.length : Math.min(buf.length, options.maxBytes - position);
      if (budget <= 0) return result;
      const n = readSync(fd, buf, 0, budget, position);
      if (n === 0) break;
      position += n;
      const chunk = buf.subarray(0, n);
      const lastNl = chunk.lastIndexOf(10);
      if (lastNl === -1) {
        carry.push(Buffer.from(chunk));
        continue;
      }
      // Up to the last newline is whole lines: decode it in one go (a newline byte is never
      // inside a multi-byte character, so the cut is always on a character boundary).
      const whole = carry.length > 0 ? Buffer.concat([...carry.splice(0), chunk.subarray(0, lastNl)]) : chunk.subarray(0, lastNl);
      const text = decode(whole);
      for (let start = 0; !stopped; ) {
        const nl = text.indexOf("\n", start);
        handle(text.slice(start, nl === -1 ? text.length : nl), true);
        if (nl === -1) break;
        start = nl + 1;
      }
      // The buffer is reused for the next chunk, so the unfinished line's bytes are copied out.
      if (!stopped && lastNl + 1 < n) carry.push(Buffer.from(chunk.subarray(lastNl + 1)));
    }
    if (stopped) return result;
    if (carry.length > 0) handle(Buffer.concat(carry).toString("utf8"), false);
    result.reachedEnd = true;
    return result;
  } finally {
    closeSync(fd);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * UTF-8 bytes as text. Session files are mostly ASCII (JSON escapes nothing else), and ASCII
 * copied as Latin-1 is the same text for a fraction of the cost of UTF-8 decoding.
 */
function decode(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}

/** The complete lines within the last `bytes` of the file, newest first (for cheap tail looks). */
export function tailLines(path: string, bytes = 64 * 1024): string[] {
  const { fd, size } = openRegularFile(path);
  try {
    const start = Math.max(0, size - bytes);
    const buf = Buffer.allocUnsafe(size - start);
    const n = readSync(fd, buf, 0, buf.length, start);
    const lines = buf.subarray(0, n).toString("utf8").split("\n");
    if (start > 0) lines.shift(); // cut mid-line
    return lines.filter((l) => l.trim() !== "").reverse();
  } finally {
    closeSync(fd);
  }
}
