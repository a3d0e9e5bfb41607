/**
 * A patch whose write fails part-way is undone, and when the undo itself cannot restore a file,
 * both the model and the user are told which. The fault is real: codex-ts runs under a file-size
 * limit (`ulimit -f`), so the added file stops growing with EFBIG, and so does the old content
 * of a file the undo must write back.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { customCall, text, turn, type ModelServer } from "../support/model-server.js";
import { CLI_PATH, baseUrlArgs, makeWorkspace, testEnv, withServer, type CliResult } from "../support/cli.js";

/** `ulimit -f` counts 512-byte blocks in POSIX sh. */
const LIMIT_BLOCKS = 100;

function outputOf(server: ModelServer, callId: string): string {
  for (const request of server.requests) {
    const item = (request.body.input ?? []).find((i) => i.call_id === callId && typeof i.output === "string");
    if (item) return item.output as string;
  }
  return "(no output)";
}

/** `codex-ts exec` (human output, no session file) under the file-size limit. */
function execUnderLimit(server: ModelServer, cwd: string, home: string): Promise<CliResult> {
  const args = ["exec", ...baseUrlArgs(server.url), "--ephemeral", "-s", "workspace-write", "edit"];
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", `ulimit -f ${LIMIT_BLOCKS} && exec "$0" "$@"`, process.execPath, CLI_PATH, ...args], { cwd, env: testEnv(home), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const lines = (count: number, label: string): string[] => Array.from({ length: count }, (_, i) => `${label} line ${i} ${"-".repeat(60)}`);

void test("an undo that cannot restore a file names it to the model and to the user", { skip: process.platform === "win32" }, async () => {
  const ws = makeWorkspace();
  const huge = lines(1_000, "huge");
  writeFileSync(join(ws.dir, "a.txt"), "a\n");
  writeFileSync(join(ws.dir, "huge.txt"), `${huge.join("\n")}\n`);
  assert.ok(statSync(join(ws.dir, "huge.txt")).size > LIMIT_BLOCKS * 512);
  const patch = [
    "*** Begin Patch",
    "*** Update File: a.txt",
    "@@",
    "-a",
    "+A",
    "*** Update File: huge.txt",
    "@@",
    ...huge.slice(0, 10).map((l) => ` ${l}`),
    ...huge.slice(10).map((l) => `-${l}`),
    "*** Add File: big.txt",
    ...lines(1_200, "big").map((l) => `+${l}`),
    "*** End Patch",
  ].join("\n");
  await withServer([turn(customCall("apply_patch", patch, "c_patch")), turn(text("I will look."))], async (server) => {
    const r = await execUnderLimit(server, ws.dir, ws.home);
    assert.equal(r.code, 0, r.stderr);
    const unrestored = `The patch was undone except for this path, which could not be restored:\n  ${join(ws.dir, "huge.txt")}: File too large (os error 27)`;
    const model = outputOf(server, "c_patch");
    assert.ok(model.includes(`Failed to write file ${join(ws.dir, "big.txt")}: File too large (os error 27)`), model);
    assert.ok(model.includes(unrestored), model);
    assert.ok(r.stdout.includes(unrestored) || r.stderr.includes(unrestored), `the user sees it too:\n${r.stdout}\n${r.stderr}`);
    assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "a\n", "the rest was undone");
  });
});
