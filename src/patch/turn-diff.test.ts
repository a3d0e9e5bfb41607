import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { ChangedRegion, PlannedChange } from "./types.js";
import { TurnDiffTracker } from "./turn-diff.js";

const ROOT = "/work/repo";
const ZERO_OID = "0".repeat(40);

function at(name: string): string {
  return `${ROOT}/${name}`;
}

function oid(content: string): string {
  return createHash("sha1").update(`blob ${Buffer.byteLength(content)}\0${content}`).digest("hex");
}

const base = { displayPath: "", movePath: null, moveDisplayPath: null, overwrittenContent: null, regions: null };

function add(file: string, content: string, overwritten: string | null = null): PlannedChange {
  return { ...base, kind: "add", path: file, oldContent: null, newContent: content, overwrittenContent: overwritten };
}

function remove(file: string, content: string): PlannedChange {
  return { ...base, kind: "delete", path: file, oldContent: content, newContent: null };
}

function update(
  file: string,
  oldContent: string,
  newContent: string,
  extra: { movePath?: string; overwritten?: string; regions?: ChangedRegion[] } = {},
): PlannedChange {
  return {
    ...base,
    kind: "update",
    path: file,
    oldContent,
    newContent,
    movePath: extra.movePath ?? null,
    overwrittenContent: extra.overwritten ?? null,
    regions: extra.regions ?? null,
  };
}

function diffOf(...patches: PlannedChange[][]): string | null {
  const tracker = new TurnDiffTracker(ROOT);
  for (const changes of patches) tracker.track(changes);
  return tracker.unifiedDiff();
}

void test("nothing tracked means no diff", () => {
  assert.equal(new TurnDiffTracker(ROOT).unifiedDiff(), null);
});

void test("an added file", () => {
  assert.equal(oid("hi\n"), "45b983be36b73c0788dc9cbcb76cbb80fc7bb057");
  assert.equal(
    diffOf([add(at("a.txt"), "hi\n")]),
    "diff --git a/a.txt b/a.txt\n" +
      "new file mode 100644\n" +
      `index ${ZERO_OID}..45b983be36b73c0788dc9cbcb76cbb80fc7bb057\n` +
      "--- /dev/null\n" +
      "+++ b/a.txt\n" +
      "@@ -0,0 +1 @@\n" +
      "+hi\n",
  );
});

void test("an added empty file has a header but no hunk", () => {
  assert.equal(
    diffOf([add(at("empty"), "")]),
    `diff --git a/empty b/empty\nnew file mode 100644\nindex ${ZERO_OID}..e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\n`,
  );
});

void test("a deleted file", () => {
  assert.equal(
    diffOf([remove(at("a.txt"), "hi\n")]),
    "diff --git a/a.txt b/a.txt\n" +
      "deleted file mode 100644\n" +
      `index 45b983be36b73c0788dc9cbcb76cbb80fc7bb057..${ZERO_OID}\n` +
      "--- a/a.txt\n" +
      "+++ /dev/null\n" +
      "@@ -1 +0,0 @@\n" +
      "-hi\n",
  );
});

void test("an updated file", () => {
  const before = "a\nb\nc\n";
  const after = "a\nB\nc\n";
  assert.equal(
    diffOf([update(at("src/f.ts"), before, after)]),
    "diff --git a/src/f.ts b/src/f.ts\n" +
      `index ${oid(before)}..${oid(after)}\n` +
      "--- a/src/f.ts\n" +
      "+++ b/src/f.ts\n" +
      "@@ -1,3 +1,3 @@\n" +
      " a\n" +
      "-b\n" +
      "+B\n" +
      " c\n",
  );
});

void test("an update's regions give the same diff as diffing the contents", () => {
  const before = Array.from({ length: 50 }, (_, i) => `line ${i}\n`);
  const after = [...before];
  after[10] = "ten\n";
  after[40] = "forty\n";
  const regions: ChangedRegion[] = [
    { oldStart: 10, oldEnd: 11, newStart: 10, newEnd: 11 },
    { oldStart: 40, oldEnd: 41, newStart: 40, newEnd: 41 },
  ];
  const withRegions = diffOf([update(at("f"), before.join(""), after.join(""), { regions })]);
  assert.equal(withRegions, diffOf([update(at("f"), before.join(""), after.join(""))]));
  assert.equal(withRegions?.split("\n").filter((l) => l.startsWith("@@")).length, 2);
});

