import { test, after } from "node:test";
import assert from "node:assert/strict";
import { formatUnifiedExecResponse } from "./format.js";
import { processLimitWarning, UnifiedExecError, UnifiedExecManager } from "./unified-exec.js";

const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" } as Record<string, string>;
const manager = new UnifiedExecManager();
const start = (cmd: string, extra: { yieldTimeMs?: number; login?: boolean; maxOutputTokens?: number } = {}) =>
  manager.start({ cmd, cwd: process.cwd(), env: ENV, login: false, ...extra });

after(() => manager.terminateAll());

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

void test("a quick command returns its exit code and output, and is not kept", async () => {
  const r = await start("echo hello; exit 4");
  assert.equal(r.exitCode, 4);
  assert.equal(r.sessionId, null);
  assert.equal(r.output, "hello\n");
  assert.equal(r.originalTokenCount, 2);
  assert.match(r.chunkId, /^[0-9a-f]{6}$/);
  assert.ok(r.wallTimeSeconds < 5);
  assert.deepEqual(manager.sessionIds, []);
  assert.match(formatUnifiedExecResponse(r), /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code 4\nOriginal token count: 2\nOutput:\nhello\n$/);
});

void test("the default login shell runs the command too", async () => {
  const r = await manager.start({ cmd: "echo via-login", cwd: process.cwd(), env: ENV });
  assert.equal(r.exitCode, 0);
  assert.match(r.output, /via-login\n$/);
});

void test("a slow command yields a session id; polling later returns the rest and the exit code", async () => {
  const first = await start("echo begin; sleep 0.6; echo end", { yieldTimeMs: 100 }); // clamped up to 250 ms
  assert.equal(first.exitCode, null);
  assert.ok(first.sessionId !== null);
  assert.ok(first.wallTimeSeconds >= 0.24);
  assert.equal(first.output, "begin\n");
  assert.match(formatUnifiedExecResponse(first), new RegExp(`\nProcess running with session ID ${first.sessionId}\n`));

  const started = Date.now();
  const second = await manager.writeStdin({ sessionId: first.sessionId, chars: "" });
  assert.ok(Date.now() - started < 3000, "a poll returns as soon as the process exits");
  assert.equal(second.output, "end\n");
  assert.equal(second.exitCode, 0);
  assert.equal(second.sessionId, null);
  await assert.rejects(manager.writeStdin({ sessionId: first.sessionId }), /Unknown process id/);
});

void test("writing to stdin reaches the process and returns only new output", async () => {
  const catSession = await start("cat", { yieldTimeMs: 250 });
  assert.ok(catSession.sessionId !== null);
  const echoed = await manager.writeStdin({ sessionId: catSession.sessionId, chars: "ping\n" });
  assert.equal(echoed.output, "ping\n");
  assert.equal(echoed.sessionId, catSession.sessionId);
  const again = await manager.writeStdin({ sessionId: catSession.sessionId, chars: "pong\n" });
  assert.equal(again.output, "pong\n");

  const reader = await start('read -r line; echo "got:$line"', { yieldTimeMs: 250 });
  assert.ok(reader.sessionId !== null);
  const answered = await manager.writeStdin({ sessionId: reader.sessionId, chars: "42\n", yieldTimeMs: 2000 });
  assert.equal(answered.output, "got:42\n");
  assert.equal(answered.exitCode, 0);
  assert.equal(answered.sessionId, null);
  assert.ok(manager.terminate(catSession.sessionId));
});

void test("an unknown session id is an error the model can read", async () => {
  await assert.rejects(
    manager.writeStdin({ sessionId: 123, chars: "x" }),
    (err: unknown) => err instanceof UnifiedExecError && err.kind === "unknown_process" && err.message === "Unknown process id 123",
  );
});

void test("output beyond max_output_tokens is truncated with the reference header", async () => {
  const r = await start("head -c 4000 /dev/zero | tr '\\0' x", { maxOutputTokens: 10 });
  assert.equal(r.exitCode, 0);
  assert.equal(r.originalTokenCount, 1000);
  assert.ok(r.output.startsWith("Warning: truncated output (original token count: 1000)\nTotal output lines: 1\n\n"));
  assert.match(r.output, /x{20}…990 tokens truncated…x{20}$/);
});

void test("a background grandchild holding the pipe does not stall the call", async () => {
  const started = Date.now();
  const r = await start("sleep 5 & echo $!", { yieldTimeMs: 10_000 });
  assert.ok(Date.now() - started < 2000);
  assert.equal(r.exitCode, 0);
  process.kill(Number(r.output.trim()), "SIGKILL");
});

void test("terminateAll kills every live process group", async () => {
  const a = await start("echo $$; sleep 30", { yieldTimeMs: 250 });
  const b = await start("sleep 30 & sleep 30", { yieldTimeMs: 250 });
  assert.ok(a.sessionId !== null && b.sessionId !== null);
  const pid = Number(a.output.trim());
  assert.ok(isAlive(pid));
  manager.terminateAll();
  assert.deepEqual(manager.sessionIds, []);
  const deadline = Date.now() + 2000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(isAlive(pid), false);
  await assert.rejects(manager.writeStdin({ sessionId: a.sessionId, chars: "" }), UnifiedExecError);
});

void test("spawn failures surface as create errors", async () => {
  await assert.rejects(
    manager.start({ cmd: "true", cwd: "/no/such/dir", env: ENV }),
    (err: unknown) => err instanceof UnifiedExecError && /^Failed to create unified exec process: /.test(err.message),
  );
});

void test("the session-limit warning uses the reference wording", () => {
  assert.equal(
    processLimitWarning(61),
    "Warning: The maximum number of unified exec processes you can keep open is 60 and you currently have 61 processes open. Reuse older processes or close them to prevent automatic pruning of old processes",
  );
});
