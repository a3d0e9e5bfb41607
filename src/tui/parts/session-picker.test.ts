import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { rolloutPath, serializeLine } from "../../rollout/format.js";
import type { ThreadSummary } from "../../rollout/list.js";
import { threadReader } from "../../host/recorded-threads.js";
import { relativeAge, SessionPicker } from "./session-picker.js";
import { createTheme, setTheme, stripAnsi } from "./theme.js";

setTheme(createTheme(0));

const NOW = Date.parse("2026-11-25T12:00:00Z");
const DOWN = "\u001b[B";

/** A recorded session file as the recorder writes its head, last written `ageMs` before NOW. */
function record(home: string, n: number, cwd: string, prompt: string, branch: string | null, ageMs: number): string {
  const id = `0199a000-0000-7000-8000-${String(n).padStart(12, "0")}`;
  const when = new Date(NOW - ageMs);
  const path = rolloutPath(home, id, when);
  mkdirSync(dirname(path), { recursive: true });
  const meta = { id, timestamp: when.toISOString(), cwd, originator: "codex_cli_rs", cli_version: "0.1.0", ...(branch ? { git: { branch } } : {}) };
  writeFileSync(path, serializeLine("session_meta", meta, when) + serializeLine("event_msg", { type: "user_message", message: prompt }, when));
  utimesSync(path, when, when);
  return id;
}

function fixture(): { root: string; home: string; here: string; there: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "picker-")));
  const here = join(root, "here");
  const there = join(root, "there");
  mkdirSync(here);
  mkdirSync(there);
  return { root, home: join(root, "home"), here, there };
}

void test("relative ages", () => {
  const at = (ms: number): string => relativeAge(new Date(NOW - ms).toISOString(), NOW);
  assert.equal(at(5_000), "just now");
  assert.equal(at(5 * 60_000), "5m ago");
  assert.equal(at(3 * 3_600_000), "3h ago");
  assert.equal(at(2 * 86_400_000), "2d ago");
  assert.equal(at(100 * 86_400_000), "3mo ago");
  assert.equal(at(800 * 86_400_000), "2y ago");
});

void test("newest first, this folder's only, with age, branch and first prompt; Enter picks, Esc cancels", () => {
  const { root, home, here, there } = fixture();
  try {
    record(home, 1, here, "fix the login bug\nwith details", "main", 3 * 3_600_000);
    const newest = record(home, 2, here, "add tests for the parser", "feature/parser-tests-and-more", 10 * 60_000);
    record(home, 3, there, "elsewhere", "dev", 60_000);
    const picked: ThreadSummary[] = [];
    let cancelled = 0;
    const picker = new SessionPicker({ threads: () => threadReader({ codexHome: home, cwd: here }), cwd: here, all: false, title: "Resume a session", onPick: (s) => picked.push(s), onCancel: () => cancelled++, now: () => NOW });
    const lines = picker.render(80).map(stripAnsi);
    assert.deepEqual(lines.slice(3, 5), [
      "›  10m ago  feature/parser-…  add tests for the parser",
      "    3h ago  main              fix the login bug",
    ]);
    assert.equal(lines[lines.length - 1], "2 sessions · ↑/↓ to move · Enter to pick · Esc to cancel");
    for (const l of lines) assert.ok(l.length <= 80);
    picker.handleInput("\r");
    assert.equal(picked[0]?.id, newest);
    picker.handleInput(DOWN);
    picker.handleInput("\r");
    assert.equal(picked[1]?.firstPrompt, "fix the login bug\nwith details");
    picker.handleInput("\u001b");
    assert.equal(cancelled, 1);

    const all = new SessionPicker({ threads: () => threadReader({ codexHome: home }), cwd: here, all: true, title: "Resume", onPick: () => {}, onCancel: () => {}, now: () => NOW });
    const rows = all.render(100).map(stripAnsi);
    assert.match(rows[0] ?? "", /Resume \(all folders\)/);
    // The folder column holds 24 characters: a longer temporary folder than /tmp ends in "…".
    assert.match(rows[3] ?? "", / 1m ago {2}dev {15}\/.*(there|…) {2}elsewhere$/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

void test("typing filters by prompt, branch or folder; Backspace widens again", () => {
  const { root, home, here } = fixture();
  try {
    record(home, 1, here, "fix the login bug", "main", 3_600_000);
    record(home, 2, here, "add parser tests", "parser", 7_200_000);
    record(home, 3, here, "write docs", null, 9_000_000);
    const picker = new SessionPicker({ threads: () => threadReader({ codexHome: home, cwd: here }), cwd: here, all: false, title: "Resume", onPick: () => {}, onCancel: () => {}, now: () => NOW });
    for (const ch of "pars") picker.handleInput(ch);
    let lines = picker.render(60).map(stripAnsi);
    assert.equal(lines[1], "Filter: pars");
    assert.deepEqual(lines.slice(3, -2), ["›   2h ago  parser            add parser tests"]);
    // "#" appears in no prompt, branch, id or temporary folder name (a letter could: the folder's
    // random suffix is alphanumeric).
    picker.handleInput(" ");
    picker.handleInput("#");
    assert.deepEqual(picker.render(60).map(stripAnsi).slice(3, -2), ["  No session matches the filter."]);
    picker.handleInput("\u007f");
    picker.handleInput("\u007f");
    picker.handleInput("\u007f");
    lines = picker.render(60).map(stripAnsi);
    assert.equal(lines[1], "Filter: par");
    assert.equal(lines.slice(3, -2).length, 1);
    for (let i = 0; i < 3; i++) picker.handleInput("\u007f");
    assert.equal(picker.render(60).map(stripAnsi).slice(3, -2).length, 3);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

void test("thousands of sessions: only what the screen needs is read, the rest on demand", async () => {
  const { root, home, here } = fixture();
  try {
    for (let i = 0; i < 400; i++) record(home, i, here, `task number ${i}`, "main", (i + 1) * 60_000);
    let renders = 0;
    const picker = new SessionPicker({ threads: () => threadReader({ codexHome: home, cwd: here }), cwd: here, all: false, title: "Resume", onPick: () => {}, onCancel: () => {}, requestRender: () => renders++, maxVisible: 5, now: () => NOW });
    const first = picker.render(60).map(stripAnsi);
    assert.match(first[3] ?? "", / 1m ago .* task number 0$/);
    assert.ok(picker.loadedCount <= 6, `read ${picker.loadedCount} heads for 5 rows`);
    for (let i = 0; i < 20; i++) picker.handleInput(DOWN);
    const rows = picker.render(60).map(stripAnsi);
    assert.match(rows[7] ?? "", /^› .* task number 20$/);
    assert.ok(picker.loadedCount < 40);
    // A filter that matches late sessions keeps loading in the background until it finds them.
    for (const ch of "number 399") picker.handleInput(ch);
    picker.render(60);
    const doneAtOnce = picker.done;
    for (let i = 0; i < 1000 && !picker.done; i++) await new Promise((r) => setImmediate(r));
    assert.ok(picker.done);
    // Whatever the first render could not read in its time budget was read in the background,
    // which asked for a repaint.
    if (!doneAtOnce) assert.ok(renders > 0);
    assert.deepEqual(picker.render(60).map(stripAnsi).slice(3, -2).length, 1);
    assert.equal(picker.loadedCount, 400);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
