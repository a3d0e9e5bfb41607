import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { notifyTurnComplete, turnCompleteJson, userTextMessages, type TurnCompletePayload } from "./notify.js";

const PAYLOAD: TurnCompletePayload = {
  threadId: "0199a213-81c0-7800-8aa1-bbab2a035a53",
  turnId: "7",
  cwd: "/work/project",
  inputMessages: ["Rename `foo` to `bar`", "and \"quote\" it\nplease"],
  lastAssistantMessage: "Done: renamed.",
};

/**
 * A notifier that records its arguments, one per line, in the file named by its first argument
 * (written to a temporary name first, so a reader never sees half of it), plus $NOTIFY_MARKER.
 */
function recorder(): { script: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-notify-"));
  const script = join(dir, "notify.sh");
  writeFileSync(
    script,
    '#!/bin/sh\nout="$1"\n{ for arg in "$@"; do printf \'%s\\n\' "$arg"; done; printf \'marker=%s\\n\' "$NOTIFY_MARKER"; } > "$out.tmp"\nmv "$out.tmp" "$out"\n',
  );
  chmodSync(script, 0o755);
  return { script, out: join(dir, "out.txt") };
}

async function waitForFile(path: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear within ${timeoutMs} ms`);
    await sleep(20);
  }
  return readFileSync(path, "utf8");
}

void test("the payload has the reference's keys, in the reference's order", () => {
  const json = turnCompleteJson(PAYLOAD);
  const parsed = JSON.parse(json) as Record<string, unknown>;
  assert.deepEqual(Object.keys(parsed), ["type", "thread-id", "turn-id", "cwd", "input-messages", "last-assistant-message"]);
  assert.deepEqual(parsed, {
    type: "agent-turn-complete",
    "thread-id": PAYLOAD.threadId,
    "turn-id": "7",
    cwd: "/work/project",
    "input-messages": ["Rename `foo` to `bar`", "and \"quote\" it\nplease"],
    "last-assistant-message": "Done: renamed.",
  });
  assert.ok(!json.includes("\n"), "one line, so it is a single clean argument");
  const none = JSON.parse(turnCompleteJson({ ...PAYLOAD, inputMessages: [], lastAssistantMessage: null })) as Record<string, unknown>;
  assert.equal(none["last-assistant-message"], null);
  assert.deepEqual(none["input-messages"], []);
});

void test("input messages are the user's text inputs, one per item, images left out", () => {
  assert.deepEqual(
    userTextMessages([
      { type: "local_image", path: "/tmp/a.png" },
      { type: "text", text: "first" },
      { type: "image", image_url: "data:image/png;base64,AAAA" },
      { type: "text", text: "second" },
    ]),
    ["first", "second"],
  );
});

void test("the program runs with its arguments plus the JSON payload as the last one, in the user's environment", async () => {
  const { script, out } = recorder();
  notifyTurnComplete([script, out, "--extra"], PAYLOAD, { env: { ...process.env, NOTIFY_MARKER: "from-env" } });
  const lines = (await waitForFile(out)).split("\n");
  assert.equal(lines[0], out);
  assert.equal(lines[1], "--extra");
  assert.equal(lines[2], turnCompleteJson(PAYLOAD));
  assert.equal(lines[3], "marker=from-env");
  assert.equal(lines.length, 5, "exactly one extra argument");
});

void test("by default the program inherits the process's environment", async () => {
  const { script, out } = recorder();
  const previous = process.env.NOTIFY_MARKER;
  process.env.NOTIFY_MARKER = "inherited";
  try {
    notifyTurnComplete([script, out], PAYLOAD);
  } finally {
    if (previous === undefined) delete process.env.NOTIFY_MARKER;
    else process.env.NOTIFY_MARKER = previous;
  }
  const lines = (await waitForFile(out)).split("\n");
  assert.equal(lines[1], turnCompleteJson(PAYLOAD));
  assert.equal(lines[2], "marker=inherited");
});

void test("notifyTurnComplete returns before the program finishes (it is not waited for)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-notify-"));
  const out = join(dir, "late.txt");
  const started = Date.now();
  notifyTurnComplete(["/bin/sh", "-c", 'sleep 0.3; printf done > "$0"', out], PAYLOAD);
  assert.ok(Date.now() - started < 250, "returned at once");
  assert.equal(existsSync(out), false);
  assert.equal(await waitForFile(out), "done");
});

void test("a missing program, a failing one or a crashing one never throws; a start failure is reported once", async () => {
  const errors: string[] = [];
  assert.doesNotThrow(() => notifyTurnComplete(["/nonexistent/codex-ts-notify"], PAYLOAD, { onError: (m) => errors.push(m) }));
  assert.doesNotThrow(() => notifyTurnComplete(["codex-ts-no-such-program-on-path"], PAYLOAD));
  assert.doesNotThrow(() => notifyTurnComplete(["/bin/sh", "-c", "exit 3"], PAYLOAD, { onError: (m) => errors.push(m) }));
  assert.doesNotThrow(() => notifyTurnComplete(["/bin/sh", "-c", "kill -SEGV $$"], PAYLOAD, { onError: (m) => errors.push(m) }));
  // spawn rejects a NUL byte synchronously; that too is swallowed and reported.
  assert.doesNotThrow(() => notifyTurnComplete(["/bin/sh", "bad\0arg"], PAYLOAD, { onError: (m) => errors.push(m) }));
  // A reporter that throws is contained as well.
  assert.doesNotThrow(() =>
    notifyTurnComplete(["/nonexistent/other"], PAYLOAD, {
      onError: () => {
        throw new Error("reporter broke");
      },
    }),
  );
  const deadline = Date.now() + 5000;
  while (errors.length < 2 && Date.now() < deadline) await sleep(20);
  await sleep(200);
  assert.equal(errors.length, 2, errors.join("\n"));
  assert.ok(errors.some((m) => /\/nonexistent\/codex-ts-notify.*could not be started: .*ENOENT/.test(m)), errors.join("\n"));
  assert.ok(errors.some((m) => /"\/bin\/sh" could not be started/.test(m)), errors.join("\n"));
});

void test("no command, or an empty one, does nothing", () => {
  assert.doesNotThrow(() => notifyTurnComplete(null, PAYLOAD));
  assert.doesNotThrow(() => notifyTurnComplete(undefined, PAYLOAD));
  assert.doesNotThrow(() => notifyTurnComplete([], PAYLOAD));
  assert.doesNotThrow(() => notifyTurnComplete([""], PAYLOAD));
});
