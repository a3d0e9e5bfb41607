import { test } from "node:test";
import assert from "node:assert/strict";
import {
  approxTokenCount,
  countLines,
  formattedTruncateText,
  truncateMiddle,
  truncateMiddleChars,
  truncateText,
} from "./truncate.js";

const LONG = "this is an example of a long output that should be truncated";
const TWO_LINES = `${LONG}\nalso some other line`;

void test("token estimate is UTF-8 bytes / 4 rounded up", () => {
  assert.equal(approxTokenCount(""), 0);
  assert.equal(approxTokenCount("hello\n"), 2);
  assert.equal(approxTokenCount("abcd"), 1);
  assert.equal(approxTokenCount("abcde"), 2);
  assert.equal(approxTokenCount("€"), 1); // three bytes
});

void test("line count ignores a trailing newline, like Rust's lines()", () => {
  assert.equal(countLines(""), 0);
  assert.equal(countLines("a"), 1);
  assert.equal(countLines("a\n"), 1);
  assert.equal(countLines("a\nb"), 2);
  assert.equal(countLines("a\n\n"), 2);
});

void test("text within budget is returned unchanged", () => {
  assert.equal(formattedTruncateText("example output", { kind: "tokens", limit: 10 }), "example output");
  assert.equal(formattedTruncateText("example output", { kind: "bytes", limit: 20 }), "example output");
  assert.deepEqual(truncateMiddle("example output", 10), { text: "example output", originalTokenCount: null });
});

void test("token budget keeps head and tail around the marker", () => {
  assert.equal(truncateText(LONG, { kind: "tokens", limit: 5 }), "this is an…10 tokens truncated… truncated");
  assert.equal(truncateText("example output", { kind: "tokens", limit: 1 }), "ex…3 tokens truncated…ut");
  assert.deepEqual(truncateMiddle(LONG, 5), { text: "this is an…10 tokens truncated… truncated", originalTokenCount: 15 });
});

void test("byte budget reports removed characters", () => {
  assert.equal(truncateMiddleChars(LONG, 30), "this is an exam…30 chars truncated…ld be truncated");
  assert.equal(truncateMiddleChars("example output", 1), "…13 chars truncated…t");
  assert.equal(truncateMiddleChars("abc", 0), "…3 chars truncated…");
});

void test("formatted truncation adds the warning header with original counts", () => {
  assert.equal(
    formattedTruncateText(TWO_LINES, { kind: "tokens", limit: 10 }),
    "Warning: truncated output (original token count: 21)\nTotal output lines: 2\n\n" +
      "this is an example o…11 tokens truncated…also some other line",
  );
  assert.equal(
    formattedTruncateText(TWO_LINES, { kind: "bytes", limit: 30 }),
    "Warning: truncated output (original token count: 21)\nTotal output lines: 2\n\n" +
      "this is an exam…51 chars truncated…some other line",
  );
});

void test("multi-byte characters are never split", () => {
  const s = "😀😀😀😀😀😀😀😀😀😀\nsecond line with text\n";
  assert.equal(truncateText(s, { kind: "bytes", limit: 20 }), "😀😀…21 chars truncated…with text\n");

  const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
  const mixed = "aé€😀".repeat(50);
  for (let budget = 0; budget < 80; budget++) {
    for (const policy of [{ kind: "bytes", limit: budget }, { kind: "tokens", limit: budget }] as const) {
      const out = truncateText(mixed, policy);
      assert.ok(!loneSurrogate.test(out), `split surrogate at ${policy.kind} ${budget}`);
      assert.equal(Buffer.from(out, "utf8").toString("utf8"), out);
      assert.ok(!out.includes("\uFFFD"));
    }
  }
});
