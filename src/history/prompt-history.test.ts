import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  appendPromptHistory,
  historyFilePath,
  historyLine,
  historyMetadata,
  lookupHistoryEntry,
  type HistorySettings,
} from "./prompt-history.js";

const SAVE_ALL: HistorySettings = { persistence: "save-all" };
const MODULE_URL = new URL("./prompt-history.js", import.meta.url).href;

function home(): string {
  return mkdtempSync(join(tmpdir(), "codex-ts-history-"));
}

function lines(codexHome: string): string[] {
  const text = readFileSync(historyFilePath(codexHome), "utf8");
  assert.ok(text.endsWith("\n"), "the file ends with a whole line");
  return text.slice(0, -1).split("\n");
}

function texts(codexHome: string): string[] {
  return lines(codexHome).map((l) => (JSON.parse(l) as { text: string }).text);
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

async function append(codexHome: string, text: string, settings: HistorySettings = SAVE_ALL): Promise<void> {
  const outcome = await appendPromptHistory(codexHome, "s", text, settings);
  assert.equal(outcome.kind, "appended", JSON.stringify(outcome));
}

void test("a line is the reference's serde output: session_id, ts, text, in that order", async () => {
  assert.equal(
    historyLine("0199a213-81c0-7800-8aa1-bbab2a035a53", 1_700_000_000, 'say "hi"\n\ttab \u0001 ünï ✓ \u2028 </b>'),
    '{"session_id":"0199a213-81c0-7800-8aa1-bbab2a035a53","ts":1700000000,"text":"say \\"hi\\"\\n\\ttab \\u0001 ünï ✓ \u2028 </b>"}\n',
  );
  // A lone surrogate cannot be written as UTF-8; it becomes U+FFFD rather than a \ud800 escape.
  assert.equal(historyLine("s", 1, "a\ud800b"), '{"session_id":"s","ts":1,"text":"a\ufffdb"}\n');
});

void test("append creates CODEX_HOME and an owner-only file holding the entry", async () => {
  const codexHome = join(home(), "nested", ".codex");
  const before = Math.floor(Date.now() / 1000);
  const outcome = await appendPromptHistory(codexHome, "thread-1", "fix the build", SAVE_ALL);
  const after = Math.floor(Date.now() / 1000);
  assert.deepEqual(outcome, { kind: "appended", trimmed: false });
  const [line, ...rest] = lines(codexHome);
  assert.equal(rest.length, 0);
  const entry = JSON.parse(line ?? "") as { session_id: string; ts: number; text: string };
  assert.deepEqual(Object.keys(entry), ["session_id", "ts", "text"]);
  assert.equal(entry.session_id, "thread-1");
  assert.equal(entry.text, "fix the build");
  assert.ok(Number.isInteger(entry.ts) && entry.ts >= before && entry.ts <= after);
  if (process.platform !== "win32") assert.equal(mode(historyFilePath(codexHome)), 0o600);
  assert.deepEqual(readdirSync(codexHome), ["history.jsonl"], "no lock or temporary file is left");
});

void test("under umask 000 the CODEX_HOME it creates is owner-only", { skip: process.platform === "win32" }, async () => {
  const codexHome = join(home(), "nested", ".codex");
  const previous = process.umask(0o000);
  try {
    await appendPromptHistory(codexHome, "thread-1", "fix the build", SAVE_ALL);
  } finally {
    process.umask(previous);
  }
  assert.equal(mode(codexHome), 0o700);
  assert.equal(mode(join(codexHome, "..")), 0o700);
  assert.equal(mode(historyFilePath(codexHome)), 0o600);
});

void test("a looser (or stricter) mode on an existing file is put back to 0600", { skip: process.platform === "win32" }, async () => {
  for (const existing of [0o644, 0o666, 0o400]) {
    const codexHome = home();
    const path = historyFilePath(codexHome);
    writeFileSync(path, historyLine("old", 1, "earlier"));
    chmodSync(path, existing);
    await append(codexHome, "now");
    assert.equal(mode(path), 0o600, `from ${existing.toString(8)}`);
    assert.deepEqual(texts(codexHome), ["earlier", "now"]);
  }
});

void test('persistence = "none" writes nothing', async () => {
  const codexHome = home();
  assert.deepEqual(await appendPromptHistory(codexHome, "s", "secret", { persistence: "none", max_bytes: 10 }), { kind: "disabled" });
  assert.equal(existsSync(historyFilePath(codexHome)), false);
  assert.deepEqual(readdirSync(codexHome), []);
});

void test("historyMetadata gives the inode and the line count; lookup reads one entry by offset", async () => {
  const codexHome = home();
  assert.deepEqual(historyMetadata(codexHome), { logId: 0, count: 0 });
  assert.equal(lookupHistoryEntry(codexHome, 0, 0), null);

  const before = Math.floor(Date.now() / 1000);
  for (const t of ["first", "second\nline", "third"]) await appendPromptHistory(codexHome, `id-${t}`, t, SAVE_ALL);
  const meta = historyMetadata(codexHome);
  assert.deepEqual(meta, { logId: statSync(historyFilePath(codexHome)).ino, count: 3 });
  assert.notEqual(meta.logId, 0);

  const second = lookupHistoryEntry(codexHome, meta.logId, 1);
  assert.ok(second);
  assert.equal(second.sessionId, "id-second\nline");
  assert.equal(second.text, "second\nline");
  assert.ok(second.ts >= before);
  assert.equal(lookupHistoryEntry(codexHome, 0, 2)?.text, "third", "log id 0 matches any file");
  assert.equal(lookupHistoryEntry(codexHome, meta.logId + 1, 0), null, "another file's log id");
  assert.equal(lookupHistoryEntry(codexHome, meta.logId, 3), null, "past the end");
  assert.equal(lookupHistoryEntry(codexHome, meta.logId, -1), null);
  assert.equal(lookupHistoryEntry(codexHome, meta.logId, 0.5), null);
});

void test("lookup answers null for a line that does not parse and reads the older conversation_id field", async () => {
  const codexHome = home();
  writeFileSync(
    historyFilePath(codexHome),
    [
      '{"conversation_id":"legacy","ts":5,"text":"old format"}',
      "not json",
      '{"session_id":"s","ts":"5","text":"ts is a string"}',
      '{"session_id":"s","ts":6,"text":"crlf"}\r',
      '{"session_id":"s","ts":7,"text":"unterminated"}',
    ].join("\n"),
  );
  assert.deepEqual(lookupHistoryEntry(codexHome, 0, 0), { sessionId: "legacy", ts: 5, text: "old format" });
  assert.equal(lookupHistoryEntry(codexHome, 0, 1), null);
  assert.equal(lookupHistoryEntry(codexHome, 0, 2), null);
  assert.equal(lookupHistoryEntry(codexHome, 0, 3)?.text, "crlf");
  assert.equal(lookupHistoryEntry(codexHome, 0, 4)?.text, "unterminated", "like a line reader, the last line needs no newline");
  assert.equal(historyMetadata(codexHome).count, 4, "only newline-terminated lines are counted");
});

void test("a line cut short by a crash does not swallow the next entry", async () => {
  const codexHome = home();
  writeFileSync(historyFilePath(codexHome), `${historyLine("s", 1, "whole")}{"session_id":"s","ts":2,"te`);
  await append(codexHome, "after");
  const all = lines(codexHome);
  assert.equal(all.length, 3);
  assert.equal(lookupHistoryEntry(codexHome, 0, 1), null);
  assert.equal(lookupHistoryEntry(codexHome, 0, 2)?.text, "after");
});

void test("max_bytes: an append past the cap evicts the oldest entry", async () => {
  const codexHome = home();
  const path = historyFilePath(codexHome);
  await append(codexHome, "a".repeat(200));
  const limit = statSync(path).size + 10;
  const outcome = await appendPromptHistory(codexHome, "s", "b".repeat(200), { persistence: "save-all", max_bytes: limit });
  assert.deepEqual(outcome, { kind: "appended", trimmed: true });
  assert.deepEqual(texts(codexHome), ["b".repeat(200)]);
  assert.ok(statSync(path).size <= limit);
  assert.deepEqual(readdirSync(codexHome), ["history.jsonl"], "the temporary file was renamed into place");
  if (process.platform !== "win32") assert.equal(mode(path), 0o600);
});

void test("max_bytes: trimming goes down to 80% of the cap, not just under it", async () => {
  const codexHome = home();
  const path = historyFilePath(codexHome);
  const short = "a".repeat(200);
  const long = "b".repeat(400);
  await append(codexHome, short);
  const shortLen = statSync(path).size;
  await append(codexHome, long);
  const longLen = statSync(path).size - shortLen;
  const maxBytes = 2 * longLen + Math.floor(shortLen / 2);
  // Dropping only the short entry would satisfy the cap, but not the soft cap.
  assert.ok(2 * longLen <= maxBytes && 2 * longLen > Math.floor(maxBytes * 0.8));
  await append(codexHome, long, { persistence: "save-all", max_bytes: maxBytes });
  assert.deepEqual(texts(codexHome), [long]);
  assert.equal(statSync(path).size, longLen);
});

void test("max_bytes: the newest entry stays even when it alone is over the cap; 0 means no cap", async () => {
  const codexHome = home();
  await append(codexHome, "one");
  await append(codexHome, "two");
  await append(codexHome, "x".repeat(500), { persistence: "save-all", max_bytes: 100 });
  assert.deepEqual(texts(codexHome), ["x".repeat(500)]);
  await append(codexHome, "y".repeat(500), { persistence: "save-all", max_bytes: 0 });
  assert.deepEqual(texts(codexHome), ["x".repeat(500), "y".repeat(500)]);
});

void test("a trim makes a new file, so offsets under the old log id are no longer served", async () => {
  const codexHome = home();
  for (let i = 0; i < 5; i++) await append(codexHome, `entry ${i} ${"-".repeat(50)}`);
  const before = historyMetadata(codexHome);
  assert.equal(lookupHistoryEntry(codexHome, before.logId, 0)?.text.slice(0, 7), "entry 0");
  await append(codexHome, "newest", { persistence: "save-all", max_bytes: 200 });
  const after = historyMetadata(codexHome);
  assert.notEqual(after.logId, before.logId);
  assert.equal(lookupHistoryEntry(codexHome, before.logId, 0), null);
  assert.equal(lookupHistoryEntry(codexHome, after.logId, after.count - 1)?.text, "newest");
});

void test("a lock left by a dead process is broken at once", async () => {
  const codexHome = home();
  const dead = spawnSync(process.execPath, ["-e", ""]).pid;
  assert.ok(dead);
  const lock = `${historyFilePath(codexHome)}.lock`;
  writeFileSync(lock, JSON.stringify({ pid: dead, host: hostname(), acquired_at: Date.now() }));
  // A fresh lock is only broken because its pid is gone; waiting it out would fail the append.
  await append(codexHome, "after a crash");
  assert.deepEqual(readdirSync(codexHome), ["history.jsonl"]);
});

void test("a lock older than the stale age is broken even when its pid is alive", async () => {
  const codexHome = home();
  const lock = `${historyFilePath(codexHome)}.lock`;
  writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), acquired_at: 0 }));
  const old = (Date.now() - 60_000) / 1000;
  utimesSync(lock, old, old);
  await append(codexHome, "after a stuck holder");
  assert.deepEqual(texts(codexHome), ["after a stuck holder"]);
  assert.equal(existsSync(lock), false);
});

