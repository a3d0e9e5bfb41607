/**
 * Property tests for the patch engine: random files, random edits written as patches the way a
 * model writes them, and checks that applying them gives exactly the edited file, that a patch
 * which cannot apply leaves the directory untouched, and that the reported changed regions are
 * truthful. Everything is driven by a small seeded PRNG, so a failure names the seed that
 * reproduces it (set CODEX_TS_PROP_SEED to start from another base seed).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { applyPatchInDirectory } from "./apply-patch.js";
import { applyChunks, applyChunksByLine, type FileUpdate } from "./file-update.js";
import { applyChunksToBytes } from "./exact-update.js";
import { parsePatch } from "./parser.js";
import type { ChangedRegion, UpdateChunk } from "./types.js";

const ITERATIONS = 300;
const BASE_SEED = Number(process.env.CODEX_TS_PROP_SEED ?? 20_240_601);

// ---------------------------------------------------------------------------------------------
// PRNG

/** mulberry32: tiny, fast and good enough to drive test-case generation. */
class Rng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** Integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }
}

// ---------------------------------------------------------------------------------------------
// Random files

/** Lines that repeat in real code: they make chunk locations ambiguous unless context helps. */
const COMMON_LINES = ["}", "", "  }", "return;", "{", "// TODO", "end"];

/** A unique `line-<n>`, or with probability `repeats` a line that occurs elsewhere too. */
function randomLine(rng: Rng, counter: { n: number }, repeats: number): string {
  if (!rng.chance(repeats)) return `line-${counter.n++}`;
  // Nothing but closing braces and blank lines: every short pattern occurs many times.
  if (repeats === 1) return rng.pick(["}", ""]);
  // A small pool of `line-<n>` lines repeats as well.
  const roll = rng.next();
  if (roll < 0.4) return rng.pick(["}", ""]);
  return roll < 0.8 ? rng.pick(COMMON_LINES) : `line-${rng.int(0, 3)}`;
}

interface RandomFile {
  lines: string[];
  eol: "\n" | "\r\n";
  finalNewline: boolean;
  content: string;
}

function joinLines(lines: readonly string[], eol: string, finalNewline: boolean): string {
  return lines.length === 0 ? "" : lines.join(eol) + (finalNewline ? eol : "");
}

function randomFile(rng: Rng, counter: { n: number }, maxLines = 60): RandomFile {
  const count = rng.int(0, maxLines);
  // Some files are mostly unique lines, some mostly braces and blanks (where context matters).
  const repeats = rng.pick([0.1, 0.3, 0.6, 0.9, 1]);
  const lines = Array.from({ length: count }, () => randomLine(rng, counter, repeats));
  const eol = rng.chance(0.5) ? "\n" : "\r\n";
  let finalNewline = rng.chance(0.7);
  // Without a final newline, an empty last line would not exist as a line at all.
  if (!finalNewline && lines.length > 0 && lines[lines.length - 1] === "") lines[lines.length - 1] = `line-${counter.n++}`;
  // An empty file counts as ending with a newline; a file with no line break at all (empty, or
  // one unterminated line) has no ending to copy, so added lines get LF.
  if (lines.length === 0) finalNewline = true;
  const content = joinLines(lines, eol, finalNewline);
  return { lines, eol: content.includes("\n") ? eol : "\n", finalNewline, content };
}

// ---------------------------------------------------------------------------------------------
// Random edits

/** Replace `del` lines at `start` (index into the original) with `ins`. */
interface EditOp {
  start: number;
  del: number;
  ins: string[];
}

function randomNewLines(rng: Rng, counter: { n: number }, count: number): string[] {
  return Array.from({ length: count }, () => (rng.chance(0.2) ? rng.pick(COMMON_LINES) : `new-${counter.n++}`));
}

