import { test } from "node:test";
import assert from "node:assert/strict";
import { StreamingText } from "./streaming-text.js";

void test("whole paragraphs are handed out as they complete; the rest stays pending", () => {
  const s = new StreamingText();
  s.append("First para");
  assert.equal(s.takeStable(), null);
  s.append("graph.\n\nSecond");
  assert.equal(s.takeStable(), "First paragraph.\n\n");
  assert.equal(s.pending(), "Second");
  assert.equal(s.finish("First paragraph.\n\nSecond one."), "Second one.");
});

void test("a blank line inside a code fence is not a boundary", () => {
  const s = new StreamingText();
  s.append("```\ncode\n\nmore code\n");
  assert.equal(s.takeStable(), null);
  s.append("```\n\nafter");
  assert.equal(s.takeStable(), "```\ncode\n\nmore code\n```\n\n");
  assert.equal(s.pending(), "after");
});

void test("a final message that differs from the stream is drawn whole", () => {
  const s = new StreamingText();
  s.append("abc\n\n");
  s.takeStable();
  assert.equal(s.finish("something else"), "something else");
});

void test("cut keeps whole lines and whole words, marking the cut with …", () => {
  const s = new StreamingText();
  s.append("line one\nline two\nthe quick brown fox jum");
  assert.equal(s.cut(), "line one\nline two\nthe quick brown fox …");
  assert.equal(s.started, false);
  s.append("half");
  assert.equal(s.cut(), "");
  s.append("done line\n");
  assert.equal(s.cut(), "done line\n");
});

void test("a restarted stream does not show again what it already showed", () => {
  const s = new StreamingText();
  s.append("First paragraph.\n\nSecond hal");
  assert.equal(s.takeStable(), "First paragraph.\n\n");
  s.restart();
  s.append("First para");
  assert.equal(s.pending(), "");
  assert.equal(s.takeStable(), null);
  s.append("graph.\n\nSecond half.\n\nThird");
  assert.equal(s.takeStable(), "Second half.\n\n");
  assert.equal(s.pending(), "Third");
  assert.equal(s.finish("First paragraph.\n\nSecond half.\n\nThird."), "Third.");
});

void test("a restarted stream that says something else goes on after what was shown", () => {
  const s = new StreamingText();
  s.append("Alpha.\n\n");
  s.takeStable();
  s.restart();
  s.append("Beta");
  assert.equal(s.pending(), "Beta");
  assert.equal(s.finish("Beta."), "Beta.");
});
