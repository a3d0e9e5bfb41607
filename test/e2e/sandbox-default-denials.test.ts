/**
 * The built-in denials as a user gets them without writing any profile (`sandbox_mode`, here
 * workspace-write and read-only), under bubblewrap and Landlock (forced one at a time), with the
 * config loaded as the CLI loads it. A project with a `.env` at its root and deeper, and an SSH
 * key in `~/.ssh` (a folder no command may write: /tmp and $TMPDIR are excluded, so the home
 * folder is not in a writable root).
 *
 * bubblewrap hides them all at no cost. Landlock can hide a file only by taking the right to
 * create, rename and delete entries away from the writable folders above it, so it enforces the
 * built-in denials only where no writable folder is above (the SSH key; everything under
 * read-only), says once what stays readable, and the project root stays writable. A denial the
 * user wrote is enforced strictly (the deny-read battery, sandbox-deny-read.test.ts).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load-config.js";
import { createCommandEnv } from "../../src/exec/env.js";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { FileSystemGuard } from "../../src/sandbox/fs-guard.js";
import { landlockStatus } from "../../src/sandbox/landlock.js";
import { sandboxCommand } from "../../src/sandbox/launcher.js";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { callOutputText, fnCall, text, turn } from "../support/model-server.js";

const base = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-default-denials-")));
after(() => rmSync(base, { recursive: true, force: true }));

let count = 0;

interface Scene {
  work: string;
  env: Record<string, string>;
  guard: FileSystemGuard;
  warnings: string[];
  policy: ReturnType<typeof loadConfig>["sandboxPolicy"];
}

const OWN_ENV_DENIAL = 'default_permissions = "own"\n[permissions.own]\nextends = ":workspace"\n[permissions.own.filesystem]\n":project_roots" = { "**/.env" = "none" }\n';