/** 1–5 ordered operations, each separated from the next by at least one untouched line. */
function randomEdit(rng: Rng, counter: { n: number }, lineCount: number): EditOp[] {
  const wanted = rng.int(1, 5);
  const starts = new Set<number>();
  for (let i = 0; i < wanted * 3 && starts.size < wanted; i++) starts.add(rng.int(0, lineCount));
  const sorted = [...starts].sort((a, b) => a - b);
  const ops: EditOp[] = [];
  sorted.forEach((start, i) => {
    const next = sorted[i + 1];
    const maxDel = next === undefined ? lineCount - start : next - start - 1;
    const kind = maxDel <= 0 ? "insert" : rng.pick(["insert", "delete", "replace", "replace"] as const);
    const del = kind === "insert" ? 0 : rng.int(1, Math.min(maxDel, 4));
    const ins = kind === "delete" ? [] : randomNewLines(rng, counter, rng.int(1, 4));
    ops.push({ start, del, ins });
  });
  return ops;
}

function applyEdit(lines: readonly string[], ops: readonly EditOp[]): string[] {
  const out: string[] = [];
  let next = 0;
  for (const op of ops) {
    out.push(...lines.slice(next, op.start), ...op.ins);
    next = op.start + op.del;
  }
  out.push(...lines.slice(next));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Edits written as patches

/** Where `pattern` first occurs exactly in `lines` at or after `from`; -1 when absent. */
function findExact(lines: readonly string[], pattern: readonly string[], from: number): number {
  for (let i = from; i + pattern.length <= lines.length; i++) {
    let j = 0;
    while (j < pattern.length && lines[i + j] === pattern[j]) j++;
    if (j === pattern.length) return i;
  }
  return -1;
}

interface GeneratedHunk {
  /** The `@@` chunks of an Update hunk, as patch text lines. */
  body: string[];
  /** How many chunks needed more context than the model gave to be unambiguous. */
  widened: number;
}

/**
 * Writes `ops` on `lines` as chunks with up to `ctx` context lines around each change. Changes
 * whose contexts would overlap share a chunk. Returns null when some chunk's old lines would be
 * found before the intended position even with a few extra lines of context: such a patch
 * legitimately applies elsewhere.
 */
function writeChunks(rng: Rng, lines: readonly string[], ops: readonly EditOp[], ctx: number): GeneratedHunk | null {
  const groups: EditOp[][] = [];
  for (const op of ops) {
    const group = groups[groups.length - 1];
    const prev = group?.[group.length - 1];
    if (group && prev && op.start - (prev.start + prev.del) <= 2 * ctx) group.push(op);
    else groups.push([op]);
  }
  const body: string[] = [];
  let widened = 0;
  let cursor = 0; // where the engine's search for the next chunk starts
  for (const group of groups) {
    const first = group[0] as EditOp;
    const last = group[group.length - 1] as EditOp;
    let oldStart = Math.max(cursor, first.start - ctx);
    const oldEnd = Math.min(lines.length, last.start + last.del + ctx);

    let header = "@@";
    let searchFrom = cursor;
    if (rng.chance(0.4)) {
      // `@@ line` narrows the search to after that line: only usable when it is unique.
      const candidates: number[] = [];
      for (let h = cursor; h < oldStart; h++) {
        const text = lines[h] ?? "";
        if (text.trim() !== "" && lines.indexOf(text) === h && lines.lastIndexOf(text) === h) candidates.push(h);
      }
      if (candidates.length > 0) {
        const h = rng.pick(candidates);
        header = `@@ ${lines[h] ?? ""}`;
        searchFrom = h + 1;
      }
    }

    const isEndOfFile = oldEnd === lines.length && lines.length > 0 && rng.chance(0.5);
    if (!isEndOfFile && oldEnd > oldStart) {
      let extra = 0;
      while (findExact(lines, lines.slice(oldStart, oldEnd), searchFrom) !== oldStart) {
        if (oldStart <= searchFrom || extra === 6) return null;
        oldStart--;
        extra++;
      }
      if (extra > 0) widened++;
    }

    body.push(header);
    let pos = oldStart;
    for (const op of group) {
      for (; pos < op.start; pos++) body.push(` ${lines[pos] ?? ""}`);
      for (; pos < op.start + op.del; pos++) body.push(`-${lines[pos] ?? ""}`);
      for (const line of op.ins) body.push(`+${line}`);
    }
    for (; pos < oldEnd; pos++) body.push(` ${lines[pos] ?? ""}`);
    if (isEndOfFile) body.push("*** End of File");
    cursor = oldEnd;
  }
  return { body, widened };
}

function patchText(sections: readonly string[][]): string {
  return ["*** Begin Patch", ...sections.flat(), "*** End Patch"].join("\n") + "\n";
}

function updateChunks(patch: string): UpdateChunk[] {
  const hunk = parsePatch(patch).hunks[0];
  assert.ok(hunk?.kind === "update");
  return hunk.chunks;
}

function describe(seed: number, content: string, patch: string): string {
  return `seed ${seed}\n--- file ${JSON.stringify(content)}\n--- patch\n${patch}`;
}

// ---------------------------------------------------------------------------------------------
// Directory snapshots

interface Entry {
  type: "dir" | "file" | "symlink";
  mode: number;
  bytes?: string;
}

function snapshot(root: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const key = rel === "" ? name : `${rel}/${name}`;
      const stat = lstatSync(path);
      if (stat.isDirectory()) {
        out.set(key, { type: "dir", mode: stat.mode });
        walk(path, key);
      } else if (stat.isSymbolicLink()) {
        out.set(key, { type: "symlink", mode: stat.mode });
      } else {
        out.set(key, { type: "file", mode: stat.mode, bytes: readFileSync(path).toString("base64") });
      }
    }
  };
  walk(root, "");
  return out;
}