void test("two updates diff from the first one's baseline, ignoring the later regions", () => {
  const first = "1\n2\n3\n";
  const second = "one\n2\n3\n";
  const third = "one\n2\nthree\n";
  const diff = diffOf(
    [update(at("f"), first, second, { regions: [{ oldStart: 0, oldEnd: 1, newStart: 0, newEnd: 1 }] })],
    [update(at("f"), second, third, { regions: [{ oldStart: 2, oldEnd: 3, newStart: 2, newEnd: 3 }] })],
  );
  assert.equal(
    diff,
    `diff --git a/f b/f\nindex ${oid(first)}..${oid(third)}\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-1\n+one\n 2\n-3\n+three\n`,
  );
});

void test("a move with an edit is one diff from the old path to the new", () => {
  const before = "x\ny\n";
  const after = "x\nz\n";
  assert.equal(
    diffOf([update(at("old.txt"), before, after, { movePath: at("dir/new.txt") })]),
    "diff --git a/old.txt b/dir/new.txt\n" +
      `index ${oid(before)}..${oid(after)}\n` +
      "--- a/old.txt\n" +
      "+++ b/dir/new.txt\n" +
      "@@ -1,2 +1,2 @@\n" +
      " x\n" +
      "-y\n" +
      "+z\n",
  );
});

void test("a move without an edit shows nothing, and moving back leaves no trace", () => {
  assert.equal(diffOf([update(at("a"), "same\n", "same\n", { movePath: at("b") })]), null);
  const there = update(at("a"), "v1\n", "v2\n", { movePath: at("b") });
  const back = update(at("b"), "v2\n", "v1\n", { movePath: at("a") });
  assert.equal(diffOf([there], [back]), null);
});

void test("a move onto an existing file diffs the overwritten file and deletes the source", () => {
  const diff = diffOf([update(at("a"), "from a\n", "from a!\n", { movePath: at("b"), overwritten: "old b\n" })]);
  assert.equal(
    diff,
    "diff --git a/a b/a\n" +
      "deleted file mode 100644\n" +
      `index ${oid("from a\n")}..${ZERO_OID}\n` +
      "--- a/a\n+++ /dev/null\n@@ -1 +0,0 @@\n-from a\n" +
      "diff --git a/b b/b\n" +
      `index ${oid("old b\n")}..${oid("from a!\n")}\n` +
      "--- a/b\n+++ b/b\n@@ -1 +1 @@\n-old b\n+from a!\n",
  );
});

void test("a file added then deleted in the same turn leaves no diff", () => {
  assert.equal(diffOf([add(at("tmp.txt"), "scratch\n")], [remove(at("tmp.txt"), "scratch\n")]), null);
});

void test("an add over an existing file is a modification", () => {
  assert.equal(
    diffOf([add(at("a"), "new\n", "old\n")]),
    `diff --git a/a b/a\nindex ${oid("old\n")}..${oid("new\n")}\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-old\n+new\n`,
  );
});

void test("paths outside the display root stay absolute", () => {
  const diff = diffOf([add("/elsewhere/x.txt", "x\n")]) ?? "";
  assert.ok(diff.startsWith("diff --git a//elsewhere/x.txt b//elsewhere/x.txt\n"));
  assert.ok(diff.includes("+++ b//elsewhere/x.txt\n"));
  // A sibling whose name merely starts with the root's is outside it too.
  assert.ok(diffOf([add(`${ROOT}-other/y`, "y\n")])?.startsWith(`diff --git a/${ROOT}-other/y b/${ROOT}-other/y\n`));
});

void test("files are listed in order of their shown path", () => {
  const diff = diffOf([add(at("z.txt"), "z\n"), add(at("sub/m.txt"), "m\n")], [add(at("a.txt"), "a\n"), add(at("B.txt"), "b\n")]);
  const files = (diff ?? "").split("\n").filter((l) => l.startsWith("diff --git"));
  assert.deepEqual(files, [
    "diff --git a/B.txt b/B.txt",
    "diff --git a/a.txt b/a.txt",
    "diff --git a/sub/m.txt b/sub/m.txt",
    "diff --git a/z.txt b/z.txt",
  ]);
});

void test("each file's section ends with a newline, even without a final newline in the file", () => {
  const diff = diffOf([add(at("a"), "no newline"), add(at("b"), "x\n")]);
  assert.ok(diff?.includes("+no newline\n\\ No newline at end of file\ndiff --git a/b b/b\n"));
});
