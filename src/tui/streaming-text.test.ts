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
