import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withLockFile, type LockFileOptions } from "./lock-file.js";

/** The options auth.json's lock runs with (auth/refresh.ts). */
const AUTH_LOCK: LockFileOptions = { timeoutMs: 45_000, staleAfterMs: 60_000, emptyStaleAfterMs: 2_000 };

const ownerPid = (lock: string): number => (JSON.parse(readFileSync(lock, "utf8")) as { pid: number }).pid;

void test("a lock left by a process that has exited is taken over; a live holder is waited for", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-lock-"));
  const lock = join(dir, "auth.json.lock");
  const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
  writeFileSync(lock, `${gone}\n`);
  assert.equal(await withLockFile(lock, AUTH_LOCK, async () => ownerPid(lock)), process.pid);
  assert.equal(existsSync(lock), false);

  const order: string[] = [];
  const first = withLockFile(lock, AUTH_LOCK, async () => {
    order.push("first:start");
    await new Promise((resolve) => setTimeout(resolve, 150));
    order.push("first:end");
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  const second = withLockFile(lock, AUTH_LOCK, async () => {
    order.push("second");
  });
  await Promise.all([first, second]);
  assert.deepEqual(order, ["first:start", "first:end", "second"]);
});

void test("the empty auth.json.lock the reference CLI leaves behind is taken over in seconds, not a minute", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-lock-"));
  const lock = join(dir, "auth.json.lock");
  writeFileSync(lock, "");
  const fiveSecondsAgo = new Date(Date.now() - 5_000);
  utimesSync(lock, fiveSecondsAgo, fiveSecondsAgo);
  assert.equal(await withLockFile(lock, AUTH_LOCK, async () => ownerPid(lock)), process.pid);

  // A lock just created (its holder about to write its pid) is still waited for.
  writeFileSync(lock, "");
  let entered = false;
  const waiting = withLockFile(lock, AUTH_LOCK, async () => {
    entered = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(entered, false);
  await waiting;
  assert.equal(entered, true);
});
