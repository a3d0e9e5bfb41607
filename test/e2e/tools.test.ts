/**
 * End-to-end: view_image, request_user_input and argument checking through the real
 * `codex-ts exec` and the scripted model server: what the model is sent back, and what the user sees.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { callOutput, text, fnCall, turn } from "../support/model-server.js";
import { exec, jsonLines, makeWorkspace, withServer } from "../support/cli.js";

const FULL = ["-s", "danger-full-access"];
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

void test("view_image attaches a local image: the next request carries it as the call's output", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "shot.png"), PNG);
  await withServer([turn(fnCall("view_image", { path: "shot.png" }, "call_img")), turn(text("A tiny picture."))], async (server) => {
    const r = await exec(server, [...FULL, "--json", "look at shot.png"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(callOutput(server, "call_img"), [
      { type: "input_image", image_url: `data:image/png;base64,${PNG.toString("base64")}`, detail: "original" },
    ]);
    // As in the reference's exec, attaching an image is not an item of its own.
    const items = jsonLines(r.stdout).filter((e) => e.type === "item.completed").map((e) => e.item);
    assert.deepEqual(items, [{ id: "item_0", type: "agent_message", text: "A tiny picture." }]);
  });
});

void test("view_image of a missing file, a folder or a non-image tells the model why", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "notes.png"), "plain text");
  await withServer(
    [
      turn(fnCall("view_image", { path: "missing.png" }, "call_1"), fnCall("view_image", { path: "." }, "call_2"), fnCall("view_image", { path: "notes.png" }, "call_3")),
      turn(text("Could not see them.")),
    ],
    async (server) => {
      const r = await exec(server, [...FULL, "look"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(callOutput(server, "call_1"), `unable to locate image at \`${join(ws.dir, "missing.png")}\`: no such file or directory`);
      assert.equal(callOutput(server, "call_2"), `image path \`${ws.dir}\` is not a file`);
      assert.equal(callOutput(server, "call_3"), `unable to process image at \`${join(ws.dir, "notes.png")}\`: not a PNG, JPEG, GIF or WebP image`);
    },
  );
});

void test("request_user_input in exec: the model is told nobody can answer, and no question goes out", async () => {
  const ws = makeWorkspace();
  const questions = {
    questions: [
      { id: "db", header: "Database", question: "Which database?", options: [{ label: "SQLite (Recommended)", description: "No server." }, { label: "Postgres", description: "A server." }] },
    ],
  };
  await withServer([turn(fnCall("request_user_input", questions, "call_ask")), turn(text("Going with SQLite."))], async (server) => {
    const r = await exec(server, [...FULL, "--json", "set up a db"], { cwd: ws.dir, home: ws.home, timeoutMs: 15_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      callOutput(server, "call_ask"),
      "request_user_input is unavailable: this session runs without a user who can answer, so make a reasonable choice yourself and state it in your final message.",
    );
    assert.deepEqual(jsonLines(r.stdout).map((e) => e.type), ["thread.started", "turn.started", "item.completed", "turn.completed"]);
  });
});

void test("a call that does not fit its schema gets one error naming the field, and nothing runs", async () => {
  const ws = makeWorkspace();
  await withServer(
    [
      turn(fnCall("exec_command", { workdir: "." }, "call_nocmd"), fnCall("exec_command", { cmd: ["touch", "marker"] }, "call_array")),
      turn(text("Let me fix that.")),
    ],
    async (server) => {
      const r = await exec(server, [...FULL, "--json", "run it"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(callOutput(server, "call_nocmd"), "failed to parse function arguments: missing field `cmd`");
      assert.equal(callOutput(server, "call_array"), "failed to parse function arguments: invalid type: sequence, expected a string at `cmd`");
      assert.equal(existsSync(join(ws.dir, "marker")), false);
      assert.ok(!r.stdout.includes("command_execution"), "no command started");
    },
  );
});

void test("the argv shell tool without `command` spawns nothing", async () => {
  const ws = makeWorkspace();
  await withServer([turn(fnCall("shell", { workdir: ".", timeout_ms: 1000 }, "call_shell")), turn(text("Oops."))], async (server) => {
    const r = await exec(server, [...FULL, "-m", "o3", "--json", "run it"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(callOutput(server, "call_shell"), "failed to parse function arguments: missing field `command`");
    assert.ok(!r.stdout.includes("command_execution"), "no command started");
  });
});
