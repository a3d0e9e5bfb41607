import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexContentDigest } from "./index-digest.js";

const digestOf = (file: string, oidBytes: number): string | null => indexContentDigest(readFileSync(file), oidBytes);

function repo(...initArgs: string[]): { dir: string; git: (...args: string[]) => string; index: string } {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-index-"));
  const git = (...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
  git("init", "-q", ...initArgs);
  mkdirSync(join(dir, "deep", "er"), { recursive: true });
  for (const name of ["a.txt", "deep/b.txt", "deep/er/c.txt", "deep/er/longer-name-here.txt"]) writeFileSync(join(dir, name), `${name}\n`);
  git("add", ".");
  return { dir, git, index: join(dir, ".git", "index") };
}

for (const [label, initArgs, version, oidBytes] of [
  ["version 2", [], "2", 20],
  ["version 3 (an intent-to-add entry)", [], "3", 20],
  ["version 4 (compressed paths)", [], "4", 20],
  ["a SHA-256 repository", ["--object-format=sha256"], "2", 32],
] as const) {
  void test(`the index digest of ${label} ignores file times and follows the entries`, () => {
    const { dir, git, index } = repo(...initArgs);
    if (version === "3") {
      writeFileSync(join(dir, "later.txt"), "later\n");
      git("add", "-N", "later.txt");
    }
    git("update-index", "--index-version", version);
    const digest = digestOf(index, oidBytes);
    assert.ok(digest, "readable");
    // New times for every file, and the index refreshed to them: no entry's content changed.
    const past = new Date("2025-06-01T00:00:00Z");
    for (const name of ["a.txt", "deep/b.txt", "deep/er/c.txt"]) utimesSync(join(dir, name), past, past);
    const before = readFileSync(index);
    git("status", "--porcelain");
    assert.notDeepEqual(readFileSync(index), before, "git status rewrote the index with the new times");
    assert.equal(digestOf(index, oidBytes), digest, "same entries, same digest");

    writeFileSync(join(dir, "deep/b.txt"), "changed\n");
    git("add", "deep/b.txt");
    assert.notEqual(digestOf(index, oidBytes), digest, "an entry's content changed");
    git("update-index", "--chmod=+x", "a.txt");
    const executable = digestOf(index, oidBytes);
    git("update-index", "--chmod=-x", "a.txt");
    assert.notEqual(digestOf(index, oidBytes), executable, "a mode changed");
  });
}

void test("the index digest is null for an index it cannot read entry by entry", () => {
  const { dir, git, index } = repo();
  git("update-index", "--split-index");
  assert.equal(digestOf(index, 20), null, "a split index keeps its entries elsewhere");
  writeFileSync(join(dir, "junk"), "not an index");
  assert.equal(digestOf(join(dir, "junk"), 20), null);
});
