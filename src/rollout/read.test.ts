import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scanRollout, tailLines } from "./read.js";

function file(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "codex-ts-read-")), "rollout.jsonl");
  writeFileSync(path, content);
  return path;
}

const line = (type: string, payload: unknown): string => `${JSON.stringify({ timestamp: "t", type, payload })}\n`;

void test("lines split across chunks, multi-byte characters included, come back whole", () => {
  const texts = ["héllo wörld ✓", "x".repeat(50), "日本語のテキスト", "😀".repeat(20)];
  const path = file(texts.map((t) => line("event_msg", { text: t })).join(""));
  for (const chunkBytes of [7, 13, 64, 1 << 20]) {
    const seen: string[] = [];
    const result = scanRollout(path, (l) => void seen.push((l.payload as { text: string }).text), { chunkBytes });
    assert.deepEqual(seen, texts, `chunk ${chunkBytes}`);
    assert.deepEqual(result, { warnings: [], reachedEnd: true, tornTail: false });
  }
});

void test("a torn last line and a broken middle line are skipped with warnings, never thrown", () => {
  const path = file(`${line("a", 1)}not json\n\n${line("b", 2)}{"type":"c","payl`);
  const types: string[] = [];
  const result = scanRollout(path, (l) => void types.push(l.type), { chunkBytes: 16 });
  assert.deepEqual(types, ["a", "b"]);
  assert.equal(result.tornTail, true);
  assert.equal(result.warnings.length, 2);
  assert.match(result.warnings[0] ?? "", /line 2 is not valid JSON/);
  assert.match(result.warnings[1] ?? "", /last line is incomplete \(17 bytes/);
});

void test("a complete last line without its newline is read; JSON that is not a rollout line is reported", () => {
  const path = file(`[1,2]\n${line("a", 1).trimEnd()}`);
  const types: string[] = [];
  const result = scanRollout(path, (l) => void types.push(l.type));
  assert.deepEqual(types, ["a"]);
  assert.equal(result.tornTail, false);
  assert.match(result.warnings[0] ?? "", /line 1 is not a rollout line/);
});

void test("a visitor can stop early and maxBytes bounds what is read", () => {
  const path = file(Array.from({ length: 100 }, (_, i) => line("n", i)).join(""));
  let count = 0;
  assert.equal(scanRollout(path, () => ++count < 3).reachedEnd, false);
  assert.equal(count, 3);
  count = 0;
  const bounded = scanRollout(path, () => void count++, { maxBytes: 200, chunkBytes: 64 });
  assert.equal(bounded.reachedEnd, false);
  assert.ok(count > 0 && count < 10, String(count));
});

void test("tailLines returns the complete lines at the end, newest first", () => {
  const path = file(Array.from({ length: 50 }, (_, i) => line("n", i)).join(""));
  const tail = tailLines(path, 200).map((l) => (JSON.parse(l) as { payload: number }).payload);
  assert.equal(tail[0], 49);
  assert.deepEqual(tail, [...tail].sort((a, b) => b - a));
  assert.ok(tail.length < 50);
});
