import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch } from "diff";
import type { ChangedRegion } from "./types.js";
import { unifiedDiff } from "./unified-diff.js";

function lines(count: number, label = "line"): string[] {
  return Array.from({ length: count }, (_, i) => `${label} ${i + 1}\n`);
}

void test("equal texts give an empty diff", () => {
  assert.equal(unifiedDiff("a\nb\n", "a\nb\n", { context: 3 }), "");
  assert.equal(unifiedDiff("", "", { context: 3, header: { old: "a", new: "b" } }), "");
});

void test("a modified line with one line of context", () => {
  assert.equal(unifiedDiff("foo\nbar\n", "foo\nbaz\n", { context: 1 }), "@@ -1,2 +1,2 @@\n foo\n-bar\n+baz\n");
});

void test("adding to an empty file names line 0", () => {
  assert.equal(unifiedDiff("", "hi\n", { context: 3 }), "@@ -0,0 +1 @@\n+hi\n");
  assert.equal(unifiedDiff("", "a\nb\n", { context: 3 }), "@@ -0,0 +1,2 @@\n+a\n+b\n");
});

void test("deleting everything", () => {
  assert.equal(unifiedDiff("a\nb\n", "", { context: 3 }), "@@ -1,2 +0,0 @@\n-a\n-b\n");
});

void test("a missing final newline is marked on either side", () => {
  assert.equal(
    unifiedDiff("a\nb", "a\nc\n", { context: 3 }),
    "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n",
  );
  assert.equal(unifiedDiff("a\n", "a", { context: 3 }), "@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n");
  assert.equal(
    unifiedDiff("x\nend", "y\nend", { context: 3 }),
    "@@ -1,2 +1,2 @@\n-x\n+y\n end\n\\ No newline at end of file\n",
  );
});

void test("CRLF lines keep their carriage return", () => {
  assert.equal(unifiedDiff("a\r\nb\r\n", "a\r\nc\r\n", { context: 1 }), "@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n");
});

void test("the header comes first and only when there is a change", () => {
  const header = { old: "a/f.txt", new: "b/f.txt" };
  assert.equal(unifiedDiff("x\n", "y\n", { context: 3, header }), "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-x\n+y\n");
});

void test("far-apart changes make two hunks", () => {
  const before = lines(20);
  const after = [...before];
  after[1] = "changed 2\n";
  after[17] = "changed 18\n";
  const diff = unifiedDiff(before.join(""), after.join(""), { context: 3 });
  const headers = diff.split("\n").filter((l) => l.startsWith("@@"));
  assert.deepEqual(headers, ["@@ -1,5 +1,5 @@", "@@ -15,6 +15,6 @@"]);
});

void test("changes at most 2*context lines apart share a hunk", () => {
  const hunkHeaders = (a: number, b: number): string[] => {
    const before = lines(20);
    const after = [...before];
    after[a - 1] = "x\n";
    after[b - 1] = "y\n";
    return unifiedDiff(before.join(""), after.join(""), { context: 3 })
      .split("\n")
      .filter((l) => l.startsWith("@@"));
  };
  // Six unchanged lines between them: one hunk.
  assert.deepEqual(hunkHeaders(5, 12), ["@@ -2,14 +2,14 @@"]);
  // Seven: two hunks.
  assert.deepEqual(hunkHeaders(5, 13), ["@@ -2,7 +2,7 @@", "@@ -10,7 +10,7 @@"]);
});

void test("ranges of length one drop the length, empty ranges name the line before", () => {
  const before = "a\nb\nc\nd\ne\n";
  assert.equal(unifiedDiff(before, "a\nb\nx\nc\nd\ne\n", { context: 0 }), "@@ -2,0 +3 @@\n+x\n");
  assert.equal(unifiedDiff(before, "a\nb\nd\ne\n", { context: 0 }), "@@ -3 +2,0 @@\n-c\n");
  assert.equal(unifiedDiff(before, "a\nb\nC\nD\ne\n", { context: 0 }), "@@ -3,2 +3,2 @@\n-c\n-d\n+C\n+D\n");
});

void test("removals print before additions within a block", () => {
  assert.equal(unifiedDiff("a\nb\n", "c\nd\n", { context: 3 }), "@@ -1,2 +1,2 @@\n-a\n-b\n+c\n+d\n");
});

void test("regions give the same diff as diffing the whole file", () => {
  const before = lines(40);
  const after = [...before];
  after.splice(9, 1, "ten\n", "ten and a half\n");
  after.splice(31, 2);
  const regions: ChangedRegion[] = [
    { oldStart: 9, oldEnd: 10, newStart: 9, newEnd: 11 },
    { oldStart: 30, oldEnd: 32, newStart: 31, newEnd: 31 },
  ];
  for (const context of [0, 1, 3, 10]) {
    const whole = unifiedDiff(before.join(""), after.join(""), { context });
    assert.equal(unifiedDiff(before.join(""), after.join(""), { context, regions }), whole);
  }
});

