/**
 * exec's config switches from the reference: `--strict-config` (an unknown key stops the run),
 * `--ignore-user-config` (`$CODEX_HOME/config.toml` unread, the login kept) and `--ignore-rules`
 * (no `.rules` file applies).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { fnCall, text, turn } from "../support/model-server.js";

void test("--strict-config refuses an unknown key, naming file and line, before any model request", async () => {
  const ws = makeWorkspace({ config: 'model = "gpt-5.5"\nmodle = "typo"\n' });
  await withServer([turn(text("ok"))], async (server) => {
    const strict = await exec(server, ["--strict-config", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(strict.code, 2);
    assert.match(strict.stderr, new RegExp(`${join(ws.home, "config.toml")}:2: unknown config key 'modle' \\(did you mean model\\?\\)`));
    assert.match(strict.stderr, /--strict-config/);
    assert.equal(server.requests.length, 0);
    const lenient = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(lenient.code, 0, lenient.stderr);
    assert.match(lenient.stderr, /unknown config key 'modle' is ignored/);
  });
});

void test("--ignore-user-config leaves config.toml unread", async () => {
  const ws = makeWorkspace({ config: 'model = "configured-model"\ndeveloper_instructions = "from the user file"\n' });
  await withServer([turn(text("ok"))], async (server) => {
    const r = await exec(server, ["--ignore-user-config", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const body = server.requests[0]?.body;
    assert.notEqual(body?.model, "configured-model");
    assert.ok(!JSON.stringify(body?.input).includes("from the user file"));
  });
});

void test("--ignore-rules: a forbidding rule in $CODEX_HOME/rules no longer applies", async () => {
  const ws = makeWorkspace();
  mkdirSync(join(ws.home, "rules"));
  writeFileSync(join(ws.home, "rules", "default.rules"), 'prefix_rule(pattern = ["touch", "made.txt"], decision = "forbidden", justification = "not that file")\n');
  const script = [turn(fnCall("exec_command", { cmd: "touch made.txt" }, "c1")), turn(text("done"))];
  await withServer([...script, ...script], async (server) => {
    const ruled = await exec(server, ["-s", "workspace-write", "go"], { cwd: ws.dir, home: ws.home });
    assert.equal(ruled.code, 0, ruled.stderr);
    assert.equal(existsSync(join(ws.dir, "made.txt")), false);
    const free = await exec(server, ["-s", "workspace-write", "--ignore-rules", "go"], { cwd: ws.dir, home: ws.home });
    assert.equal(free.code, 0, free.stderr);
    assert.equal(existsSync(join(ws.dir, "made.txt")), true);
  });
});
