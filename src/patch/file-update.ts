/**
 * Applies an update hunk's chunks to one file's text. Chunks are located in order (each search
 * starts where the previous chunk ended, after its `@@` context line if it has one), every
 * location is found before anything is replaced, and the result keeps the file's own line
 * endings: untouched lines keep theirs, new lines take the file's first one (LF or CRLF), and a
 * file without a final newline still has none afterwards.
 */
import { applyChunksToBytes } from "./exact-update.js";
import { FileContent } from "./file-content.js";
import { seekSequence } from "./seek.js";
import type { ChangedRegion, UpdateChunk } from "./types.js";

type Ending = "\n" | "\r\n" | "";

interface SourceText {
  texts: string[];
  endings: Ending[];
  preferred: "\n" | "\r\n";
  /** True when the file ends with a line break (an empty file counts as ending with one). */
  finalNewline: boolean;
}

/**
 * Replace `oldLength` lines at `start` with `lines` (indices into the original file). A line
 * with an origin is a context line: the file's own line at that index, kept byte for byte.
 */
interface Replacement {
  start: number;
  oldLength: number;
  lines: Array<{ text: string; origin: number }>;
}

export class ChunkNotFoundError extends Error {
  override readonly name = "ChunkNotFoundError";
}

export interface FileUpdate {
  content: string;
  regions: ChangedRegion[];
}

export interface ContentUpdate {
  content: FileContent;
  regions: ChangedRegion[];
}

/** What the plan calls: the exact path on bytes when it applies, else the general one on text. */
export function updateContent(original: FileContent, chunks: readonly UpdateChunk[], displayPath: string): ContentUpdate {
  const exact = applyChunksToBytes(original.bytes, chunks);
  if (exact !== null) return { content: FileContent.fromParts(exact.parts), regions: exact.regions };
  const { content, regions } = applyChunksByLine(original.text, chunks, displayPath);
  return { content: FileContent.fromText(content), regions };
}

/** `updateContent` on text. */
export function applyChunks(original: string, chunks: readonly UpdateChunk[], displayPath: string): FileUpdate {
  const { content, regions } = updateContent(FileContent.fromText(original), chunks, displayPath);
  return { content: content.text, regions };
}

/** The general path: any tier, line ending and end-of-file case, one array entry per line. */
export function applyChunksByLine(original: string, chunks: readonly UpdateChunk[], displayPath: string): FileUpdate {
  const source = parseSource(original);
  const replacements = locateChunks(source.texts, chunks, displayPath);
  return rebuild(source, replacements);
}

function parseSource(content: string): SourceText {
  const texts: string[] = [];
  const endings: Ending[] = [];
  let preferred: SourceText["preferred"] | null = null;
  let lineStart = 0;
  for (let newline = content.indexOf("\n"); newline !== -1; newline = content.indexOf("\n", lineStart)) {
    const crlf = newline > lineStart && content.charCodeAt(newline - 1) === 13;
    texts.push(content.slice(lineStart, crlf ? newline - 1 : newline));
    endings.push(crlf ? "\r\n" : "\n");
    // Like rustfmt and Ruff, the first line break decides the style of lines we add.
    preferred ??= crlf ? "\r\n" : "\n";
    lineStart = newline + 1;
  }
  if (lineStart < content.length) {
    texts.push(content.slice(lineStart));
    endings.push("");
  }
  return { texts, endings, preferred: preferred ?? "\n", finalNewline: content === "" || content.endsWith("\n") };
}

function locateChunks(lines: readonly string[], chunks: readonly UpdateChunk[], displayPath: string): Replacement[] {
  const replacements: Replacement[] = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.changeContext !== null) {
      const at = seekSequence(lines, [chunk.changeContext], cursor, false);
      if (at === -1) throw new ChunkNotFoundError(`Failed to find context '${chunk.changeContext}' in ${displayPath}`);
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      // A chunk that only adds lines goes at the end of the file, before a final blank line.
      const at = lines.length > 0 && lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
      replacements.push({ start: at, oldLength: 0, lines: chunk.newLines.map((text) => ({ text, origin: -1 })) });
      continue;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let at = seekSequence(lines, pattern, cursor, chunk.isEndOfFile);
    if (at === -1 && pattern[pattern.length - 1] === "") {
      // A trailing empty line in the chunk usually stands for the file's final line break,
      // which is not a line of its own here: retry without it.
      pattern = pattern.slice(0, -1);
      if (replacement[replacement.length - 1] === "") replacement = replacement.slice(0, -1);
      at = seekSequence(lines, pattern, cursor, chunk.isEndOfFile);
    }
    if (at === -1) {
      throw new ChunkNotFoundError(`Failed to find expected lines in ${displayPath}:\n${chunk.oldLines.join("\n")}`);
    }
    // Lines the chunk keeps (its context) stay as the file has them, even when they matched only
    // through a whitespace- or punctuation-tolerant tier: only removed and added lines change.
    const kept = keptLines(pattern, replacement);
    replacements.push({
      start: at,
      oldLength: pattern.length,
      lines: replacement.map((text, j) => {
        const i = kept[j] ?? -1;
        return i === -1 ? { text, origin: -1 } : { text: lines[at + i] ?? text, origin: at + i };
      }),
    });
    cursor = at + pattern.length;
  }
  // Stable sort: an append recorded before a later in-file chunk still lands after it.
  return replacements.sort((a, b) => a.start - b.start);
}

