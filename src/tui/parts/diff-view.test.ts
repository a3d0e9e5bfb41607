import { test } from "node:test";
import assert from "node:assert/strict";
import type { FileChange } from "../../protocol/events.js";
import { changeCounts, displayPath, renderChanges, renderFileChange, summarize } from "./diff-view.js";
import { createTheme, setTheme, stripAnsi } from "./theme.js";

setTheme(createTheme(1));

const UPDATE: FileChange = {
  type: "update",
  move_path: null,
  unified_diff: ["@@ -1,3 +1,3 @@", " one", "-two", "+TWO", " three", "@@ -10,2 +10,3 @@", " ten", "+ten and a half", " eleven", ""].join("\n"),
};

void test("an update: header with counts, numbered lines, hunks separated", () => {
  const lines = renderFileChange("/repo/src/a.ts", UPDATE, 40, { cwd: "/repo" }).map(stripAnsi);
  assert.deepEqual(lines, [
    "src/a.ts (+2 -1)",
    " 1  one",
    " 2 -two",
    " 2 +TWO",
    " 3  three",
    " ⋮",
    "10  ten",
    "11 +ten and a half",
    "12  eleven",
  ]);
});

void test("added and deleted files, and a move", () => {
  assert.deepEqual(renderFileChange("/repo/new.txt", { type: "add", content: "a\nb\n" }, 40, { cwd: "/repo" }).map(stripAnsi), [
    "new.txt (new) (+2 -0)",
    "1 +a",
    "2 +b",
  ]);
  assert.deepEqual(renderFileChange("/elsewhere/old.txt", { type: "delete", content: "x\n" }, 40, { cwd: "/repo" }).map(stripAnsi), [
    "/elsewhere/old.txt (deleted) (+0 -1)",
    "1 -x",
  ]);
  const moved: FileChange = { type: "update", move_path: "/repo/b.ts", unified_diff: "@@ -1 +1 @@\n-x\n+y\n" };
  assert.equal(stripAnsi(renderFileChange("/repo/a.ts", moved, 40, { cwd: "/repo" })[0] ?? ""), "a.ts → b.ts (+1 -1)");
});

void test("long lines wrap under the gutter; tabs become spaces; wide characters count double", () => {
  const change: FileChange = { type: "add", content: `${"abcdefghij".repeat(2)}\n\tx\n${"漢".repeat(6)}\n` };
  const lines = renderFileChange("f", change, 14).map(stripAnsi);
  assert.deepEqual(lines, ["f (new) (+3 -0)", "1 +abcdefghija", "   bcdefghij", "2 +    x", "3 +漢漢漢漢漢", "   漢"]);
  for (const l of lines.slice(1)) assert.ok(l.length <= 14);
});

void test("maxLines counts what it leaves out", () => {
  const change: FileChange = { type: "add", content: Array.from({ length: 10 }, (_, i) => `l${i}`).join("\n") };
  const lines = renderFileChange("f", change, 40, { maxLines: 3 }).map(stripAnsi);
  assert.deepEqual(lines.slice(1), [" 1 +l0", " 2 +l1", " 3 +l2", "   … 7 more lines"]);
});

void test("the summary header counts files and lines; colours mark added and removed lines", () => {
  const changes: Record<string, FileChange> = { "/r/a.ts": UPDATE, "/r/n.md": { type: "add", content: "hi\n" } };
  assert.deepEqual(summarize(changes), { files: 2, added: 3, removed: 1 });
  const lines = renderChanges(changes, 60, { cwd: "/r" });
  assert.equal(stripAnsi(lines[0] ?? ""), "Edited 2 files (+3 -1)");
  assert.equal(stripAnsi(lines[1] ?? ""), "  └ a.ts (+2 -1)");
  assert.ok(lines.some((l) => l.includes("\u001b[32m+TWO")));
  assert.ok(lines.some((l) => l.includes("\u001b[31m-two")));
  assert.equal(stripAnsi(renderChanges({ "/r/x": { type: "delete", content: "" } }, 60, { verb: "Proposed" })[0] ?? ""), "Proposed 1 file (+0 -0)");
});

void test("counts ignore file headers and the no-newline marker", () => {
  const change: FileChange = { type: "update", move_path: null, unified_diff: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n" };
  assert.deepEqual(changeCounts(change), { added: 1, removed: 1 });
  assert.deepEqual(renderFileChange("x", change, 30).map(stripAnsi).slice(1), ["1 -a", "1 +b"]);
  assert.equal(displayPath("/a/b", "/a/b"), "/a/b");
  assert.equal(displayPath("rel/p", "/a"), "rel/p");
});
