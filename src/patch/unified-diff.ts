/**
 * Line-based unified diffs in the exact shape the Codex CLI prints (the Rust `similar` crate's
 * `unified_diff()` output), computed with jsdiff.
 *
 * jsdiff's Myers implementation costs O(N·D) over the texts it is given, which is seconds for a
 * large file with many scattered edits. The patch engine already knows which line spans it
 * changed, so only those spans are handed to jsdiff; the identical stretches between them become
 * single "equal" runs. Hunks are then cut from that one run list exactly as a whole-file diff
 * would cut them, so windowing never changes how hunks merge or split.
 */
import { createRequire } from "node:module";
import type { diffArrays as DiffArrays } from "diff";
import type { ChangedRegion } from "./types.js";

export interface UnifiedDiffOptions {
  /** Unchanged lines shown around each change. */
  context: number;
  /**
   * Known changed spans (sorted, non-overlapping, identical aligned text between them). When
   * given, only these windows are diffed, so the cost is linear in the size of the change, not the
   * file.
   */
  regions?: readonly ChangedRegion[];
  /** When set, the diff starts with `--- {old}\n+++ {new}\n`. */
  header?: { old: string; new: string };
}

const NO_NEWLINE_MARKER = "\\ No newline at end of file\n";

/**
 * Past this edit distance jsdiff gives up and the span is shown as a plain removal plus addition:
 * still a correct patch, and a rewrite that large gains little from a minimal alignment. jsdiff's
 * time grows roughly with the square of the distance (1.5 to 2.5 s at a distance of 4,000 lines),
 * so this bounds the worst case. Deterministic, unlike a wall-clock timeout.
 */
const MAX_EDIT_LENGTH = 5_000;

/** Unified diff of `oldText` → `newText`; empty when they are equal. */
export function unifiedDiff(oldText: string, newText: string, options: UnifiedDiffOptions): string {
  if (oldText === newText) return "";
  const before = new LineIndex(oldText);
  const after = new LineIndex(newText);
  const context = Math.max(0, Math.floor(options.context));
  const given = options.regions ? checkedRegions(options.regions, before, after) : null;
  let hunks = groupIntoHunks(diffOps(before, after, given ?? [trimmedRegion(before, after)]), context);
  if (hunks.length === 0 && given) {
    // The texts differ yet the caller's regions saw no change: they were wrong, so diff it all.
    hunks = groupIntoHunks(diffOps(before, after, [trimmedRegion(before, after)]), context);
  }
  if (hunks.length === 0) return "";
  const out: string[] = [];
  if (options.header) out.push(`--- ${options.header.old}\n+++ ${options.header.new}\n`);
  for (const hunk of hunks) formatHunk(hunk, before, after, out);
  return out.join("");
}

/**
 * A text's lines by offset, so a huge file is not copied into an array of strings just to diff a
 * few spans of it. A line runs up to and including its `\n` (a `\r` before it stays part of the
 * line); the last line may have no `\n`.
 */
class LineIndex {
  /** Offset where each line starts, plus one final entry: the text's length. */
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) this.starts.push(nl + 1);
    if (this.starts[this.starts.length - 1] !== text.length) this.starts.push(text.length);
  }

  get count(): number {
    return this.starts.length - 1;
  }

  line(i: number): string {
    return this.text.slice(this.starts[i], this.starts[i + 1]);
  }

  lines(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = from; i < to; i++) out.push(this.line(i));
    return out;
  }
}

/** One run of the edit script, in 0-based line positions of both texts. */
interface DiffOp {
  kind: "equal" | "delete" | "insert";
  oldStart: number;
  oldLen: number;
  newStart: number;
  newLen: number;
}

/**
 * Collects an edit script left to right. Adjacent equal runs are joined (a window's edges and the
 * gaps between windows must read as one stretch when hunks are cut), and each block of changes
 * between two equal runs comes out as its removals followed by its additions, as unified diffs
 * print them.
 */
class OpBuilder {
  private readonly ops: DiffOp[] = [];
  private oldPos = 0;
  private newPos = 0;
  private pendingDeletes = 0;
  private pendingInserts = 0;

  equal(n: number): void {
    if (n === 0) return;
    this.flushChanges();
    const last = this.ops[this.ops.length - 1];
    if (last?.kind === "equal") {
      last.oldLen += n;
      last.newLen += n;
    } else {
      this.ops.push({ kind: "equal", oldStart: this.oldPos, oldLen: n, newStart: this.newPos, newLen: n });
    }
    this.oldPos += n;
    this.newPos += n;
  }

  delete(n: number): void {
    this.pendingDeletes += n;
  }

