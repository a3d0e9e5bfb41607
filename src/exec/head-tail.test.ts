import { test } from "node:test";
import assert from "node:assert/strict";
import { HeadTailText } from "./head-tail.js";

void test("keeps everything while under the caps", () => {
  const buf = new HeadTailText(4, 4);
  buf.push("ab");
  buf.push("cdef");
  assert.equal(buf.toString((n) => `[${n}]`), "abcdef");
  assert.equal(buf.omitted, 0);
});

void test("keeps the head and the tail and counts the dropped middle", () => {
  const buf = new HeadTailText(3, 3);
  for (const piece of ["abc", "def", "ghi", "jk"]) buf.push(piece);
  assert.equal(buf.toString((n) => `[${n}]`), "abc[5]ijk");
  assert.equal(buf.drain(), "abcijk");
  assert.ok(buf.isEmpty);
  buf.push("xyz");
  assert.equal(buf.toString(), "xyz");
});

void test("never separates a surrogate pair", () => {
  const buf = new HeadTailText(3, 3);
  buf.push("a😀😀😀b");
  const out = buf.toString(() => "|");
  assert.equal(out, "a😀|😀b");
});