// ---------------------------------------------------------------------------------------------
// Properties

void test("a random edit written as a patch applies to give exactly the edited file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-prop-"));
  let skipped = 0;
  let widened = 0;
  try {
    for (let i = 0; i < ITERATIONS; i++) {
      const seed = BASE_SEED + i;
      const rng = new Rng(seed);
      const counter = { n: 0 };
      const file = randomFile(rng, counter);
      const ops = randomEdit(rng, counter, file.lines.length);
      const hunk = writeChunks(rng, file.lines, ops, rng.int(1, 3));
      if (hunk === null) {
        skipped++;
        continue;
      }
      widened += hunk.widened;
      const patch = patchText([["*** Update File: f.txt", ...hunk.body]]);
      const expected = joinLines(applyEdit(file.lines, ops), file.eol, file.finalNewline);
      const why = describe(seed, file.content, patch);

      const pure = applyChunks(file.content, updateChunks(patch), "f.txt");
      assert.equal(pure.content, expected, `applyChunks: ${why}`);

      writeFileSync(join(dir, "f.txt"), file.content);
      const result = await applyPatchInDirectory(patch, dir);
      assert.deepEqual(result, { ok: true, stdout: "Success. Updated the following files:\nM f.txt\n", stderr: "" }, why);
      assert.equal(readFileSync(join(dir, "f.txt"), "utf8"), expected, `applyPatchInDirectory: ${why}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Skips are cases where even widened context could not pin a chunk down: they must stay rare.
  assert.ok(skipped <= ITERATIONS * 0.05, `${skipped} of ${ITERATIONS} cases skipped as ambiguous (${widened} chunks widened)`);
});

void test("a multi-file patch with a chunk that cannot be found changes nothing", async () => {
  for (let i = 0; i < ITERATIONS; i++) {
    const seed = BASE_SEED + 100_000 + i;
    const rng = new Rng(seed);
    const counter = { n: 0 };
    const dir = mkdtempSync(join(tmpdir(), "codex-ts-prop-"));
    try {
      // Files the patch works on, plus bystanders it never names (some in subdirectories).
      const fileCount = rng.int(2, 5);
      const files = Array.from({ length: fileCount }, (_, k) => (k % 2 === 0 ? `f${k}.txt` : `sub/f${k}.txt`));
      const contents = new Map<string, RandomFile>();
      mkdirSync(join(dir, "sub"));
      for (const rel of [...files, "bystander.txt", "sub/bystander.txt"]) {
        const file = randomFile(rng, counter, 30);
        contents.set(rel, file);
        writeFileSync(join(dir, rel), file.content);
      }
      chmodSync(join(dir, files[0] as string), 0o755);

      // Roles: the last file is the failing update; one other file moves; the rest are updated
      // or deleted; a few adds (some into new directories, some overwriting a bystander).
      const [failing, ...others] = [files[files.length - 1] as string, ...rng.shuffle(files.slice(0, -1))];
      const sections: string[][] = [];
      const validUpdate = (rel: string): string[] => {
        const file = contents.get(rel) as RandomFile;
        for (;;) {
          const hunk = writeChunks(rng, file.lines, randomEdit(rng, counter, file.lines.length), rng.int(1, 3));
          if (hunk !== null) return hunk.body;
        }
      };
      others.forEach((rel, k) => {
        if (k === 0) {
          const target = rng.pick(["moved/deep/x.txt", "bystander.txt", `moved-${k}.txt`]);
          sections.push([`*** Update File: ${rel}`, `*** Move to: ${target}`, ...validUpdate(rel)]);
        } else if (rng.chance(0.5)) {
          sections.push([`*** Update File: ${rel}`, ...validUpdate(rel)]);
        } else {
          sections.push([`*** Delete File: ${rel}`]);
        }
      });
      for (let k = rng.int(0, 2); k > 0; k--) {
        const target = rng.pick(["added/new/a.txt", "sub/bystander.txt", `added-${k}.txt`, `sub/new-${k}.txt`]);
        sections.splice(rng.int(0, sections.length), 0, [`*** Add File: ${target}`, "+added", `+line ${k}`]);
      }

      // The failing update: valid chunks around one whose old lines are nowhere in the file.
      const file = contents.get(failing) as RandomFile;
      const valid = validUpdate(failing);
      const missing = ["@@", ...(file.lines.length > 0 ? [` ${rng.pick(file.lines)}`] : []), `-no-such-line-${rng.int(0, 1e6)}`, "+replacement"];
      const body = rng.chance(0.5) ? [...valid, ...missing] : [...missing, ...valid];
      // Adds and deletes may follow it, but no other update.
      const lastUpdate = sections.map((s) => (s[0] ?? "").startsWith("*** Update File")).lastIndexOf(true);
      const at = rng.int(lastUpdate + 1, sections.length);
      sections.splice(at, 0, [`*** Update File: ${failing}`, ...body]);

      const patch = patchText(sections);
      const why = `seed ${seed}\n--- patch\n${patch}`;
      const before = snapshot(dir);
      const result = await applyPatchInDirectory(patch, dir);
      assert.equal(result.ok, false, why);
      assert.equal(result.stdout, "", why);
      const firstLine = result.stderr.split("\n")[0] ?? "";
      assert.ok(result.stderr.startsWith("Failed to find expected lines in "), `${why}\n--- stderr\n${result.stderr}`);
      const named = firstLine.slice("Failed to find expected lines in ".length).replace(/:$/, "");
      assert.ok(named === failing || named === resolve(dir, failing), `stderr names ${named}, not ${failing}: ${why}`);
      assert.deepEqual(snapshot(dir), before, `directory changed: ${why}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

/** Splits text into lines that keep their `\n` (or `\r\n`); the last may have none. */
function linesWithEndings(text: string): string[] {
  const out = text.split(/(?<=\n)/);
  if (out[out.length - 1] === "") out.pop();
  return out;
}

function checkRegions(oldText: string, newText: string, regions: readonly ChangedRegion[], why: string): void {
  const before = linesWithEndings(oldText);
  const after = linesWithEndings(newText);
  let oldPos = 0;
  let newPos = 0;
  const checkGap = (oldEnd: number, newEnd: number): void => {
    assert.equal(oldEnd - oldPos, newEnd - newPos, `gap before old line ${oldEnd} differs in length: ${why}`);
    for (let k = 0; k < oldEnd - oldPos; k++) {
      assert.equal(after[newPos + k], before[oldPos + k], `old line ${oldPos + k} / new line ${newPos + k} outside the regions differ: ${why}`);
    }
  };
  for (const r of regions) {
    const where = `${JSON.stringify(r)} in ${JSON.stringify(regions)}: ${why}`;
    assert.ok(r.oldStart >= oldPos && r.newStart >= newPos, `regions unsorted or overlapping at ${where}`);
    assert.ok(r.oldEnd >= r.oldStart && r.newEnd >= r.newStart, `inverted region ${where}`);
    assert.ok(r.oldEnd <= before.length && r.newEnd <= after.length, `region out of bounds ${where}`);
    checkGap(r.oldStart, r.newStart);
    oldPos = r.oldEnd;
    newPos = r.newEnd;
  }
  checkGap(before.length, after.length);
}

/** Trailing spaces, a stripped indent or a typographic dash: what models get wrong in context. */
function blur(rng: Rng, line: string): string {
  const roll = rng.next();
  if (roll < 0.1) return `${line}  `;
  if (roll < 0.15) return line.trim();
  if (roll < 0.2) return line.replace("-", "\u2013");
  return line;
}

void test("the regions applyChunks reports are truthful", () => {
  let failedToApply = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const seed = BASE_SEED + 200_000 + i;
    const rng = new Rng(seed);
    const counter = { n: 0 };
    const file = randomFile(rng, counter);
    // Mixed line endings and a blurred copy of the context exercise ending fix-ups and fuzzy matches.
    let content = file.content;
    if (rng.chance(0.3) && file.lines.length > 1) {
      content = file.lines.map((l, k) => l + (k < file.lines.length - 1 || file.finalNewline ? rng.pick(["\n", "\r\n"]) : "")).join("");
    }
    const ops = randomEdit(rng, counter, file.lines.length);
    const hunk = writeChunks(rng, file.lines, ops, rng.int(1, 3)) ?? { body: [] };
    if (hunk.body.length === 0) continue;
    const fuzzy = rng.chance(0.3);
    const body = hunk.body.map((l) => (fuzzy && (l.startsWith(" ") || l.startsWith("-")) ? l[0] + blur(rng, l.slice(1)) : l));
    const patch = patchText([["*** Update File: f.txt", ...body]]);
    const why = describe(seed, content, patch);
    let result: FileUpdate;
    try {
      result = applyChunks(content, updateChunks(patch), "f.txt");
    } catch {
      failedToApply++;
      continue;
    }
    checkRegions(content, result.content, result.regions, `${why}\n--- result ${JSON.stringify(result.content)}`);
  }
  assert.ok(failedToApply <= ITERATIONS * 0.05, `${failedToApply} of ${ITERATIONS} patches failed to apply`);
});

// Regression for a case the region property found (seeds 20440828, 200227, 201148, …): a file
// without a final newline whose patch ends the file with an empty line. The content comes out
// as "a\n" (one line); the regions once counted the vanished empty line as a second new line,
// running past the end of the new text, so unifiedDiff fell back to diffing the whole file.
void test("regions never count an empty last line that the unterminated new text does not have", () => {
  const patch = patchText([["*** Update File: f.txt", "@@", " a", "+"]]);
  const result = applyChunks("a", updateChunks(patch), "f.txt");
  assert.equal(result.content, "a\n");
  checkRegions("a", result.content, result.regions, `regions ${JSON.stringify(result.regions)}`);
});

void test("the exact path on bytes gives what the line-by-line path gives, whenever it takes a case", () => {
  let taken = 0;
  let lfOnly = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const seed = BASE_SEED + 300_000 + i;
    const rng = new Rng(seed);
    const counter = { n: 0 };
    const file = randomFile(rng, counter);
    const ops = randomEdit(rng, counter, file.lines.length);
    const hunk = writeChunks(rng, file.lines, ops, rng.int(1, 3));
    if (hunk === null) continue;
    // Multi-byte characters in half the cases: offsets in bytes and in characters then differ.
    const wide = rng.chance(0.5) ? (t: string): string => t.replaceAll("line-", "lïne✓-").replaceAll("new-", "nëw€-") : (t: string): string => t;
    const fuzzy = rng.chance(0.2);
    const body = hunk.body.map((l) => wide(fuzzy && (l.startsWith(" ") || l.startsWith("-")) ? l[0] + blur(rng, l.slice(1)) : l));
    const content = wide(file.content);
    const patch = patchText([["*** Update File: f.txt", ...body]]);
    const chunks = updateChunks(patch);
    if (!content.includes("\r")) lfOnly++;
    const exact = applyChunksToBytes(Buffer.from(content, "utf8"), chunks);
    if (exact === null) continue;
    taken++;
    const why = describe(seed, content, patch);
    const byLine = applyChunksByLine(content, chunks, "f.txt");
    assert.equal(Buffer.concat(exact.parts).toString("utf8"), byLine.content, why);
    assert.deepEqual(exact.regions, byLine.regions, why);
  }
  // The exact path must really carry the common case, or this test proves nothing.
  assert.ok(taken >= lfOnly * 0.5, `the exact path took ${taken} of ${lfOnly} LF-only cases`);
});