  insert(n: number): void {
    this.pendingInserts += n;
  }

  finish(): DiffOp[] {
    this.flushChanges();
    return this.ops;
  }

  private flushChanges(): void {
    const deletes = this.pendingDeletes;
    const inserts = this.pendingInserts;
    if (deletes > 0) {
      this.ops.push({ kind: "delete", oldStart: this.oldPos, oldLen: deletes, newStart: this.newPos, newLen: 0 });
      this.oldPos += deletes;
    }
    if (inserts > 0) {
      this.ops.push({ kind: "insert", oldStart: this.oldPos, oldLen: 0, newStart: this.newPos, newLen: inserts });
      this.newPos += inserts;
    }
    this.pendingDeletes = 0;
    this.pendingInserts = 0;
  }
}

/** The whole-file edit script: jsdiff inside each region, equal runs between them. */
function diffOps(before: LineIndex, after: LineIndex, regions: readonly ChangedRegion[]): DiffOp[] {
  const ops = new OpBuilder();
  let oldPos = 0;
  for (const region of regions) {
    ops.equal(region.oldStart - oldPos);
    diffRegion(before, after, region, ops);
    oldPos = region.oldEnd;
  }
  ops.equal(before.count - oldPos);
  return ops.finish();
}

function diffRegion(before: LineIndex, after: LineIndex, region: ChangedRegion, ops: OpBuilder): void {
  const oldLines = before.lines(region.oldStart, region.oldEnd);
  const newLines = after.lines(region.newStart, region.newEnd);
  const bothSides = oldLines.length > 0 && newLines.length > 0;
  const changes = bothSides ? diffArrays()(oldLines, newLines, { maxEditLength: MAX_EDIT_LENGTH }) : undefined;
  if (!changes) {
    ops.delete(oldLines.length);
    ops.insert(newLines.length);
    return;
  }
  for (const change of changes) {
    if (change.added) ops.insert(change.value.length);
    else if (change.removed) ops.delete(change.value.length);
    else ops.equal(change.value.length);
  }
}

/** Everything between the texts' common leading and trailing lines, as one region. */
function trimmedRegion(before: LineIndex, after: LineIndex): ChangedRegion {
  const limit = Math.min(before.count, after.count);
  let prefix = 0;
  while (prefix < limit && before.line(prefix) === after.line(prefix)) prefix++;
  let suffix = 0;
  while (suffix < limit - prefix && before.line(before.count - 1 - suffix) === after.line(after.count - 1 - suffix)) suffix++;
  return { oldStart: prefix, oldEnd: before.count - suffix, newStart: prefix, newEnd: after.count - suffix };
}

/**
 * The caller's regions if they fit the texts' line counts, else null (the whole file is diffed
 * instead), plus any last line the regions could not have known about.
 *
 * The patch engine compares lines without their `\n`, so to it `c` at the end of a file lacking
 * its final newline equals `c\n` anywhere else. That is the only way an "identical" gap line can
 * differ here, and only for a text's last line when that text does not end in `\n`; such a line
 * gets a one-line region of its own when its aligned partner differs. Nothing else in the gaps is
 * read, which is what keeps the cost independent of the file's size.
 */
function checkedRegions(regions: readonly ChangedRegion[], before: LineIndex, after: LineIndex): ChangedRegion[] | null {
  if (!fitsLineCounts(regions, before.count, after.count)) return null;
  const checked = [...regions];
  const addIfDiffers = (oldLine: number, newLine: number): void => {
    const known = checked.some((r) => r.oldStart === oldLine && r.oldEnd === oldLine + 1);
    if (!known && before.line(oldLine) !== after.line(newLine)) {
      checked.push({ oldStart: oldLine, oldEnd: oldLine + 1, newStart: newLine, newEnd: newLine + 1 });
    }
  };
  if (before.count > 0 && !before.text.endsWith("\n")) {
    const partner = alignedLine(regions, before.count - 1, "old");
    if (partner !== null) addIfDiffers(before.count - 1, partner);
  }
  if (after.count > 0 && !after.text.endsWith("\n")) {
    const partner = alignedLine(regions, after.count - 1, "new");
    if (partner !== null) addIfDiffers(partner, after.count - 1);
  }
  // Both starts rise together across valid regions; the second key orders a pure insertion
  // before a line fix-up at the same old position.
  return checked.sort((a, b) => a.oldStart - b.oldStart || a.newStart - b.newStart);
}

