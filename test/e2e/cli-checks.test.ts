/**
 * What exec checks before it asks the model anything, and how it reports it: missing files and
 * folders named by flags, an empty model, an unknown model, the reference's sentence outside a
 * Git repository, and an answer that survives an -o file that cannot be written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertNoRepositoryAbove, exec, makeWorkspace, withServer } from "../support/cli.js";
import { text, turn } from "../support/model-server.js";

void test("flags naming missing things stop exec before any model request, with a clear message", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "config.toml"), "");
  await withServer([], async (server) => {
    const cases: Array<[string[], RegExp]> = [
      [["-o", "no/such/dir/out.txt", "hi"], /--output-last-message no\/such\/dir\/out\.txt: the folder .*no\/such\/dir does not exist/],
      [["-i", "missing.png", "hi"], /--image missing\.png: no such file/],
      [["--add-dir", "config.toml", "hi"], /--add-dir config\.toml: not a directory/],
      [["-m", "", "hi"], /--model is empty/],
    ];
    for (const [args, message] of cases) {
      const run = await exec(server, args, { cwd: ws.dir, home: ws.home });
      assert.equal(run.code, 1, args.join(" "));
      assert.match(run.stderr, message);
    }
    assert.equal(server.requests.length, 0);
  });
});

void test("--add-dir of a folder that does not exist yet runs with a warning, as the reference (the Codex SDK passes such folders)", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("ran"))], async (server) => {
    const run = await exec(server, ["--add-dir", "later", "-s", "workspace-write", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "ran\n");
    assert.match(run.stderr, /warning: --add-dir later: no such directory yet \(.*later\)/);
  });
});

void test("outside a Git repository the message starts with the reference's sentence", async () => {
  const ws = makeWorkspace({ git: false });
  assertNoRepositoryAbove(ws.dir);
  await withServer([], async (server) => {
    const run = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 1);
    assert.ok(run.stderr.startsWith("Not inside a trusted directory and --skip-git-repo-check was not specified."), run.stderr);
  });
});

void test("an unknown model gets one warning naming the defaults used", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("ok"))], async (server) => {
    const run = await exec(server, ["-m", "my-local-llm", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 0, run.stderr);
    const warnings = run.stderr.split("\n").filter((l) => l.includes("not in codex-ts's catalog"));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? "", /"my-local-llm".*`shell` command tool, function apply_patch/);
  });
});

void test("when -o cannot be written at the end, exec warns and the answer still reaches stdout", async () => {
  const ws = makeWorkspace();
  const out = join(ws.dir, "out.txt");
  // The path is fine when exec starts; by the end a folder has taken its place.
  await withServer([{ ...turn(text("the answer")), delayMs: 300 }], async (server) => {
    const run = await exec(server, ["-o", out, "hi"], { cwd: ws.dir, home: ws.home, onSpawn: () => void server.waitForRequests(1).then(() => mkdirSync(out)) });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "the answer\n");
    assert.match(run.stderr, /could not write the last message to .*out\.txt/);
  });
});