void test("a live lock is waited for, then the prompt is skipped with a warning, not an exception", async () => {
  const codexHome = home();
  const lock = `${historyFilePath(codexHome)}.lock`;
  for (const content of [JSON.stringify({ pid: process.pid, host: hostname(), acquired_at: Date.now() }), ""]) {
    writeFileSync(lock, content);
    const started = Date.now();
    const outcome = await appendPromptHistory(codexHome, "s", "blocked", SAVE_ALL, { lockTimeoutMs: 150 });
    const waited = Date.now() - started;
    assert.equal(outcome.kind, "failed");
    assert.match(outcome.kind === "failed" ? outcome.warning : "", /locked by another process/);
    assert.ok(waited >= 140 && waited < 5000, `waited ${waited} ms`);
    assert.equal(existsSync(historyFilePath(codexHome)), false);
    assert.equal(readFileSync(lock, "utf8"), content, "someone else's lock is left alone");
  }
});

void test("I/O failures come back as warnings", async () => {
  const file = join(home(), "not-a-dir");
  writeFileSync(file, "");
  const outcome = await appendPromptHistory(file, "s", "text", SAVE_ALL);
  assert.equal(outcome.kind, "failed");
  assert.deepEqual(historyMetadata(file), { logId: 0, count: 0 });
  assert.equal(lookupHistoryEntry(file, 0, 0), null);
});

