/**
 * End-to-end: config errors and layering as a user of `codex-ts exec` sees them: exit status 2
 * with `file:line: key: problem` for a bad value, warnings for unknown keys, trusted project
 * files, and `--oss` refusing to start without a local server.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { freePort } from "../support/http-util.js";
import { join } from "node:path";
import { text, turn } from "../support/model-server.js";
import { exec, makeWorkspace, runCli, withServer } from "../support/cli.js";

void test("a wrong value in config.toml stops exec with status 2 and file:line: key: what is wrong", async () => {
  const ws = makeWorkspace({ config: '# mine\nmodel = 5\nsandbox_mode = "workspace"\n' });
  const r = await runCli(["exec", "hi"], { cwd: ws.dir, home: ws.home });
  assert.equal(r.code, 2, r.stderr);
  const file = join(ws.home, "config.toml");
  assert.ok(r.stderr.includes(`${file}:2: model: expected a string, got integer 5`), r.stderr);
  assert.ok(r.stderr.includes(`${file}:3: sandbox_mode: 'workspace' is not one of read-only, workspace-write, danger-full-access`), r.stderr);
  assert.equal(r.stdout, "");
});

void test("a bad -c value names the override; a TOML syntax error names line and column; both exit 2", async () => {
  const ws = makeWorkspace();
  const c = await runCli(["exec", "-c", "model_verbosity=loud", "hi"], { cwd: ws.dir, home: ws.home });
  assert.equal(c.code, 2, c.stderr);
  assert.match(c.stderr, /-c model_verbosity=loud: model_verbosity: 'loud' is not one of low, medium, high/);

  const broken = makeWorkspace({ config: 'model = "a"\n[profiles\n' });
  const s = await runCli(["exec", "hi"], { cwd: broken.dir, home: broken.home });
  assert.equal(s.code, 2, s.stderr);
  assert.ok(s.stderr.includes(`${join(broken.home, "config.toml")}:2:`), s.stderr);
  assert.match(s.stderr, /invalid TOML/);
});

void test("unknown keys only warn, and a trusted project's .codex/config.toml applies", async () => {
  const ws = makeWorkspace();
  const dir = realpathSync(ws.dir);
  writeFileSync(join(ws.home, "config.toml"), `modle = "typo"\n[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`);
  mkdirSync(join(dir, ".codex"));
  writeFileSync(join(dir, ".codex", "config.toml"), 'model = "project-model"\n[sandbox_workspace_write]\nnetwork = true\n');
  await withServer([turn(text("ok"))], async (server) => {
    const r = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stderr.includes(`${join(ws.home, "config.toml")}:1: unknown config key 'modle' is ignored`), r.stderr);
    assert.ok(r.stderr.includes(`${join(dir, ".codex", "config.toml")}:3: unknown config key 'sandbox_workspace_write.network' is ignored`), r.stderr);
    assert.equal(server.requests[0]?.body.model, "project-model");
  });
});

void test("--oss without a running local server exits 1 with a hint", async () => {
  const port = await freePort();
  const ws = makeWorkspace();
  const r = await runCli(["exec", "--oss", "hi"], { cwd: ws.dir, home: ws.home, env: { CODEX_OSS_PORT: String(port) } });
  assert.equal(r.code, 1, r.stderr);
  assert.ok(r.stderr.includes(`No Ollama server is answering at http://localhost:${port}/v1. Start it with \`ollama serve\``), r.stderr);
});

void test("--enable with an unknown feature is an error, as in the reference, and nothing is asked of the model", async () => {
  const ws = makeWorkspace();
  await withServer([], async (server) => {
    const r = await exec(server, ["--enable", "no_such_feature", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--enable no_such_feature: unknown feature flag 'no_such_feature'/);
    assert.equal(server.requests.length, 0);
  });
});

void test("--profile NAME runs with $CODEX_HOME/NAME.config.toml over config.toml; a missing one names both places", async () => {
  const ws = makeWorkspace({ config: 'model = "base-model"\ndeveloper_instructions = "answer in haiku"\n' });
  writeFileSync(join(ws.home, "fast.config.toml"), 'model = "fast-model"\n');
  await withServer([turn(text("ok")), turn(text("ok"))], async (server) => {
    const r = await exec(server, ["--profile", "fast", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[0]?.body.model, "fast-model");
    assert.ok(JSON.stringify(server.requests[0]?.body.input).includes("answer in haiku"), "config.toml's other keys still apply");

    writeFileSync(join(ws.home, "config.toml"), 'profile = "fast"\n');
    const selected = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(selected.code, 0, selected.stderr);
    assert.equal(server.requests[1]?.body.model, "fast-model", 'profile = "fast" in config.toml reads the same file');

    const missing = await exec(server, ["-p", "slow", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(missing.code, 2, missing.stderr);
    assert.ok(
      missing.stderr.includes(`--profile slow: no profile 'slow': neither ${join(ws.home, "slow.config.toml")} nor a [profiles.slow] table in ${join(ws.home, "config.toml")} exists`),
      missing.stderr,
    );
    assert.equal(server.requests.length, 2);
  });
});

void test("a syntax error in a profile file says what is wrong at file:line:col, with the line; an unknown key suggests the nearest", async () => {
  const ws = makeWorkspace({ config: 'model_reasoning_efort = "high"\n' });
  writeFileSync(join(ws.home, "fast.config.toml"), 'model = "a"\n[tui\n');
  const r = await runCli(["exec", "--profile", "fast", "hi"], { cwd: ws.dir, home: ws.home });
  assert.equal(r.code, 2, r.stderr);
  assert.ok(r.stderr.includes(`${join(ws.home, "fast.config.toml")}:2:5: invalid TOML: unclosed table header, expected ']'\n  2 | [tui\n    |     ^`), r.stderr);

  writeFileSync(join(ws.home, "fast.config.toml"), 'model = "a"\n[tui]\n');
  await withServer([turn(text("ok"))], async (server) => {
    const typo = await exec(server, ["--profile", "fast", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(typo.code, 0, typo.stderr);
    const warning = `${join(ws.home, "config.toml")}:1: unknown config key 'model_reasoning_efort' is ignored (did you mean model_reasoning_effort?)`;
    assert.ok(typo.stderr.includes(warning), typo.stderr);
  });
});

/** A port nothing listens on (bound, then released). */
