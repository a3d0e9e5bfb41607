import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StatusIndex } from "./status-index.js";

function repo(): { dir: string; git: (...args: string[]) => string; index: string; tmp: string } {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-status-index-"));
  const git = (...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
  git("init", "-q");
  for (const name of ["a.txt", "b.txt"]) writeFileSync(join(dir, name), `${name}\n`);
  git("add", ".");
  return { dir, git, index: join(dir, ".git", "index"), tmp: mkdtempSync(join(tmpdir(), "codex-ts-undo-status-tmp-")) };
}

/** Long ago: an index written then is not "recent", so its times are trusted. */
const past = (seconds: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

void test("the status index is a copy of the user's index with its times, made again only when the entries change", () => {
  const { dir, git, index, tmp } = repo();
  utimesSync(index, past(1), past(1));
  const copy = new StatusIndex(index, 20, tmp);
  const now = Date.now();
  copy.update(now);
  assert.deepEqual(readFileSync(copy.file), readFileSync(index), "a copy of the bytes");
  assert.equal(statSync(copy.file).mtimeMs, statSync(index).mtimeMs, "with the index's time, so git's racy-clean check holds in it");
  const first = copy.generation;

  copy.update(now);
  assert.equal(copy.generation, first, "the user's index unchanged: the same copy");

  // The user's index rewritten with the same entries (git refreshing file times).
  utimesSync(join(dir, "a.txt"), past(0), past(0));
  git("update-index", "--refresh");
  utimesSync(index, past(2), past(2));
  writeFileSync(copy.file, "what git wrote into the copy");
  copy.update(now);
  assert.equal(copy.generation, first, "the same entries: the copy (and what git wrote into it) is kept");
  assert.equal(readFileSync(copy.file, "utf8"), "what git wrote into the copy");

  writeFileSync(join(dir, "b.txt"), "staged\n");
  git("add", "b.txt");
  utimesSync(index, past(3), past(3));
  copy.update(now);
  assert.notEqual(copy.generation, first, "other entries: a new copy");
  assert.deepEqual(readFileSync(copy.file), readFileSync(index));

  rmSync(copy.file);
  const second = copy.generation;
  copy.update(now);
  assert.ok(existsSync(copy.file), "a copy removed from under it is made again");
  assert.notEqual(copy.generation, second);

  copy.remove();
  assert.equal(existsSync(copy.file), false, "removed when the session ends");
});

void test("an index rewritten at once with other entries (same size, same second) is copied again; a missing one copies as none", () => {
  const { git, index, tmp } = repo();
  const copy = new StatusIndex(index, 20, tmp);
  copy.update(Date.now() - 1000);
  const first = copy.generation;
  // Rewritten at once with other entries, its modification time kept: the read tells.
  const times = statSync(index);
  git("update-index", "--chmod=+x", "a.txt");
  utimesSync(index, times.atime, times.mtime);
  copy.update(times.mtimeMs - 1);
  assert.notEqual(copy.generation, first, "other entries: a new copy");
  assert.deepEqual(readFileSync(copy.file), readFileSync(index));

  rmSync(index);
  copy.update(Date.now());
  assert.equal(existsSync(copy.file), false, "no index: git reads the missing copy as an empty one");
  const none = copy.generation;
  copy.update(Date.now());
  assert.equal(copy.generation, none, "still none: nothing to copy again");
});
