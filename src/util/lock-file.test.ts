import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspectLock, LockBusyError, takeOverStaleLock, withLockFile } from "./lock-file.js";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function lockIn(): { dir: string; lock: string } {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-lock-"));
  return { dir, lock: join(dir, "auth.json.lock") };
}

/** The pid of a process that has already exited. */
function deadPid(): string {
  return spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
}

void test("two waiters take over one stale lock: the slower one leaves the faster one's live lock in place", () => {
  const { dir, lock } = lockIn();
  writeFileSync(lock, `${deadPid()}\n`);
  // Both waiters see the dead holder's lock and judge it stale…
  const seenBySlow = inspectLock(lock);
  const seenByFast = inspectLock(lock);
  assert.ok(seenBySlow?.stale && seenByFast?.stale);
  // …the fast one takes it over and creates its own lock…
  takeOverStaleLock(lock, seenByFast);
  writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
  const live = statSync(lock).ino;
  // …then the slow one acts on what it saw earlier: the live lock must survive it.
  takeOverStaleLock(lock, seenBySlow);
  assert.equal(readFileSync(lock, "utf8"), `${process.pid}\n`);
  assert.equal(statSync(lock).ino, live);
  assert.deepEqual(readdirSync(dir), ["auth.json.lock"], "nothing is left aside");
});

void test("a takeover guard left by a waiter that was killed does not block the takeover", async () => {
  const { dir, lock } = lockIn();
  writeFileSync(lock, `${deadPid()}\n`);
  writeFileSync(`${lock}.takeover`, `${deadPid()}\n`);
  assert.equal(await withLockFile(lock, async () => readFileSync(lock, "utf8"), { waitLimitMs: 2_000 }), `${process.pid}\n`);
  assert.deepEqual(readdirSync(dir), [], "the guard and the lock are gone");
});

void test("waiters in several processes racing for a stale lock never hold it at the same time", async () => {
  const moduleUrl = new URL("./lock-file.js", import.meta.url).href;
  for (let round = 0; round < 3; round++) {
    const { lock } = lockIn();
    const log = `${lock}.log`;
    writeFileSync(lock, `${deadPid()}\n`);
    writeFileSync(log, "");
    const startAt = Date.now() + 400;
    const script = `
      const { withLockFile } = await import(${JSON.stringify(moduleUrl)});
      const { appendFileSync } = await import("node:fs");
      await new Promise((r) => setTimeout(r, ${startAt} - Date.now()));
      await withLockFile(${JSON.stringify(lock)}, async () => {
        appendFileSync(${JSON.stringify(log)}, "in\\n");
        await new Promise((r) => setTimeout(r, 40));
        appendFileSync(${JSON.stringify(log)}, "out\\n");
      }, { waitLimitMs: 20000 });`;
    const children = Array.from({ length: 5 }, () => spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "inherit" }));
    const codes = await Promise.all(children.map((c) => new Promise((resolve) => c.on("close", resolve))));
    assert.deepEqual(codes, [0, 0, 0, 0, 0]);
    const events = readFileSync(log, "utf8").trim().split("\n");
    assert.equal(events.length, 10);
    let holders = 0;
    for (const event of events) {
      holders += event === "in" ? 1 : -1;
      assert.ok(holders <= 1, `round ${round}: two holders at once (${events.join(" ")})`);
    }
  }
});

void test("a live holder working longer than staleAfterMs keeps its lock fresh and is waited for", async () => {
  const { lock } = lockIn();
  const options = { waitLimitMs: 10_000, staleAfterMs: 200, heartbeatMs: 40, pollMs: 10 };
  const order: string[] = [];
  const holder = withLockFile(
    lock,
    async () => {
      order.push("holder:start");
      await sleep(700);
      order.push("holder:end");
    },
    options,
  );
  await sleep(30);
  const waiter = withLockFile(lock, async () => void order.push("waiter"), options);
  await Promise.all([holder, waiter]);
  assert.deepEqual(order, ["holder:start", "holder:end", "waiter"]);
  assert.equal(existsSync(lock), false);
});

void test("a lock whose holder stopped touching it (a hung holder or a reused pid) is taken over after staleAfterMs", async () => {
  const { lock } = lockIn();
  writeFileSync(lock, `${process.pid}\n`); // a live pid, but nobody is touching the file
  const old = new Date(Date.now() - 5_000);
  utimesSync(lock, old, old);
  assert.equal(await withLockFile(lock, async () => readFileSync(lock, "utf8"), { waitLimitMs: 1_000, staleAfterMs: 1_000 }), `${process.pid}\n`);
});

void test("a held lock makes a waiter give up after its wait limit with LockBusyError", async () => {
  const { lock } = lockIn();
  writeFileSync(lock, `${process.pid}\n`);
  await assert.rejects(withLockFile(lock, async () => undefined, { waitLimitMs: 150, pollMs: 20 }), LockBusyError);
  assert.equal(readFileSync(lock, "utf8"), `${process.pid}\n`, "the holder's lock is left alone");
});

void test("release removes only the holder's own lock, not one that replaced it", async () => {
  const { lock } = lockIn();
  await withLockFile(
    lock,
    async () => {
      // Someone judged ours stale and replaced it (what release must not undo).
      takeOverStaleLock(lock, { ...(inspectLock(lock) ?? { ino: 0, mtimeMs: 0 }), stale: true });
      writeFileSync(lock, "other\n", { flag: "wx" });
    },
    { waitLimitMs: 1_000 },
  );
  assert.equal(readFileSync(lock, "utf8"), "other\n");
});
