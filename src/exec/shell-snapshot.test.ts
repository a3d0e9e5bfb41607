import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SNAPSHOT_MARKER, snapshotScript } from "./shell-snapshot-scripts.js";
import { SessionShellSnapshot, SnapshotError, captureShellSnapshot, removeStaleSnapshots, type ShellSnapshotFile } from "./shell-snapshot.js";
import { wrapWithSnapshot } from "./snapshot-wrapper.js";

const BASH = "/bin/bash";
const ZSH = ["/usr/bin/zsh", "/bin/zsh"].find((p) => existsSync(p));

interface Scratch {
  root: string;
  home: string;
  codexHome: string;
  cwd: string;
  env: Record<string, string>;
}

function scratch(files: Record<string, string>): Scratch {
  const root = mkdtempSync(join(tmpdir(), "snapshot-test-"));
  const home = join(root, "home");
  const codexHome = join(root, "codex");
  const cwd = join(root, "work");
  for (const d of [home, codexHome, cwd, join(home, "bin")]) mkdirSync(d, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(home, name), text);
  writeFileSync(join(home, "bin", "mytool"), "#!/bin/sh\necho mytool ran\n", { mode: 0o755 });
  // No SHLVL: the case where bash -c over a socket stdin (Node's pipes) reads ~/.bashrc unasked.
  return { root, home, codexHome, cwd, env: { HOME: home, PATH: "/usr/bin:/bin", LANG: "C.UTF-8" } };
}

const BASH_FILES = {
  ".bash_profile": 'echo profile >> "$HOME/profile-runs"\necho "welcome from the profile"\nexport FROM_PROFILE=yes\n',
  ".bashrc": [
    'echo rc >> "$HOME/rc-runs"',
    `export FROM_RC="it's \\"quoted\\""`,
    'export PATH="$HOME/bin:$PATH"',
    "export POLICY_VAR=from-rc",
    "greet() { echo \"hello $1\"; }",
    "shopt -s extglob",
    "",
  ].join("\n"),
};

/** Runs what the wrapper would spawn, with `env`, and returns stdout (stderr folded in). */
function runWrapped(argv: string[], s: Scratch, env: Record<string, string> = s.env): string {
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd: s.cwd, env, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
  return `${r.stdout}${r.stderr}`;
}

void test("wrapWithSnapshot leaves anything but a login-shell command alone", () => {
  const ref = { path: "/s.sh", shell: BASH, kind: "bash" as const };
  assert.equal(wrapWithSnapshot(["bash", "-c", "echo"], ref), null);
  assert.equal(wrapWithSnapshot(["ls", "-la"], ref), null);
  assert.equal(wrapWithSnapshot(["bash", "-lc"], ref), null);
});

void test("wrapWithSnapshot: the same shell evals the script after the snapshot; another shell is exec'd", () => {
  const ref = { path: "/tmp/it's.sh", shell: "/bin/zsh", kind: "zsh" as const };
  const same = wrapWithSnapshot(["zsh", "-lc", "echo 'a'", "zero", "one"], ref)!;
  assert.equal(same[0], "zsh");
  assert.equal(same[1], "-c");
  assert.deepEqual(same.slice(3), ["zero", "one"]);
  assert.match(same[2]!, /^if \. '\/tmp\/it'"'"'s\.sh' >\/dev\/null 2>&1; then :; fi\nbuiltin eval 'echo '"'"'a'"'"''$/);
  const other = wrapWithSnapshot(["/bin/bash", "-lc", "echo hi", "zero"], ref, ["KEEP_ME", "not a name"])!;
  assert.equal(other[0], "/bin/zsh");
  assert.equal(other.length, 3);
  assert.match(other[2]!, /__codex_keep_set_0="\$\{KEEP_ME\+x\}"/);
  assert.ok(!other[2]!.includes("not a name"));
  assert.ok(other[2]!.endsWith("exec '/bin/bash' '-c' 'echo hi' 'zero'"));
  const fromBash = wrapWithSnapshot(["zsh", "-lc", "true"], { path: "/s.sh", shell: BASH, kind: "bash" })!;
  assert.deepEqual(fromBash.slice(0, 3), [BASH, "--norc", "-c"]);
});

