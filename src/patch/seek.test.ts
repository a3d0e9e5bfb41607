import { test } from "node:test";
import assert from "node:assert/strict";
import { normalisePunctuation, seekSequence } from "./seek.js";

void test("exact match wins, searching from the start index", () => {
  assert.equal(seekSequence(["foo", "bar", "baz"], ["bar", "baz"], 0, false), 1);
  assert.equal(seekSequence(["x", "a", "x", "a"], ["x", "a"], 1, false), 2);
  assert.equal(seekSequence(["foo"], ["nope"], 0, false), -1);
});

void test("each relaxed tier is tried only after the stricter ones fail everywhere", () => {
  // Trailing whitespace ignored.
  assert.equal(seekSequence(["foo   ", "bar\t\t"], ["foo", "bar"], 0, false), 0);
  // Surrounding whitespace ignored.
  assert.equal(seekSequence(["    foo   ", "   bar\t"], ["foo", "bar"], 0, false), 0);
  // An exact match later in the file beats a whitespace-only match earlier.
  assert.equal(seekSequence(["  foo", "foo"], ["foo"], 0, false), 1);
  // Typographic punctuation matches its ASCII spelling (and the other way round).
  assert.equal(seekSequence(["const s = \u201Chi\u201D \u2014 \u2018x\u2019;\u00A0"], ['const s = "hi" - \'x\';'], 0, false), 0);
  assert.equal(seekSequence(["a - b"], ["a \u2013 b"], 0, false), 0);
});

void test("end-of-file chunks only match at the end", () => {
  assert.equal(seekSequence(["end", "mid", "end"], ["end"], 0, true), 2);
  assert.equal(seekSequence(["end", "mid"], ["end"], 0, true), -1);
});

void test("degenerate patterns", () => {
  assert.equal(seekSequence(["a"], [], 1, false), 1);
  assert.equal(seekSequence(["just one line"], ["too", "many", "lines"], 0, false), -1);
});

void test("normalisation trims and maps dashes, quotes and odd spaces", () => {
  assert.equal(normalisePunctuation("  \u201Ca\u2011b\u201D\u3000c "), '"a-b" c');
});
