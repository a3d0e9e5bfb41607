/**
 * End-to-end: `codex-ts login --with-api-key`, `login status` and `logout` through the real CLI,
 * and an exec run that authenticates with the saved key without letting it reach the commands
 * the model runs, the output, or any file other than auth.json.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fnCall, text, turn } from "../support/model-server.js";
import { exec, filesUnder, makeWorkspace, runCli, withServer } from "../support/cli.js";

const KEY = "sk-proj-e2eSECRETvalue0123456789ABCDE";
/** No key in the environment: only auth.json can supply one. */
const NO_ENV_KEY = { OPENAI_API_KEY: undefined, CODEX_API_KEY: undefined };

void test("login --with-api-key, login status, logout", async () => {
  const ws = makeWorkspace();
  const opts = { cwd: ws.dir, home: ws.home, env: NO_ENV_KEY };

  const before = await runCli(["login", "status"], opts);
  assert.equal(before.code, 1);
  assert.equal(before.stderr, "Not logged in\n");

  const login = await runCli(["login", "--with-api-key"], { ...opts, stdin: `${KEY}\n` });
  assert.equal(login.code, 0, login.stderr);
  assert.equal(login.stdout, "");
  assert.equal(login.stderr, "Reading API key from stdin...\nSuccessfully logged in\n");
  const file = join(ws.home, "auth.json");
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { auth_mode: "apikey", OPENAI_API_KEY: KEY });

  const status = await runCli(["login", "status"], opts);
  assert.equal(status.code, 0);
  assert.equal(status.stderr, "Logged in using an API key - sk-proj-***ABCDE\n");
  assert.ok(!status.stdout.includes(KEY) && !status.stderr.includes(KEY));

  const logout = await runCli(["logout"], opts);
  assert.equal(logout.code, 0);
  assert.equal(logout.stderr, "Successfully logged out\n");
  assert.equal(existsSync(file), false);

  const again = await runCli(["logout"], opts);
  assert.equal(again.code, 0);
  assert.equal(again.stderr, "Not logged in\n");
});

void test("login --with-api-key with empty stdin exits 1 and saves nothing", async () => {
  const ws = makeWorkspace();
  const opts = { cwd: ws.dir, home: ws.home, env: NO_ENV_KEY };
  const empty = await runCli(["login", "--with-api-key"], { ...opts, stdin: "" });
  assert.equal(empty.code, 1);
  assert.equal(empty.stderr, "Reading API key from stdin...\nNo API key provided via stdin.\n");
  assert.equal(existsSync(join(ws.home, "auth.json")), false);
});

void test("exec authenticates with the saved key, which stays out of commands, output and every other file", async () => {
  const ws = makeWorkspace();
  const opts = { cwd: ws.dir, home: ws.home, env: NO_ENV_KEY };
  const login = await runCli(["login", "--with-api-key"], { ...opts, stdin: KEY });
  assert.equal(login.code, 0, login.stderr);

  // Even with the credential filter switched off and everything inherited, a saved key is not in
  // the process environment, so the command cannot see it.
  const policies = [[], ["-c", "shell_environment_policy.inherit=all", "-c", "shell_environment_policy.ignore_default_excludes=true"]];
  for (const policy of policies) {
    await withServer([turn(fnCall("exec_command", { cmd: "env" }, "call_env")), turn(text("Checked."))], async (server) => {
      const r = await exec(server, ["-s", "danger-full-access", ...policy, "print the environment"], opts);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Checked.\n");
      assert.equal(server.requests[0]?.headers.authorization, `Bearer ${KEY}`);
      const second = server.requests[1]?.body.input ?? [];
      const output = String(second.find((i) => i.type === "function_call_output")?.output ?? "");
      assert.match(output, /PATH=/, "the command ran and printed its environment");
      assert.ok(!output.includes(KEY), `key leaked into the command's environment (${policy.join(" ")})`);
      assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), "key leaked into the output");
    });
  }
  for (const file of filesUnder(ws.home)) {
    if (file === join(ws.home, "auth.json")) continue;
    assert.ok(!readFileSync(file, "utf8").includes(KEY), `key found in ${file}`);
  }
});

void test("an environment key wins over the saved one; CODEX_API_KEY wins over both", async () => {
  const ws = makeWorkspace();
  const login = await runCli(["login", "--with-api-key"], { cwd: ws.dir, home: ws.home, env: NO_ENV_KEY, stdin: KEY });
  assert.equal(login.code, 0, login.stderr);
  await withServer([turn(text("a")), turn(text("b"))], async (server) => {
    const fromEnv = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: "sk-env-key", CODEX_API_KEY: undefined } });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    const fromCodex = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: "sk-env-key", CODEX_API_KEY: "sk-codex-key" } });
    assert.equal(fromCodex.code, 0, fromCodex.stderr);
    assert.deepEqual(
      server.requests.map((r) => r.headers.authorization),
      ["Bearer sk-env-key", "Bearer sk-codex-key"],
    );
  });
});