void test("a bash snapshot carries exports, PATH, functions and options; start-up files run once", async () => {
  const s = scratch(BASH_FILES);
  const file = await captureShellSnapshot({ shell: BASH, codexHome: s.codexHome, threadId: "t1", cwd: s.cwd, env: s.env });
  assert.match(file.path, new RegExp(`^${join(s.codexHome, "shell_snapshots")}/t1\\.${process.pid}-\\d+\\.sh$`));
  const text = readFileSync(file.path, "utf8");
  assert.ok(text.startsWith(`${SNAPSHOT_MARKER}\n`), "start-up chatter is cut off");
  assert.equal(statSync(file.path).mode & 0o777, 0o600, "only the user can read it");
  assert.ok(!text.includes("welcome from the profile"));
  assert.ok(!/declare -x (PWD|OLDPWD|SHLVL)=/.test(text), "directory and level variables are not recorded");

  const script = 'echo "$FROM_PROFILE|$FROM_RC"; mytool; greet you; shopt -q extglob && echo extglob; echo "$0 $1"';
  const argv = wrapWithSnapshot([BASH, "-lc", script, "zero", "one"], file)!;
  assert.deepEqual(argv.slice(0, 3), [BASH, "--norc", "-c"]);
  const out = runWrapped(argv, s);
  assert.equal(out, "yes|it's \"quoted\"\nmytool ran\nhello you\nextglob\nzero one\n");
  assert.equal(readFileSync(join(s.home, "rc-runs"), "utf8"), "rc\n");
  assert.equal(readFileSync(join(s.home, "profile-runs"), "utf8"), "profile\n");
});

void test("exported values survive the round trip byte for byte; readonly ones are left out; no subshell per variable", async () => {
  const tricky = "two\nlines, 'single' \"double\" $dollar `tick` back\\slash \u00e9\t|";
  const s = scratch({ ".bashrc": 'export TRICKY="$(cat "$HOME/tricky")"\ndeclare -rx LOCKED=1\n' });
  writeFileSync(join(s.home, "tricky"), tricky);
  // Forty more exports, where the dump used to fork once per variable (~3 ms each).
  const env = { ...s.env, ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`EXTRA_${i}`, `v${i}`])) };
  const file = await captureShellSnapshot({ shell: BASH, codexHome: s.codexHome, threadId: "t9", cwd: s.cwd, env });
  const text = readFileSync(file.path, "utf8");
  assert.ok(!/LOCKED/.test(text), "a readonly export is not recorded (sourcing it again would fail)");
  assert.match(text, /EXTRA_39/);
  const argv = wrapWithSnapshot([BASH, "-lc", 'printf %s "$TRICKY"'], file)!;
  assert.equal(runWrapped(argv, s), tricky);
  // bash's trace marks what runs in a command substitution with a second `+`: none per variable.
  const traced = spawnSync(BASH, ["-x", "-lc", snapshotScript("bash")], { env, cwd: s.cwd, encoding: "utf8" });
  assert.equal(traced.status, 0);
  assert.equal(traced.stderr.split("\n").filter((line) => /^\+{2,} .*declare -p/.test(line)).length, 0, "no subshell per variable");
  assert.match(traced.stderr, /EXTRA_39/, "the trace covers the export loop");
});

void test("a policy's `set` value wins over the snapshot's, and an unset one stays unset", async () => {
  const s = scratch(BASH_FILES);
  const file = await captureShellSnapshot({ shell: BASH, codexHome: s.codexHome, threadId: "t2", cwd: s.cwd, env: s.env });
  const argv = wrapWithSnapshot([BASH, "-lc", 'echo "[${POLICY_VAR-unset}] [$FROM_PROFILE]"'], file, ["POLICY_VAR"])!;
  assert.equal(runWrapped(argv, s, { ...s.env, POLICY_VAR: "from-policy" }), "[from-policy] [yes]\n");
  assert.equal(runWrapped(argv, s), "[unset] [yes]\n");
  // Without the override the start-up files' value is what a login shell would have given.
  assert.equal(runWrapped(wrapWithSnapshot([BASH, "-lc", 'echo "$POLICY_VAR"'], file)!, s), "from-rc\n");
});