void test("regions that miss a changed final newline still give a correct diff", () => {
  const regions: ChangedRegion[] = [{ oldStart: 0, oldEnd: 1, newStart: 0, newEnd: 1 }];
  const expected = unifiedDiff("a\nb\nc", "A\nb\nc\n", { context: 3 });
  assert.equal(unifiedDiff("a\nb\nc", "A\nb\nc\n", { context: 3, regions }), expected);
  // Appending after a last line that had no newline gives that line one, outside any region.
  const appended: ChangedRegion[] = [{ oldStart: 2, oldEnd: 2, newStart: 2, newEnd: 3 }];
  assert.equal(
    unifiedDiff("a\nb", "a\nb\nc\n", { context: 3, regions: appended }),
    "@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n",
  );
});

void test("regions inconsistent with the texts are ignored", () => {
  const regions: ChangedRegion[] = [{ oldStart: 5, oldEnd: 9, newStart: 2, newEnd: 3 }];
  assert.equal(unifiedDiff("foo\nbar\n", "foo\nbaz\n", { context: 1, regions }), "@@ -1,2 +1,2 @@\n foo\n-bar\n+baz\n");
});

/** Small deterministic PRNG so a failing case can be reproduced. */
function prng(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) | 0;
  };
}

interface EditCase {
  before: string;
  after: string;
  regions: ChangedRegion[];
}

/** Random old lines, random edits over them, and the regions those edits cover. */
function randomEdit(rand: (n: number) => number): EditCase {
  const word = (): string => "abc"[rand(3)] ?? "a";
  const oldLines = Array.from({ length: rand(12) }, word);
  const newLines: string[] = [];
  const regions: ChangedRegion[] = [];
  let i = 0;
  while (i <= oldLines.length) {
    if (rand(3) === 0) {
      const removed = Math.min(rand(4), oldLines.length - i);
      const added = Array.from({ length: rand(4) }, word);
      if (removed + added.length > 0) {
        regions.push({ oldStart: i, oldEnd: i + removed, newStart: newLines.length, newEnd: newLines.length + added.length });
        newLines.push(...added);
        i += removed;
      }
    }
    if (i < oldLines.length) newLines.push(oldLines[i] ?? "");
    i++;
  }
  // Regions are in terms of line contents, as the patch engine sees them: a last line that only
  // gains or loses its newline is left for unifiedDiff to notice.
  const oldNewline = rand(2) === 0;
  const newNewline = rand(2) === 0;
  const join = (ls: string[], newline: boolean): string => ls.join("\n") + (newline && ls.length > 0 ? "\n" : "");
  return { before: join(oldLines, oldNewline), after: join(newLines, newNewline), regions };
}

function applies(before: string, after: string, diff: string): boolean {
  if (diff === "") return before === after;
  return applyPatch(before, `--- a\n+++ b\n${diff}`) === after;
}

void test("random edits: diffs with and without regions both apply", () => {
  const rand = prng(20240611);
  for (let n = 0; n < 200; n++) {
    const { before, after, regions } = randomEdit(rand);
    const context = rand(4);
    const plain = unifiedDiff(before, after, { context });
    const windowed = unifiedDiff(before, after, { context, regions });
    const label = JSON.stringify({ n, before, after, regions, context });
    assert.ok(applies(before, after, plain), `plain diff does not apply: ${label}\n${plain}`);
    assert.ok(applies(before, after, windowed), `windowed diff does not apply: ${label}\n${windowed}`);
  }
});

void test("performance: 200,000 lines with 2,000 scattered edits", () => {
  const before = lines(200_000);
  const after = [...before];
  const regions: ChangedRegion[] = [];
  for (let k = 0; k < 2_000; k++) {
    const at = k * 100 + 50;
    after[at] = `edited ${at}\n`;
    regions.push({ oldStart: at, oldEnd: at + 1, newStart: at, newEnd: at + 1 });
  }
  const oldText = before.join("");
  const newText = after.join("");
  const start = performance.now();
  const diff = unifiedDiff(oldText, newText, { context: 3, regions });
  const elapsed = performance.now() - start;
  console.log(`unifiedDiff with regions, 200,000 lines / 2,000 edits: ${elapsed.toFixed(1)} ms`);
  assert.equal(diff.split("\n").filter((l) => l.startsWith("@@")).length, 2_000);
  assert.ok(applies(oldText, newText, diff));
});