function scene(mode: "workspace-write" | "read-only", config = `sandbox_mode = "${mode}"\n[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n`): Scene {
  const root = join(base, `scene-${count++}`);
  const work = join(root, "work");
  const home = join(root, "home");
  const codexHome = join(root, "codex");
  for (const dir of [join(work, ".git"), join(work, "a"), join(home, ".ssh"), codexHome, join(root, "tmp")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(work, ".env"), "ROOT-ENV-MARKER\n");
  writeFileSync(join(work, "a", ".env"), "DEEP-ENV-MARKER\n");
  writeFileSync(join(home, ".ssh", "id_ed25519"), "SSH-KEY-MARKER\n");
  writeFileSync(join(codexHome, "config.toml"), config);
  const loaded = loadConfig({ cwd: work, overrides: [], env: { CODEX_HOME: codexHome, HOME: home, TMPDIR: join(root, "tmp") } });
  const warnings: string[] = [];
  const guard = new FileSystemGuard(loaded.fileSystemRules, { warn: (message) => warnings.push(message) });
  const env = createCommandEnv({}, { ...process.env, HOME: home, TMPDIR: join(root, "tmp") });
  return { work, env, guard, warnings, policy: loaded.sandboxPolicy };
}

async function run(mechanism: "bwrap" | "landlock", s: Scene, script: string, policy = s.policy): Promise<{ sandbox: string; status: number | null; output: string }> {
  const command = await sandboxCommand({ policy, cwd: s.work, argv: ["sh", "-c", `exec 2>&1; ${script}`], env: s.env, linuxSandbox: mechanism, guard: s.guard });
  const [file = "", ...args] = command.argv;
  const r = spawnSync(file, args, { cwd: s.work, env: command.env, encoding: "utf8", timeout: 30_000 });
  return { sandbox: command.sandbox, status: r.status, output: `${r.stdout}${r.stderr}` };
}

const READ_ALL = 'cat .env; cat a/.env; cat "$HOME/.ssh/id_ed25519"; echo made > made.txt && cat made.txt; echo deeper > a/made.txt && cat a/made.txt';

const linuxOnly = process.platform !== "linux" ? "bubblewrap and Landlock are Linux's" : false;

void test("bubblewrap hides every built-in denial and the project root stays writable", { skip: linuxOnly }, async (t) => {
  if ((await findBwrap(base)) === null) return t.skip("bubblewrap cannot run here");
  const s = scene("workspace-write");
  const r = await run("bwrap", s, READ_ALL);
  assert.equal(r.sandbox, "bwrap");
  assert.doesNotMatch(r.output, /MARKER/);
  assert.match(r.output, /made\ndeeper\n$/);
  assert.deepEqual(s.warnings, []);
});

void test("Landlock: built-in denials under a writable folder stay readable, with one warning, and the root stays writable; the SSH key stays hidden", { skip: linuxOnly }, async (t) => {
  const status = await landlockStatus();
  if (!status.available) return t.skip(`Landlock is unavailable: ${status.reason ?? ""}`);
  const s = scene("workspace-write");
  const first = await run("landlock", s, READ_ALL);
  assert.equal(first.sandbox, "landlock");
  assert.match(first.output, /^ROOT-ENV-MARKER\nDEEP-ENV-MARKER\n/);
  assert.doesNotMatch(first.output, /SSH-KEY-MARKER/);
  assert.match(first.output, /made\ndeeper\n$/, first.output);
  assert.equal(s.warnings.length, 1);
  const warning = s.warnings[0] ?? "";
  assert.match(warning, /Landlock/);
  assert.ok(warning.includes(join(s.work, ".env")) && warning.includes(join(s.work, "a", ".env")), warning);
  assert.ok(!warning.includes("id_ed25519"), "the key is enforced, so not named");
  assert.match(warning, /make bubblewrap usable/);
  assert.match(warning, /"\*\*\/\.env" = "none"/);

  // Said once per guard (a session), however many commands follow.
  await run("landlock", s, "cat .env >/dev/null");
  assert.equal(s.warnings.length, 1);

  // Under read-only nothing is writable, so enforcing them costs nothing: all hidden, no warning.
  const readOnly = scene("read-only");
  const ro = await run("landlock", readOnly, 'cat .env; cat a/.env; cat "$HOME/.ssh/id_ed25519"; echo listed');
  assert.doesNotMatch(ro.output, /MARKER/);
  assert.match(ro.output, /listed\n$/);
  assert.deepEqual(readOnly.warnings, []);
});

void test("Landlock: a .env denial the user wrote is enforced at its cost, and one warning names the cost", { skip: linuxOnly }, async (t) => {
  const status = await landlockStatus();
  if (!status.available) return t.skip(`Landlock is unavailable: ${status.reason ?? ""}`);
  const s = scene("workspace-write", OWN_ENV_DENIAL);
  const r = await run("landlock", s, "cat .env; cat a/.env; echo made > made.txt; echo end");
  assert.equal(r.sandbox, "landlock");
  assert.doesNotMatch(r.output, /ENV-MARKER/);
  assert.match(r.output, /made\.txt: Permission denied/, "no new entry in the project root: the price of hiding its .env");
  const costs = s.warnings.filter((w) => w.includes("Your permission profile denies"));
  assert.equal(costs.length, 1, s.warnings.join("\n"));
  assert.ok((costs[0] ?? "").includes(join(s.work, ".env")), costs[0]);
  assert.match(costs[0] ?? "", /cannot create, rename or delete entries/);
  await run("landlock", s, "true");
  assert.equal(s.warnings.filter((w) => w.includes("Your permission profile denies")).length, 1, "said once");
});

void test("Landlock: a command the user let run outside the sandbox is not confined for built-in denials alone", { skip: linuxOnly }, async (t) => {
  const status = await landlockStatus();
  if (!status.available) return t.skip(`Landlock is unavailable: ${status.reason ?? ""}`);
  const s = scene("workspace-write");
  // Full access with the whole disk writable: every built-in denial would cost write access.
  const r = await run("landlock", s, 'cat "$HOME/.ssh/id_ed25519"', { type: "danger-full-access" });
  assert.equal(r.sandbox, "none");
  assert.match(r.output, /SSH-KEY-MARKER/);
  assert.equal(s.warnings.length, 1);
  assert.ok((s.warnings[0] ?? "").includes("id_ed25519"));
});

void test("a session under Landlock says it once, as a warning event, however many commands run", { skip: linuxOnly }, async (t) => {
  const status = await landlockStatus();
  if (!status.available) return t.skip(`Landlock is unavailable: ${status.reason ?? ""}`);
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, ".env"), "SESSION-ENV-MARKER\n");
  const cmd = (script: string, id: string): ReturnType<typeof fnCall> => fnCall("exec_command", { cmd: script }, id);
  await withServer([turn(cmd("cat .env", "c1")), turn(cmd("touch made-at-root && ls", "c2")), turn(text("done"))], async (server) => {
    const run = await exec(server, ["-s", "workspace-write", "go"], { cwd: ws.dir, home: ws.home, env: { CODEX_TS_LINUX_SANDBOX: "landlock" } });
    assert.equal(run.code, 0, run.stderr);
    const warnings = run.stderr.split("\n").filter((line) => line.includes("built-in denials"));
    assert.equal(warnings.length, 1, run.stderr);
    assert.ok(warnings[0]?.includes(join(realpathSync(ws.dir), ".env")), warnings[0]);
    assert.match(callOutputText(server, "c2"), /made-at-root/);
    assert.match(callOutputText(server, "c1"), /SESSION-ENV-MARKER/, "left out under Landlock, as the warning says");
  });
});