void test("a zsh snapshot carries exports, functions and aliases", { skip: ZSH ? false : "zsh is not installed" }, async () => {
  const s = scratch({
    ".zprofile": 'echo zprofile >> "$HOME/zprofile-runs"\nexport FROM_ZPROFILE=yes\n',
    ".zshrc": 'echo zshrc >> "$HOME/zshrc-runs"\nexport FROM_ZSHRC=$\'two\\nlines\'\nexport PATH="$HOME/bin:$PATH"\nalias hi="echo aliased"\nzgreet() { echo "zsh says $1" }\n',
  });
  const file = await captureShellSnapshot({ shell: ZSH!, codexHome: s.codexHome, threadId: "t3", cwd: s.cwd, env: s.env });
  const out = runWrapped(wrapWithSnapshot(["zsh", "-lc", 'echo "$FROM_ZPROFILE $FROM_ZSHRC"; mytool; hi; zgreet x'], file)!, s);
  assert.equal(out, "yes two\nlines\nmytool ran\naliased\nzsh says x\n");
  // bash asked for by a zsh user: the environment carries over, zsh's functions do not.
  const viaBash = runWrapped(wrapWithSnapshot([BASH, "-lc", 'echo "$FROM_ZSHRC"; mytool'], file)!, s);
  assert.equal(viaBash, "two\nlines\nmytool ran\n");
  assert.equal(readFileSync(join(s.home, "zshrc-runs"), "utf8"), "zshrc\n");
});

void test("failures say why: a missing shell, start-up files that exit, a timeout", async () => {
  const s = scratch({ ".bashrc": "exit 3\n" });
  const base = { codexHome: s.codexHome, threadId: "t4", cwd: s.cwd, env: s.env };
  await assert.rejects(captureShellSnapshot({ ...base, shell: "/nowhere/bash" }), (err: Error) => err instanceof SnapshotError && /could not be started/.test(err.message));
  await assert.rejects(captureShellSnapshot({ ...base, shell: BASH }), /exited with status 3/);
  writeFileSync(join(s.home, ".bashrc"), "sleep 5\n");
  await assert.rejects(captureShellSnapshot({ ...base, shell: BASH, timeoutMs: 300 }), /took longer than 0\.3 s/);
  await assert.rejects(captureShellSnapshot({ ...base, shell: "/bin/sh" }), /not a shell codex-ts can snapshot/);
  assert.deepEqual(readdirSync(join(s.codexHome, "shell_snapshots")), [], "no temporary file is left behind");
});

void test("stale files of ended processes are removed; live ones and foreign names stay", async () => {
  const s = scratch({});
  const dir = join(s.codexHome, "shell_snapshots");
  mkdirSync(dir);
  const dead = Number(execFileSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).trim());
  const names = [`old.${dead}-1.sh`, `old.${dead}-2.tmp`, `live.${process.pid}-1.sh`, "ref.1795566104528731054.sh", "notes.txt"];
  for (const n of names) writeFileSync(join(dir, n), "");
  await removeStaleSnapshots(s.codexHome);
  assert.deepEqual(readdirSync(dir).sort(), [`live.${process.pid}-1.sh`, "notes.txt", "ref.1795566104528731054.sh"]);
});