/** Sorted, non-overlapping, in bounds, and every gap (including the tail) equally long on both sides. */
function fitsLineCounts(regions: readonly ChangedRegion[], oldCount: number, newCount: number): boolean {
  let oldPos = 0;
  let newPos = 0;
  for (const r of regions) {
    const ordered = r.oldStart >= oldPos && r.newStart >= newPos && r.oldEnd >= r.oldStart && r.newEnd >= r.newStart;
    if (!ordered || r.oldStart - oldPos !== r.newStart - newPos) return false;
    oldPos = r.oldEnd;
    newPos = r.newEnd;
  }
  return oldCount >= oldPos && oldCount - oldPos === newCount - newPos;
}

/** The other text's line aligned with `line` of `side`, or null when `line` is inside a region. */
function alignedLine(regions: readonly ChangedRegion[], line: number, side: "old" | "new"): number | null {
  let oldPos = 0;
  let newPos = 0;
  for (const r of regions) {
    const [gapStart, partnerGapStart, regionStart, regionEnd] =
      side === "old" ? [oldPos, newPos, r.oldStart, r.oldEnd] : [newPos, oldPos, r.newStart, r.newEnd];
    if (line < regionStart) return partnerGapStart + (line - gapStart);
    if (line < regionEnd) return null;
    oldPos = r.oldEnd;
    newPos = r.newEnd;
  }
  return side === "old" ? newPos + (line - oldPos) : oldPos + (line - newPos);
}

/**
 * Cuts the edit script into hunks: each change keeps up to `context` equal lines on either side,
 * and two changes separated by at most `2 * context` equal lines share a hunk.
 */
function groupIntoHunks(ops: readonly DiffOp[], context: number): DiffOp[][] {
  if (!ops.some(isChange)) return [];
  // Only the last `context` lines of a leading equal run and the first of a trailing one are shown.
  const shown = ops.map((op, i) => {
    if (op.kind !== "equal") return op;
    if (i === 0) return equalTail(op, context);
    if (i === ops.length - 1) return equalHead(op, context);
    return op;
  });
  const hunks: DiffOp[][] = [];
  let current: DiffOp[] = [];
  for (const op of shown) {
    if (op.kind === "equal" && op.oldLen > 2 * context) {
      current.push(equalHead(op, context));
      hunks.push(current);
      current = [equalTail(op, context)];
    } else {
      current.push(op);
    }
  }
  if (current.some(isChange)) hunks.push(current);
  return hunks;
}

function isChange(op: DiffOp): boolean {
  return op.kind !== "equal";
}

function equalHead(op: DiffOp, n: number): DiffOp {
  const len = Math.min(op.oldLen, n);
  return { kind: "equal", oldStart: op.oldStart, oldLen: len, newStart: op.newStart, newLen: len };
}

function equalTail(op: DiffOp, n: number): DiffOp {
  const len = Math.min(op.oldLen, n);
  const skip = op.oldLen - len;
  return { kind: "equal", oldStart: op.oldStart + skip, oldLen: len, newStart: op.newStart + skip, newLen: len };
}

function formatHunk(hunk: readonly DiffOp[], before: LineIndex, after: LineIndex, out: string[]): void {
  const first = hunk[0];
  const last = hunk[hunk.length - 1];
  if (!first || !last) return;
  const oldRange = formatRange(first.oldStart, last.oldStart + last.oldLen);
  const newRange = formatRange(first.newStart, last.newStart + last.newLen);
  out.push(`@@ -${oldRange} +${newRange} @@\n`);
  for (const op of hunk) {
    if (op.kind === "insert") {
      for (let i = op.newStart; i < op.newStart + op.newLen; i++) pushLine("+", after.line(i), out);
    } else {
      const sign = op.kind === "equal" ? " " : "-";
      for (let i = op.oldStart; i < op.oldStart + op.oldLen; i++) pushLine(sign, before.line(i), out);
    }
  }
}

/** A 0-based half-open line span as a hunk header prints it: 1-based, length omitted when 1. */
function formatRange(start: number, end: number): string {
  const len = end - start;
  if (len === 1) return String(start + 1);
  // An empty span names the line it follows.
  if (len === 0) return `${start},0`;
  return `${start + 1},${len}`;
}

function pushLine(sign: string, line: string, out: string[]): void {
  out.push(sign, line);
  if (!line.endsWith("\n")) out.push("\n", NO_NEWLINE_MARKER);
}

let diffArraysImpl: typeof DiffArrays | null = null;

/**
 * jsdiff, loaded on the first diff rather than at start-up (most runs never diff). Its
 * CommonJS build can be required synchronously, which keeps unifiedDiff synchronous.
 */
function diffArrays(): typeof DiffArrays {
  diffArraysImpl ??= (createRequire(import.meta.url)("diff/lib/diff/array.js") as { diffArrays: typeof DiffArrays }).diffArrays;
  return diffArraysImpl;
}
