import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GitError, nulFields, runGit, runGitThen } from "./git.js";
import { makeGitShim } from "../../test/support/git-shim.js";
import { isAlive } from "../../test/support/process.js";

void test("two gits in one process start: the first's arguments reach it as they are, its input too, and the second's output is the answer", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-git-"));
  execFileSync("git", ["init", "-q"], { cwd: dir });
  const odd = `it's $HOME "quoted" \`x\`.txt`;
  for (const name of [odd, "from stdin.txt"]) writeFileSync(join(dir, name), "x\n");
  const out = await runGitThen({ cwd: dir, first: ["update-index", "--add", "--verbose", "--", odd], args: ["ls-files", "-z"] });
  assert.deepEqual(nulFields(out), [odd], "the first ran with the name as given; what it printed is dropped");
  const second = await runGitThen({ cwd: dir, first: ["update-index", "--add", "-z", "--stdin"], args: ["ls-files", "-z", "--", "from stdin.txt"], input: "from stdin.txt\0" });
  assert.deepEqual(nulFields(second), ["from stdin.txt"]);

  await assert.rejects(
    runGitThen({ cwd: dir, first: ["update-index", "--", "missing.txt"], args: ["ls-files"] }),
    (err: unknown) => err instanceof GitError && /^git update-index then ls-files failed: .*missing\.txt/.test(err.message),
    "a failing first stops there, and says which",
  );
});

void test("a git that hangs is ended at its time limit with everything it started: the shell of two gits, and a git's own children", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-git-"));
  execFileSync("git", ["init", "-q"], { cwd: dir });
  // A git that starts a child which hangs (as a hook or a filter might), with its output
  // elsewhere: nothing holds the caller's pipes open, so only the kill decides what survives.
  const shim = makeGitShim(`exec </dev/null >/dev/null 2>&1\nn=$(ls "$SHIM_DIR" | grep -c '^pid-')\nsleep 600 &\necho $! > "$SHIM_DIR/pid-$n"\nwait`);
  const survivors: number[] = [];
  try {
    for (const [label, call] of [
      ["two gits in one shell", () => runGitThen({ cwd: dir, first: ["status"], args: ["status"], env: { PATH: shim.path }, timeoutMs: 300 })],
      ["one git", () => runGit({ cwd: dir, args: ["status"], env: { PATH: shim.path }, timeoutMs: 300 })],
    ] as const) {
      const pidFile = join(shim.dir, `pid-${survivors.length}`);
      await assert.rejects(call(), (err: unknown) => err instanceof GitError && /took longer than/.test(err.message), label);
      assert.ok(existsSync(pidFile), `${label}: the hanging child was started`);
      const pid = Number(readFileSync(pidFile, "utf8"));
      survivors.push(pid);
      // SIGKILL is delivered at once, but the orphan is reaped by init: a zombie counts as dead.
      for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(isAlive(pid), false, `${label}: nothing it started is left running`);
    }
  } finally {
    for (const pid of survivors) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  }
});
