import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GitError, nulFields, runGitThen } from "./git.js";

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