// ---------------------------------------------------------------------------------------------
// Real concurrent processes

/** The prompt writer `tag` submits as its `i`th; runs in the child processes too (by source). */
function entryText(tag: string, i: number, big: boolean): string {
  const size = !big ? 40 : i % 20 === 0 ? 70000 : i % 5 === 0 ? 5000 : 40;
  const unit = `${tag}/${i} "q" ü\\ ✓\n\t|`;
  return `${tag}:${i}:${unit.repeat(Math.ceil(size / unit.length)).slice(0, size)}`;
}

interface WriterSpec {
  writers: number;
  perWriter: number;
  big: boolean;
  settings: HistorySettings;
}

/** Starts `writers` node processes that append `perWriter` entries each, all at the same moment. */
async function runWriters(codexHome: string, spec: WriterSpec): Promise<void> {
  const script = [
    `import { appendPromptHistory } from ${JSON.stringify(MODULE_URL)};`,
    'import { existsSync, writeFileSync } from "node:fs";',
    'import { join } from "node:path";',
    entryText.toString(),
    "const { home, tag, n, big, settings, barrier } = JSON.parse(process.env.HISTORY_WRITER);",
    "writeFileSync(join(barrier, `${tag}.ready`), '');",
    "while (!existsSync(join(barrier, 'go'))) {}",
    "let failures = 0;",
    "for (let i = 0; i < n; i++) {",
    "  const outcome = await appendPromptHistory(home, `session-${tag}`, entryText(tag, i, big), settings);",
    "  if (outcome.kind !== 'appended') { failures++; console.error(JSON.stringify(outcome)); }",
    "}",
    "process.exitCode = failures === 0 ? 0 : 1;",
  ].join("\n");
  // Each writer says it is ready, then spins until `go` exists, so all start together.
  const barrier = mkdtempSync(join(tmpdir(), "codex-ts-history-barrier-"));
  const runs = Array.from({ length: spec.writers }, (_, w) => {
    const env = {
      ...process.env,
      HISTORY_WRITER: JSON.stringify({ home: codexHome, tag: `w${w}`, n: spec.perWriter, big: spec.big, settings: spec.settings, barrier }),
    };
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    return new Promise<void>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`writer w${w} exited ${code}: ${stderr}`))));
    });
  });
  const done = Promise.all(runs);
  void done.catch(() => undefined); // reported by the await below, not as an unhandled rejection
  const deadline = Date.now() + 30_000;
  while (readdirSync(barrier).length < spec.writers && Date.now() < deadline) await sleep(5);
  writeFileSync(join(barrier, "go"), "");
  await done;
}

