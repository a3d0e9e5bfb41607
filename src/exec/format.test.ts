import { test } from "node:test";
import assert from "node:assert/strict";
import {
  buildContentWithTimeout,
  durationSecondsF32,
  formatF32Display,
  formatF32Json,
  formatFreeformOutput,
  formatShellJsonOutput,
  formatUnifiedExecResponse,
} from "./format.js";

const ok = (aggregatedOutput: string, durationMs = 0) => ({ exitCode: 0, durationMs, aggregatedOutput, timedOut: false });

void test("unified exec layout for a finished command matches the observed wire text", () => {
  const text = formatUnifiedExecResponse({
    chunkId: "ad8b5b",
    wallTimeSeconds: 0,
    exitCode: 0,
    sessionId: null,
    originalTokenCount: 2,
    output: "hello\n",
  });
  assert.equal(text, "Chunk ID: ad8b5b\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\nhello\n");
});

void test("unified exec layout for a running command names the session", () => {
  const text = formatUnifiedExecResponse({
    chunkId: "f800eb",
    wallTimeSeconds: 1.00237,
    exitCode: null,
    sessionId: 32244,
    originalTokenCount: 3,
    output: "working...\n",
  });
  assert.equal(
    text,
    "Chunk ID: f800eb\nWall time: 1.0024 seconds\nProcess running with session ID 32244\nOriginal token count: 3\nOutput:\nworking...\n",
  );
});

void test("freeform layout matches the observed apply_patch output", () => {
  const out = formatFreeformOutput(ok("Success. Updated the following files:\nM a.txt\n"));
  assert.equal(out, "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM a.txt\n");
});

void test("freeform layout reports total lines only when truncation changed them", () => {
  const body = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
  const out = formatFreeformOutput({ exitCode: 2, durationMs: 1234, aggregatedOutput: body, timedOut: false }, { kind: "bytes", limit: 40 });
  const lines = out.split("\n");
  assert.deepEqual(lines.slice(0, 4), ["Exit code: 2", "Wall time: 1.2 seconds", "Total output lines: 100", "Output:"]);
  assert.match(out, /chars truncated/);
  assert.doesNotMatch(formatFreeformOutput(ok("a\nb\n")), /Total output lines/);
});

void test("durations are rounded to one decimal in f32 and printed as Rust does", () => {
  assert.equal(formatF32Display(durationSecondsF32(0)), "0");
  assert.equal(formatF32Display(durationSecondsF32(2000)), "2");
  assert.equal(formatF32Display(durationSecondsF32(1250)), "1.3");
  assert.equal(formatF32Display(durationSecondsF32(349)), "0.3");
  assert.equal(formatF32Json(durationSecondsF32(0)), "0.0");
  assert.equal(formatF32Json(durationSecondsF32(2040)), "2.0");
  assert.equal(formatF32Json(durationSecondsF32(1500)), "1.5");
  assert.equal(formatF32Json(durationSecondsF32(100)), "0.1");
});

void test("shell JSON envelope has the reference key order and float style", () => {
  const json = formatShellJsonOutput({ exitCode: 1, durationMs: 1500, aggregatedOutput: 'a "b"\n\u001b', timedOut: false });
  assert.equal(json, '{"output":"a \\"b\\"\\n\\u001b","metadata":{"exit_code":1,"duration_seconds":1.5}}');
  const zero = formatShellJsonOutput(ok("hi\n"));
  assert.equal(zero, '{"output":"hi\\n","metadata":{"exit_code":0,"duration_seconds":0.0}}');
  assert.deepEqual(JSON.parse(zero), { output: "hi\n", metadata: { exit_code: 0, duration_seconds: 0 } });
});

void test("shell JSON output truncates with the warning header", () => {
  const big = "x".repeat(50_000);
  const header = "Warning: truncated output (original token count: 12500)\nTotal output lines: 1\n\n";
  const byBytes = JSON.parse(formatShellJsonOutput(ok(big), { kind: "bytes", limit: 10_000 })) as { output: string };
  assert.equal(byBytes.output, `${header}${"x".repeat(5000)}…40000 chars truncated…${"x".repeat(5000)}`);
  const byTokens = JSON.parse(formatShellJsonOutput(ok(big))) as { output: string };
  assert.equal(byTokens.output, `${header}${"x".repeat(20_000)}…2500 tokens truncated…${"x".repeat(20_000)}`);
});

void test("a timed-out command's text starts with the timeout notice", () => {
  const outcome = { exitCode: 124, durationMs: 1000.7, aggregatedOutput: "partial\n", timedOut: true };
  assert.equal(buildContentWithTimeout(outcome), "command timed out after 1000 milliseconds\npartial\n");
  const parsed = JSON.parse(formatShellJsonOutput(outcome)) as { output: string; metadata: { exit_code: number } };
  assert.equal(parsed.output, "command timed out after 1000 milliseconds\npartial\n");
  assert.equal(parsed.metadata.exit_code, 124);
  assert.ok(formatFreeformOutput(outcome).startsWith("Exit code: 124\nWall time: 1 seconds\nOutput:\ncommand timed out after 1000 milliseconds\n"));
});
