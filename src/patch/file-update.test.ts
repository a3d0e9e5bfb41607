import { test } from "node:test";
import assert from "node:assert/strict";
import { ChunkNotFoundError, applyChunks } from "./file-update.js";
import type { UpdateChunk } from "./types.js";

const chunk = (oldLines: string[], newLines: string[], changeContext: string | null = null, isEndOfFile = false): UpdateChunk => ({
  changeContext,
  oldLines,
  newLines,
  isEndOfFile,
});
const apply = (original: string, ...chunks: UpdateChunk[]): string => applyChunks(original, chunks, "/w/f.txt").content;

void test("replaces, deletes and keeps chunks in order", () => {
  assert.equal(apply("foo\nbar\n", chunk(["foo", "bar"], ["foo", "baz"])), "foo\nbaz\n");
  assert.equal(apply("foo\nbar\nbaz\nqux\n", chunk(["foo", "bar"], ["foo", "BAR"]), chunk(["baz", "qux"], ["baz", "QUX"])), "foo\nBAR\nbaz\nQUX\n");
  assert.equal(apply("a\nb\nc\n", chunk(["b"], [])), "a\nc\n");
});

void test("the @@ context line picks between identical blocks", () => {
  const file = "class A:\n    def f():\n        pass\nclass B:\n    def f():\n        pass\n";
  const out = apply(file, chunk(["    def f():", "        pass"], ["    def f():", "        return 1"], "class B:"));
  assert.equal(out, "class A:\n    def f():\n        pass\nclass B:\n    def f():\n        return 1\n");
});

void test("a chunk that only adds lines appends at the end, before a final blank line", () => {
  assert.equal(apply("a\nb\n", chunk([], ["c"])), "a\nb\nc\n");
  assert.equal(apply("a\n\n", chunk([], ["c"])), "a\nc\n\n");
  assert.equal(apply("", chunk([], ["first", "second"])), "first\nsecond\n");
});

void test("End of File anchors the chunk at the last lines", () => {
  assert.equal(apply("x\ny\nx\n", chunk(["x"], ["z"], null, true)), "x\ny\nz\n");
});

void test("a trailing empty line in the chunk may stand for the final newline", () => {
  assert.equal(apply("a\nb\n", chunk(["b", ""], ["B", ""])), "a\nB\n");
});

void test("CRLF files stay CRLF, including the lines the patch adds", () => {
  assert.equal(apply("one\r\ntwo\r\nthree\r\n", chunk(["two"], ["2", "2.5"])), "one\r\n2\r\n2.5\r\nthree\r\n");
  // A mixed file keeps each untouched line's own ending; new lines take the first line's.
  assert.equal(apply("a\r\nb\nc\r\n", chunk(["c"], ["C"])), "a\r\nb\nC\r\n");
});

void test("a file without a final newline keeps that state", () => {
  assert.equal(apply("a\nb", chunk(["b"], ["B"])), "a\nB");
  assert.equal(apply("a\nb", chunk(["a"], ["A"])), "A\nb");
  assert.equal(apply("a\nb", chunk([], ["c"])), "a\nb\nc");
  assert.equal(apply("a\nb\n", chunk(["b"], [])), "a\n");
  assert.equal(apply("a\nb", chunk(["b"], [])), "a");
});

void test("an empty file takes added lines", () => {
  assert.equal(apply("", chunk([], ["x"])), "x\n");
});

void test("regions describe exactly where old and new differ", () => {
  const { content, regions } = applyChunks("a\nb\nc\nd\ne\n", [chunk(["b"], ["B1", "B2"]), chunk(["d"], [])], "/w/f");
  assert.equal(content, "a\nB1\nB2\nc\ne\n");
  assert.deepEqual(regions, [
    { oldStart: 1, oldEnd: 2, newStart: 1, newEnd: 3 },
    { oldStart: 3, oldEnd: 4, newStart: 4, newEnd: 4 },
  ]);
  // A line whose ending changes counts as changed.
  assert.deepEqual(applyChunks("a\nb", [chunk([], ["c"])], "/w/f").regions, [{ oldStart: 1, oldEnd: 2, newStart: 1, newEnd: 3 }]);
});

void test("errors name the file and the lines that could not be found", () => {
  assert.throws(
    () => apply("a\nb\n", chunk(["x", "y"], ["z"])),
    (err: unknown) => err instanceof ChunkNotFoundError && err.message === "Failed to find expected lines in /w/f.txt:\nx\ny",
  );
  assert.throws(() => apply("a\nb\n", chunk(["a"], ["z"], "class Missing")), {
    message: "Failed to find context 'class Missing' in /w/f.txt",
  });
  // Chunks must come in file order: the second one is searched after the first.
  assert.throws(() => apply("a\nb\n", chunk(["b"], ["B"]), chunk(["a"], ["A"])), /Failed to find expected lines/);
});

void test("context lines stay byte for byte as the file has them, even when they matched a tolerant tier", () => {
  // The file's context lines have trailing spaces, a tab and typographic punctuation; the patch's do not.
  const original = "alpha   \n\tbeta – “quoted”\nold line\ngamma\r\n";
  const chunk: UpdateChunk = {
    changeContext: null,
    oldLines: ["alpha", "\tbeta - \"quoted\"", "old line", "gamma"],
    newLines: ["alpha", "\tbeta - \"quoted\"", "new line", "gamma"],
    isEndOfFile: false,
  };
  const { content } = applyChunks(original, [chunk], "f.txt");
  assert.equal(content, "alpha   \n\tbeta – “quoted”\nnew line\ngamma\r\n");
});

void test("a removed line that equals a kept one elsewhere does not confuse which lines are context", () => {
  const original = "x  \ny\nx  \nz\n";
  const chunk: UpdateChunk = { changeContext: null, oldLines: ["x", "y", "x", "z"], newLines: ["x", "z"], isEndOfFile: false };
  assert.equal(applyChunks(original, [chunk], "f.txt").content, "x  \nz\n");
});