interface Parsed {
  tag: string;
  i: number;
}

/** Parses every line and checks it is exactly one writer's entry, whole. */
function parseAll(codexHome: string, big: boolean): Parsed[] {
  return lines(codexHome).map((line, n) => {
    const entry = JSON.parse(line) as { session_id: string; ts: number; text: string };
    assert.deepEqual(Object.keys(entry), ["session_id", "ts", "text"], `line ${n}`);
    const m = /^(w\d+):(\d+):/.exec(entry.text);
    assert.ok(m, `line ${n} starts with a writer tag`);
    const tag = m[1] ?? "";
    const i = Number(m[2]);
    assert.equal(entry.session_id, `session-${tag}`, `line ${n}`);
    assert.equal(entry.text, entryText(tag, i, big), `line ${n} is not interleaved`);
    return { tag, i };
  });
}

void test("concurrent writers: every entry lands whole, exactly once, in each writer's order", { timeout: 120_000 }, async () => {
  const codexHome = home();
  const spec: WriterSpec = { writers: 3, perWriter: 200, big: true, settings: SAVE_ALL };
  await runWriters(codexHome, spec);
  const parsed = parseAll(codexHome, true);
  assert.equal(parsed.length, spec.writers * spec.perWriter);
  assert.equal(historyMetadata(codexHome).count, spec.writers * spec.perWriter);
  for (let w = 0; w < spec.writers; w++) {
    const mine = parsed.filter((p) => p.tag === `w${w}`).map((p) => p.i);
    assert.deepEqual(mine, Array.from({ length: spec.perWriter }, (_, i) => i), `writer w${w}`);
  }
  const switches = parsed.filter((p, n) => n > 0 && p.tag !== parsed[n - 1]?.tag).length;
  assert.ok(switches > spec.writers, `the writers really ran at the same time (${switches} switches)`);
  assert.deepEqual(readdirSync(codexHome), ["history.jsonl"]);
  if (process.platform !== "win32") assert.equal(mode(historyFilePath(codexHome)), 0o600);
});

void test("concurrent writers with max_bytes: trims lose nothing but the oldest lines", { timeout: 120_000 }, async () => {
  const codexHome = home();
  const maxBytes = 12_000;
  const spec: WriterSpec = { writers: 3, perWriter: 200, big: false, settings: { persistence: "save-all", max_bytes: maxBytes } };
  await runWriters(codexHome, spec);
  const parsed = parseAll(codexHome, false);
  assert.ok(statSync(historyFilePath(codexHome)).size <= maxBytes);
  assert.ok(parsed.length > 10 && parsed.length < spec.writers * spec.perWriter);
  // The file is always a suffix of the global append order, so each writer's surviving entries
  // are a contiguous run that ends with its last one, and the last line is some writer's last.
  for (let w = 0; w < spec.writers; w++) {
    const mine = parsed.filter((p) => p.tag === `w${w}`).map((p) => p.i);
    const first = mine[0] ?? spec.perWriter;
    assert.deepEqual(mine, Array.from({ length: spec.perWriter - first }, (_, k) => first + k), `writer w${w}`);
  }
  assert.equal(parsed.at(-1)?.i, spec.perWriter - 1);
  assert.deepEqual(readdirSync(codexHome), ["history.jsonl"]);
  if (process.platform !== "win32") assert.equal(mode(historyFilePath(codexHome)), 0o600);
});
