/**
 * The common case of applying chunks, done on the file's UTF-8 bytes instead of on an array of
 * decoded lines: every chunk's old lines occur verbatim (the exact tier), the file has no
 * carriage returns, and no chunk touches the file's unterminated last line or only appends.
 * Then each chunk is one byte search from where the previous one ended, and the new content is
 * the untouched stretches of the original with the chunks' new lines between them: no string
 * per line, and no decoding or re-encoding of a big file. Anything else returns null and goes
 * through the general line-by-line path, which gives the same result for these cases. (Matching
 * UTF-8 bytes is matching text: no character's encoding contains another's, nor a line break.)
 */
import type { ChangedRegion, UpdateChunk } from "./types.js";

const LF = 10;
const CR = 13;

export interface BytesUpdate {
  /** The new content in pieces (stretches of the original and new lines), to be written in order. */
  parts: Buffer[];
  regions: ChangedRegion[];
}

/** The update, or null when a chunk needs the general path (see above). */
export function applyChunksToBytes(original: Buffer, chunks: readonly UpdateChunk[]): BytesUpdate | null {
  if (original.includes(CR)) return null;
  const lines = new LineCounter(original);
  const parts: Buffer[] = [];
  const regions: ChangedRegion[] = [];
  // Where the search for the next chunk starts (always a line start) and where copying resumes.
  let cursor = 0;
  let copied = 0;
  let shift = 0;
  for (const chunk of chunks) {
    if (chunk.oldLines.length === 0) return null;
    if (chunk.changeContext !== null) {
      const context = Buffer.from(chunk.changeContext, "utf8");
      const at = findLines(original, context, cursor, false);
      if (at === -1) return null;
      cursor = at + context.length + 1;
    }
    const pattern = Buffer.from(chunk.oldLines.join("\n"), "utf8");
    const at = findLines(original, pattern, cursor, chunk.isEndOfFile);
    if (at === -1) return null;
    const oldStart = lines.lineAt(at);
    const oldEnd = oldStart + chunk.oldLines.length;
    const newStart = oldStart + shift;
    shift += chunk.newLines.length - chunk.oldLines.length;
    addRegion(regions, { oldStart, oldEnd, newStart, newEnd: oldEnd + shift });
    parts.push(original.subarray(copied, at));
    if (chunk.newLines.length > 0) parts.push(Buffer.from(`${chunk.newLines.join("\n")}\n`, "utf8"));
    copied = at + pattern.length + 1;
    cursor = copied;
  }
  parts.push(original.subarray(copied));
  return { parts, regions };
}

/**
 * Offset of `needle` in `haystack` at or after `from`, starting a line and ending right before
 * a line break (whole lines, never the unterminated last one), or -1. With `endOfFile` the match
 * must end at the file's final line break.
 */
function findLines(haystack: Buffer, needle: Buffer, from: number, endOfFile: boolean): number {
  const startsLine = (at: number): boolean => at === 0 || haystack[at - 1] === LF;
  if (needle.length === 0 && !endOfFile) {
    // An empty line: `from` is a line start, so the first one is there or after a "\n\n".
    if (haystack[from] === LF) return from;
    const pair = haystack.indexOf("\n\n", from);
    return pair === -1 ? -1 : pair + 1;
  }
  if (endOfFile) {
    const at = haystack.length - 1 - needle.length;
    const fits = at >= from && haystack[haystack.length - 1] === LF && startsLine(at) && haystack.subarray(at, at + needle.length).equals(needle);
    return fits ? at : -1;
  }
  // Search for the first line alone (with its line break), a short needle the search finds
  // fast, and compare the rest in place where it occurs.
  const firstBreak = needle.indexOf(LF);
  const head = firstBreak === -1 ? needle : needle.subarray(0, firstBreak + 1);
  for (let at = haystack.indexOf(head, from); at !== -1 && at < haystack.length; at = haystack.indexOf(head, at + 1)) {
    const end = at + needle.length;
    if (haystack[end] !== LF || !startsLine(at)) continue;
    if (head === needle || haystack.compare(needle, 0, needle.length, at, end) === 0) return at;
  }
  return -1;
}

/** Line numbers of offsets asked for in increasing order, each line break counted once. */
class LineCounter {
  private offset = 0;
  private line = 0;

  constructor(private readonly bytes: Buffer) {}

  lineAt(offset: number): number {
    for (let lf = this.bytes.indexOf(LF, this.offset); lf !== -1 && lf < offset; lf = this.bytes.indexOf(LF, lf + 1)) {
      this.line++;
      this.offset = lf + 1;
    }
    return this.line;
  }
}

/** Appends a region, merged with the previous one when they touch (as the general path does). */
function addRegion(regions: ChangedRegion[], region: ChangedRegion): void {
  const prev = regions[regions.length - 1];
  if (prev && region.oldStart <= prev.oldEnd && region.newStart <= prev.newEnd) {
    prev.oldEnd = Math.max(prev.oldEnd, region.oldEnd);
    prev.newEnd = Math.max(prev.newEnd, region.newEnd);
  } else {
    regions.push(region);
  }
}
