import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { colorDiff, diffReport, workingTreeDiff } from "./git-diff.js";
import { createTheme, setTheme, stripAnsi } from "./theme.js";

setTheme(createTheme(1));

const git = (cwd: string, ...args: string[]): void => {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "ignore" });
};

function repo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "git-diff-")));
  git(dir, "init", "-q");
  return dir;
}

void test("tracked changes against HEAD and untracked files, ignored files left out, from a subfolder too", async () => {
  const dir = repo();
  try {
    writeFileSync(join(dir, "a.txt"), "one\ntwo\n");
    writeFileSync(join(dir, ".gitignore"), "*.log\n");
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", "first");
    writeFileSync(join(dir, "a.txt"), "one\nTWO\n");
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "new file.md"), "hello\n");
    writeFileSync(join(dir, "noise.log"), "ignored\n");
    const result = await workingTreeDiff(join(dir, "sub"));
    assert.equal(result.kind, "diff");
    const text = result.kind === "diff" ? result.text : "";
    assert.match(text, /diff --git a\/a\.txt b\/a\.txt[\s\S]*-two\n\+TWO\n/);
    assert.match(text, /diff --git a\/sub\/new file\.md b\/sub\/new file\.md\nnew file mode 100644[\s\S]*\+hello\n/);
    assert.doesNotMatch(text, /noise\.log/);
    // Staged changes count too: the base is HEAD, not the index.
    git(dir, "add", "a.txt");
    const staged = await workingTreeDiff(dir);
    assert.match(staged.kind === "diff" ? staged.text : "", /\+TWO/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test("a repository without commits diffs against the empty tree; a clean one says so", async () => {
  const dir = repo();
  try {
    assert.deepEqual((await diffReport(dir)).map(stripAnsi), ["No changes against HEAD, and no untracked files."]);
    writeFileSync(join(dir, "x.txt"), "x\n");
    git(dir, "add", "x.txt");
    const result = await workingTreeDiff(dir);
    assert.match(result.kind === "diff" ? result.text : "", /new file mode[\s\S]*\+x\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test("outside a Git repository: a clear sentence", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "no-git-")));
  try {
    const result = await workingTreeDiff(dir);
    assert.deepEqual(result, { kind: "not_git", message: `${dir} is not inside a Git repository, so there is no diff to show` });
    assert.equal(stripAnsi((await diffReport(dir))[0] ?? ""), result.kind === "not_git" ? result.message : "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test("colours: headers bold, hunks accent, added green, removed red", () => {
  const lines = colorDiff("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n c\n");
  assert.deepEqual(lines, [
    "\u001b[1mdiff --git a/x b/x\u001b[22m",
    "\u001b[1m--- a/x\u001b[22m",
    "\u001b[1m+++ b/x\u001b[22m",
    "\u001b[36m@@ -1 +1 @@\u001b[39m",
    "\u001b[31m-a\u001b[39m",
    "\u001b[32m+b\u001b[39m",
    " c",
  ]);
});