void test("a session's snapshot: commands wait for it, other directories get a login shell, dispose removes it", async () => {
  const s = scratch(BASH_FILES);
  const failures: string[] = [];
  const session = new SessionShellSnapshot({ shell: BASH, codexHome: s.codexHome, threadId: "t5", cwd: s.cwd, env: s.env, onFailure: (r) => failures.push(r) });
  // The shell is started before the constructor returns (its output file is there already), not
  // at the event loop's next turn, which a session's busy start could put off for tens of ms.
  assert.ok(readdirSync(join(s.codexHome, "shell_snapshots")).some((name) => name.startsWith("t5.") && name.endsWith(".tmp")));
  const login = [BASH, "-lc", "echo $FROM_RC"];
  const wrapped = await session.spawnArgv(login, s.cwd, []);
  assert.notDeepEqual(wrapped, login);
  assert.equal(runWrapped(wrapped, s), "it's \"quoted\"\n");
  assert.deepEqual(await session.spawnArgv(login, join(s.cwd, "sub"), []), login);
  assert.deepEqual(await session.spawnArgv([BASH, "-c", "true"], s.cwd, []), [BASH, "-c", "true"]);
  const file = (await session.settled()) as ShellSnapshotFile;
  assert.ok(existsSync(file.path));
  await session.dispose();
  assert.ok(!existsSync(file.path));
  assert.deepEqual(failures, []);

  const broken = scratch({ ".bashrc": "exit 1\n" });
  const seen: string[] = [];
  const failing = new SessionShellSnapshot({ shell: BASH, codexHome: broken.codexHome, threadId: "t6", cwd: broken.cwd, env: broken.env, onFailure: (r) => seen.push(r) });
  assert.deepEqual(await failing.spawnArgv(login, broken.cwd, []), login);
  assert.deepEqual(await failing.spawnArgv(login, broken.cwd, []), login);
  assert.equal(seen.length, 1);
  assert.match(seen[0]!, /exited with status 1/);
  await failing.dispose();
});

/** Polls `check` every 20 ms for up to `ms`; true once it holds. */
async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (check()) return true;
  return check();
}

void test("start-up files are never cut short by the session's end; past the time limit they get SIGTERM first", async () => {
  // What `pyenv rehash` does: a lock file removed by an EXIT trap, in a child of the rc file.
  const rc = (seconds: number) => `bash -c 'touch "$HOME/lock"; trap "rm -f \\"$HOME/lock\\"" EXIT; sleep ${seconds}'\necho finished >> "$HOME/finished"\n`;
  const s = scratch({ ".bashrc": rc(1) });
  const lock = join(s.home, "lock");
  const failures: string[] = [];
  const session = new SessionShellSnapshot({ shell: BASH, codexHome: s.codexHome, threadId: "t7", cwd: s.cwd, env: s.env, onFailure: (r) => failures.push(r) });
  assert.ok(await eventually(() => existsSync(lock)), "the rc file started");
  // An interrupted turn stops waiting for the snapshot at once.
  const interrupt = new AbortController();
  const waiting = session.spawnArgv([BASH, "-lc", "true"], s.cwd, [], interrupt.signal);
  interrupt.abort();
  assert.deepEqual(await waiting, [BASH, "-lc", "true"]);
  session.dispose();
  assert.ok(existsSync(lock), "the session's end does not stop the start-up files");
  assert.ok(await eventually(() => existsSync(join(s.home, "finished")) && !existsSync(lock)), "they ran to the end");
  assert.deepEqual(failures, [], "a session that ends before its snapshot is not a failure");
  assert.ok(await eventually(() => readdirSync(join(s.codexHome, "shell_snapshots")).length === 0), "nothing is left behind");

  writeFileSync(join(s.home, ".bashrc"), rc(30));
  const base = { shell: BASH, codexHome: s.codexHome, threadId: "t9", cwd: s.cwd, env: s.env };
  await assert.rejects(captureShellSnapshot({ ...base, timeoutMs: 500 }), /took longer than 0\.5 s/);
  assert.ok(await eventually(() => !existsSync(lock)), "SIGTERM let the EXIT trap release the lock");
});

void test("start-up files that redefine printf or declare do not break the dump", async () => {
  const s = scratch({ ".bashrc": "printf() { echo hijacked; }\ndeclare() { echo hijacked; }\nexport FROM_RC=still-here\n" });
  const file = await captureShellSnapshot({ shell: BASH, codexHome: s.codexHome, threadId: "t8", cwd: s.cwd, env: s.env });
  assert.equal(runWrapped(wrapWithSnapshot([BASH, "-lc", 'echo "$FROM_RC"'], file)!, s), "still-here\n");
});