/**
 * For each new line of a chunk, the index of the old line it keeps (-1 for an added line): the
 * longest common subsequence of the chunk's old and new lines, which is exactly its context.
 */
export function keptLines(oldLines: readonly string[], newLines: readonly string[]): number[] {
  const n = oldLines.length;
  const m = newLines.length;
  const kept = new Array<number>(m).fill(-1);
  if (n === 0 || m === 0) return kept;
  // lengths[i * (m + 1) + j]: LCS length of oldLines[i..] and newLines[j..].
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        oldLines[i] === newLines[j] ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (oldLines[i] === newLines[j]) kept[j++] = i++;
    else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) i++;
    else j++;
  }
  return kept;
}

function rebuild(source: SourceText, replacements: readonly Replacement[]): FileUpdate {
  const texts: string[] = [];
  const endings: Ending[] = [];
  // For each new line, the old line it copies, or -1 when the patch wrote it.
  const origins: number[] = [];
  const regions: ChangedRegion[] = [];
  let next = 0;
  const copyUntil = (end: number): void => {
    for (; next < end; next++) {
      texts.push(source.texts[next] ?? "");
      endings.push(source.endings[next] ?? source.preferred);
      origins.push(next);
    }
  };
  for (const r of replacements) {
    copyUntil(r.start);
    regions.push({ oldStart: r.start, oldEnd: r.start + r.oldLength, newStart: texts.length, newEnd: texts.length + r.lines.length });
    for (const line of r.lines) {
      texts.push(line.text);
      endings.push(line.origin === -1 ? source.preferred : (source.endings[line.origin] ?? source.preferred));
      origins.push(line.origin);
    }
    next = r.start + r.oldLength;
  }
  copyUntil(source.texts.length);
  settleLineEndings(source, endings, origins, regions);
  dropVanishedLastLine(texts, endings, regions);
  let content = "";
  for (let i = 0; i < texts.length; i++) content += (texts[i] ?? "") + (endings[i] ?? "");
  return { content, regions: mergeTouching(regions) };
}

/**
 * An empty last line without a line break is no line at all (in a file without a final
 * newline, "a" then an empty line reads back as "a\n"): remove it so the regions count only
 * lines that exist.
 */
function dropVanishedLastLine(texts: string[], endings: Ending[], regions: ChangedRegion[]): void {
  const last = texts.length - 1;
  if (last < 0 || texts[last] !== "" || endings[last] !== "") return;
  texts.pop();
  endings.pop();
  for (const region of regions) {
    region.newStart = Math.min(region.newStart, last);
    region.newEnd = Math.min(region.newEnd, last);
  }
}

/**
 * Every line but the last must end with a break (an unterminated last line that now has lines
 * after it gains one), and the last line follows the original file's final-newline state. A
 * line whose ending changed this way is recorded as changed so diffs include it.
 */
function settleLineEndings(source: SourceText, endings: Ending[], origins: readonly number[], regions: ChangedRegion[]): void {
  const last = endings.length - 1;
  const settle = (i: number, wanted: Ending): void => {
    if (endings[i] === wanted) return;
    endings[i] = wanted;
    markChanged(regions, origins[i] ?? -1, i);
  };
  for (let i = 0; i < last; i++) {
    if (endings[i] === "") settle(i, source.preferred);
  }
  if (last >= 0) settle(last, source.finalNewline ? endings[last] || source.preferred : "");
}

/** Records that new line `newIndex`, a copy of old line `oldIndex`, now differs in its ending. */
function markChanged(regions: ChangedRegion[], oldIndex: number, newIndex: number): void {
  // A line the patch wrote (no origin) already lies inside a replacement's region.
  if (oldIndex < 0) return;
  regions.push({ oldStart: oldIndex, oldEnd: oldIndex + 1, newStart: newIndex, newEnd: newIndex + 1 });
  regions.sort((a, b) => a.oldStart - b.oldStart || a.newStart - b.newStart);
}

function mergeTouching(regions: readonly ChangedRegion[]): ChangedRegion[] {
  const merged: ChangedRegion[] = [];
  for (const r of regions) {
    const prev = merged[merged.length - 1];
    if (prev && r.oldStart <= prev.oldEnd && r.newStart <= prev.newEnd) {
      prev.oldEnd = Math.max(prev.oldEnd, r.oldEnd);
      prev.newEnd = Math.max(prev.newEnd, r.newEnd);
    } else {
      merged.push({ ...r });
    }
  }
  return merged;
}
