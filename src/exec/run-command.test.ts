import { test } from "node:test";
import assert from "node:assert/strict";
import { realpathSync, writeFileSync, mkdtempSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand, type RunCommandRequest } from "./run-command.js";

const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin" } as Record<string, string>;
const run = (script: string, extra: Partial<RunCommandRequest> = {}) =>
  runCommand({ argv: ["bash", "-c", script], cwd: process.cwd(), env: ENV, ...extra });

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

void test("captures stdout, stderr and the exit code", async () => {
  const r = await run("echo out; echo err >&2; exit 3");
  assert.equal(r.exitCode, 3);
  assert.equal(r.stdout, "out\n");
  assert.equal(r.stderr, "err\n");
  assert.equal(r.timedOut, false);
  assert.equal(r.aborted, false);
  assert.ok(r.durationMs >= 0);
});

void test("aggregated output keeps arrival order across streams", async () => {
  const r = await run("echo out1; sleep 0.05; echo err1 >&2; sleep 0.05; echo out2");
  assert.equal(r.aggregatedOutput, "out1\nerr1\nout2\n");
  assert.equal(r.exitCode, 0);
});

void test("runs in the given cwd with exactly the given env", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-run-")));
  const r = await runCommand({ argv: ["bash", "-c", 'pwd; echo "$FOO|${HOME-unset}"'], cwd: dir, env: { ...ENV, FOO: "bar" } });
  assert.equal(r.stdout, `${dir}\nbar|unset\n`);
});

void test("stdin is /dev/null, so readers see end of input at once", async () => {
  const r = await runCommand({ argv: ["cat"], cwd: process.cwd(), env: ENV, timeoutMs: 5000 });
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout, "");
});

void test("a timeout kills the whole process group promptly", async () => {
  const started = Date.now();
  const r = await run("sleep 30 & sleep 30", { timeoutMs: 300 });
  assert.ok(Date.now() - started < 3000, "returned promptly");
  assert.equal(r.timedOut, true);
  assert.equal(r.exitCode, 124);
});

void test("a grandchild holding the pipes does not hang the call", async () => {
  const started = Date.now();
  const r = await run("sleep 5 & echo $!; echo started");
  assert.ok(Date.now() - started < 2000, "returned promptly");
  assert.equal(r.exitCode, 0);
  const [pid, word] = r.stdout.trim().split("\n");
  assert.equal(word, "started");
  killQuietly(Number(pid));
});

void test("an abort signal kills the command", async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const started = Date.now();
  const r = await run("sleep 30", { signal: controller.signal });
  assert.ok(Date.now() - started < 3000);
  assert.equal(r.aborted, true);
  assert.equal(r.timedOut, false);
  assert.equal(r.exitCode, 137);
  const pre = new AbortController();
  pre.abort();
  assert.equal((await run("echo never", { signal: pre.signal })).aborted, true);
});

void test("spawn failures resolve with shell-like exit codes and a message", async () => {
  const missing = await runCommand({ argv: ["definitely-not-a-program-xyz"], cwd: process.cwd(), env: ENV });
  assert.equal(missing.exitCode, 127);
  assert.match(missing.stderr, /definitely-not-a-program-xyz: command not found/);
  assert.equal(missing.aggregatedOutput, missing.stderr);

  const badCwd = await runCommand({ argv: ["pwd"], cwd: "/no/such/dir/here", env: ENV });
  assert.equal(badCwd.exitCode, 126);
  assert.match(badCwd.stderr, /working directory is not accessible: \/no\/such\/dir\/here/);

  const dir = mkdtempSync(join(tmpdir(), "codex-ts-run-"));
  const file = join(dir, "not-executable.sh");
  writeFileSync(file, "echo hi\n");
  chmodSync(file, 0o644);
  const denied = await runCommand({ argv: [file], cwd: dir, env: ENV });
  assert.equal(denied.exitCode, 126);
  assert.match(denied.stderr, /permission denied/);
});

void test("a killed command reports 128 + signal", async () => {
  const r = await run("kill -TERM $$");
  assert.equal(r.exitCode, 143);
});

void test("huge output stays bounded in memory while onOutput sees every byte", async () => {
  let seen = 0;
  const r = await run("head -c 5000000 /dev/zero | tr '\\0' a; echo; echo END", {
    onOutput: (_stream, chunk) => {
      seen += chunk.length;
    },
  });
  assert.equal(seen, 5_000_000 + 1 + 4);
  assert.ok(r.stdout.length < 1024 * 1024 + 200, `stdout kept ${r.stdout.length}`);
  assert.ok(r.aggregatedOutput.length < 1024 * 1024 + 200);
  assert.ok(r.stdout.startsWith("aaaa"));
  assert.ok(r.stdout.endsWith("a\nEND\n"));
  assert.match(r.stdout, /\[\.\.\. \d+ characters of output omitted \.\.\.\]/);
});

void test("a multi-byte character split across chunks decodes intact", async () => {
  let chunks = 0;
  const r = await run("printf '\\xe2\\x82'; sleep 0.1; printf '\\xac\\n'; printf '\\xff\\n' >&2", {
    onOutput: (stream) => {
      if (stream === "stdout") chunks++;
    },
  });
  assert.ok(chunks >= 2, "bytes arrived in separate chunks");
  assert.equal(r.stdout, "€\n");
  assert.equal(r.stderr, "\uFFFD\n"); // invalid UTF-8 is replaced, not fatal
});
