import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { rolloutPath, serializeLine } from "../rollout/format.js";
import { listSessions, titleOf } from "./session-list.js";

const NOW = Date.parse("2026-11-25T12:00:00Z");

/** A recorded session's head as the recorder writes it, `n` minutes old. */
function record(home: string, n: number, cwd: string, prompt: string, source = "vscode"): string {
  const id = `0199a000-0000-7000-8000-${String(n).padStart(12, "0")}`;
  const when = new Date(NOW - n * 60_000);
  const path = rolloutPath(home, id, when);
  mkdirSync(dirname(path), { recursive: true });
  const meta = { id, timestamp: when.toISOString(), cwd, originator: "codex_acp", cli_version: "0.1.0", source };
  writeFileSync(path, serializeLine("session_meta", meta, when) + serializeLine("event_msg", { type: "user_message", message: prompt }, when));
  utimesSync(path, when, when);
  return id;
}

void test("session/list pages through the interactive sessions of a folder, newest first, titled by their first prompt", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "acp-list-")));
  try {
    const home = join(root, "home");
    const here = join(root, "here");
    const ids = Array.from({ length: 52 }, (_, n) => record(home, n + 1, here, `prompt ${n + 1}\nsecond line`));
    record(home, 100, join(root, "elsewhere"), "another folder");
    record(home, 101, here, "an exec run", "exec");

    const first = listSessions(home, here, null);
    assert.deepEqual(first.sessions.map((s) => s.sessionId), ids.slice(0, 50), "the newest fifty");
    assert.equal(first.sessions[0]?.title, "prompt 1");
    assert.equal(first.sessions[0]?.cwd, here);
    assert.equal(first.nextCursor, ids[49]);

    const second = listSessions(home, here, first.nextCursor ?? null);
    assert.deepEqual(second.sessions.map((s) => s.sessionId), ids.slice(50), "the rest, after the cursor");
    assert.equal(second.nextCursor, undefined, "no page after the last");

    assert.throws(() => listSessions(home, here, "0199a000-0000-7000-8000-999999999999"), /names no session listed here/);

    const everywhere = [...listSessions(home, null, null).sessions, ...listSessions(home, null, ids[49] ?? null).sessions];
    assert.equal(everywhere.length, 53, "every folder's interactive sessions; the exec run is not offered");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

void test("a title is the first line of the prompt, shortened to eighty characters", () => {
  assert.equal(titleOf("  fix the build\nthen the tests"), "fix the build");
  assert.equal(titleOf("x".repeat(100)), `${"x".repeat(79)}…`);
  assert.equal(titleOf("   \n  "), null);
  assert.equal(titleOf(null), null);
});
