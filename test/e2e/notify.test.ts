/**
 * End-to-end: `notify = [...]` in config runs the program after each completed turn with the
 * reference's agent-turn-complete JSON as its last argument, and a broken notifier changes
 * nothing about the run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { text, turn } from "../support/model-server.js";
import { exec, jsonLines, makeWorkspace, withServer } from "../support/cli.js";

/** A notifier script that writes its last argument to the file named by its first. */
function recorder(): { script: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-notify-e2e-"));
  const script = join(dir, "notify.sh");
  writeFileSync(script, '#!/bin/sh\nout="$1"\nfor last in "$@"; do :; done\nprintf \'%s\' "$last" > "$out.tmp"\nmv "$out.tmp" "$out"\n');
  chmodSync(script, 0o755);
  return { script, out: join(dir, "payload.json") };
}

/** `-c notify=[...]`, each element a TOML basic string. */
function notifyArg(command: string[]): string[] {
  return ["-c", `notify=[${command.map((c) => JSON.stringify(c)).join(", ")}]`];
}

async function waitForFile(path: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`the notify program did not write ${path} within ${timeoutMs} ms`);
    await sleep(25);
  }
  return readFileSync(path, "utf8");
}

void test("after the turn, the notify program gets the agent-turn-complete payload as its last argument", async () => {
  const ws = makeWorkspace();
  const { script, out } = recorder();
  await withServer([turn(text("Hello there."))], async (server) => {
    const r = await exec(server, ["--json", ...notifyArg([script, out]), "say hello"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const threadId = jsonLines(r.stdout).find((e) => e.type === "thread.started")?.thread_id;
    assert.equal(typeof threadId, "string");
    const payload = JSON.parse(await waitForFile(out)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(payload), ["type", "thread-id", "turn-id", "cwd", "input-messages", "last-assistant-message"]);
    assert.equal(payload.type, "agent-turn-complete");
    assert.equal(payload["thread-id"], threadId);
    assert.equal(typeof payload["turn-id"], "string");
    assert.equal(payload.cwd, ws.dir);
    assert.deepEqual(payload["input-messages"], ["say hello"]);
    assert.equal(payload["last-assistant-message"], "Hello there.");
  });
});

void test("configured arguments come first and the payload is the one extra argument", async () => {
  const ws = makeWorkspace();
  const { script, out } = recorder();
  // `sh script out` : the script's own first argument is still `out`, the payload is last.
  await withServer([turn(text("Done."))], async (server) => {
    const r = await exec(server, [...notifyArg(["/bin/sh", script, out]), "do it"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "Done.\n");
    const payload = JSON.parse(await waitForFile(out)) as Record<string, unknown>;
    assert.deepEqual(payload["input-messages"], ["do it"]);
    assert.equal(payload["last-assistant-message"], "Done.");
  });
});

void test("a missing or failing notify program does not change the run's output or exit code", async () => {
  const ws = makeWorkspace();
  for (const command of [["/nonexistent/codex-ts-notifier"], ["/bin/sh", "-c", "exit 7"]]) {
    await withServer([turn(text("Still fine."))], async (server) => {
      const r = await exec(server, [...notifyArg(command), "hello"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Still fine.\n");
      assert.doesNotMatch(r.stderr, /ENOENT|Unhandled|at .*\.js:\d+/);
    });
  }
});
