import { test } from "node:test";
import assert from "node:assert/strict";
import { PatchParseError, isPatchText, parsePatch } from "./parser.js";
import type { Hunk } from "./types.js";

const wrap = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch`;
const hunks = (text: string): Hunk[] => parsePatch(text).hunks;

function parseError(text: string): PatchParseError {
  try {
    parsePatch(text);
  } catch (err) {
    assert.ok(err instanceof PatchParseError, `expected PatchParseError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected the patch to be rejected");
}

void test("add, delete and update with a move, in order", () => {
  const text = wrap(
    "*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123",
  );
  assert.deepEqual(hunks(text), [
    { kind: "add", path: "path/add.py", contents: "abc\ndef\n" },
    { kind: "delete", path: "path/delete.py" },
    {
      kind: "update",
      path: "path/update.py",
      movePath: "path/update2.py",
      chunks: [{ changeContext: "def f():", oldLines: ["    pass"], newLines: ["    return 123"], isEndOfFile: false }],
    },
  ]);
});

void test("an add file with an empty '+' line keeps the blank line", () => {
  assert.deepEqual(hunks(wrap("*** Add File: a.txt\n+one\n+\n+three")), [{ kind: "add", path: "a.txt", contents: "one\n\nthree\n" }]);
});

void test("an update followed by another hunk stops at the next header", () => {
  assert.deepEqual(hunks(wrap("*** Update File: file.py\n@@\n+line\n*** Add File: other.py\n+content")), [
    { kind: "update", path: "file.py", movePath: null, chunks: [{ changeContext: null, oldLines: [], newLines: ["line"], isEndOfFile: false }] },
    { kind: "add", path: "other.py", contents: "content\n" },
  ]);
});

void test("the first chunk may omit its @@ line", () => {
  assert.deepEqual(hunks(wrap("*** Update File: file2.py\n import foo\n+bar")), [
    {
      kind: "update",
      path: "file2.py",
      movePath: null,
      chunks: [{ changeContext: null, oldLines: ["import foo"], newLines: ["import foo", "bar"], isEndOfFile: false }],
    },
  ]);
});

void test("several chunks, empty context lines and End of File", () => {
  const text = wrap("*** Update File: f\n@@ class A\n a\n-b\n+B\n\n@@\n\n c\n-d\n*** End of File");
  const [hunk] = hunks(text);
  assert.ok(hunk?.kind === "update");
  assert.deepEqual(hunk.chunks, [
    // A completely empty line inside a chunk is an empty context line, even before the next @@.
    { changeContext: "class A", oldLines: ["a", "b", ""], newLines: ["a", "B", ""], isEndOfFile: false },
    { changeContext: null, oldLines: ["", "c", "d"], newLines: ["", "c"], isEndOfFile: true },
  ]);
});

void test("whitespace around markers, CRLF line breaks and a missing final newline are tolerated", () => {
  const padded = "  *** Begin Patch \r\n *** Add File: foo\r\n+hi\r\n *** End Patch  ";
  assert.deepEqual(hunks(padded), [{ kind: "add", path: "foo", contents: "hi\n" }]);
  assert.deepEqual(hunks("\n\n*** Begin Patch\n*** Delete File: x\n*** End Patch\n\n"), [{ kind: "delete", path: "x" }]);
});

void test("a heredoc wrapper left in the patch text is removed", () => {
  const inner = "*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch";
  for (const open of ["<<EOF", "<<'EOF'", '<<"EOF"']) {
    const parsed = parsePatch(`${open}\n${inner}\nEOF\n`);
    assert.equal(parsed.patch, inner);
    assert.equal(parsed.hunks.length, 1);
  }
  assert.equal(parseError(`<<"EOF'\n${inner}\nEOF\n`).message, "invalid patch: The first line of the patch must be '*** Begin Patch'");
  assert.equal(
    parseError("<<EOF\n*** Begin Patch\n*** Update File: file2.py\nEOF\n").message,
    "invalid patch: The last line of the patch must be '*** End Patch'",
  );
});

void test("a patch with no hunks parses (the caller decides what an empty patch means)", () => {
  assert.deepEqual(hunks("*** Begin Patch\n*** End Patch"), []);
});

void test("boundary errors use the reference's wording", () => {
  assert.equal(parseError("bad").message, "invalid patch: The first line of the patch must be '*** Begin Patch'");
  assert.equal(parseError("*** Begin Patch\nbad").message, "invalid patch: The last line of the patch must be '*** End Patch'");
  assert.equal(parseError("").message, "invalid patch: The last line of the patch must be '*** End Patch'");
  assert.equal(parseError("*** Begin Patch").message, "invalid patch: The last line of the patch must be '*** End Patch'");
  assert.equal(parseError("bad").cliMessage, "Invalid patch: The first line of the patch must be '*** Begin Patch'");
});

void test("hunk errors name the line and what was expected", () => {
  const header = parseError(wrap("*** Frobnicate File: x"));
  assert.equal(
    header.message,
    "invalid hunk at line 2, '*** Frobnicate File: x' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
  );
  assert.equal(header.lineNumber, 2);
  assert.match(header.cliMessage, /^Invalid patch hunk on line 2: '\*\*\* Frobnicate File: x' is not a valid hunk header/);

  assert.equal(parseError(wrap("*** Update File: test.py")).message, "invalid hunk at line 2, Update file hunk for path 'test.py' is empty");
  assert.equal(
    parseError(wrap("*** Add File: a\n+x\n*** Update File: b\n@@\n-y\nbad")).message,
    // "bad" ends the first chunk; a second chunk must then start with @@.
    "invalid hunk at line 7, Expected update hunk to start with a @@ context marker, got: 'bad'",
  );
  assert.equal(parseError(wrap("*** Update File: f\n@@")).message, "invalid hunk at line 4, Update hunk does not contain any lines");
  assert.equal(
    parseError(wrap("*** Update File: f\n@@\n*** End of File")).message,
    "invalid hunk at line 4, Update hunk does not contain any lines",
  );
  assert.equal(
    parseError(wrap("*** Update File: f\n@@\nbad")).message,
    "invalid hunk at line 4, Unexpected line found in update hunk: 'bad'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
  );
  // A second hunk's error counts the lines of the hunks before it.
  assert.equal(parseError(wrap("*** Add File: a\n+1\n+2\n*** Update File: b")).lineNumber, 5);
});

void test("absolute paths are kept as written", () => {
  assert.deepEqual(hunks(wrap("*** Delete File: /tmp/x.txt")), [{ kind: "delete", path: "/tmp/x.txt" }]);
});

void test("isPatchText recognises a bare patch", () => {
  assert.equal(isPatchText(wrap("*** Add File: a\n+x")), true);
  assert.equal(isPatchText("echo hi"), false);
});

void test("blank lines before a chunk are skipped", () => {
  const [hunk] = hunks(wrap("*** Update File: f\n\n  \n@@\n-a\n+b"));
  assert.ok(hunk?.kind === "update");
  assert.deepEqual(hunk.chunks, [{ changeContext: null, oldLines: ["a"], newLines: ["b"], isEndOfFile: false }]);
});
