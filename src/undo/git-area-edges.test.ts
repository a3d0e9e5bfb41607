/**
 * Snapshots where the working tree or git misbehaves: a path read before that is no longer a
 * file, a snapshot under way when the session ends, locks left by killed gits, a file rewritten
 * with its time put back, a split index. Real git, real files; a PATH-shimmed git where git
 * itself must be slow or watched.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "./exclusions.js";
import { ShadowGit, findRepo, type GitRepo } from "./git-area.js";
import { makeGitShim, withPathOf } from "../../test/support/git-shim.js";

const OPTIONS = { limits: DEFAULT_LIMITS, mayRead: () => true, first: false };

/** A committed repository holding `files` (name → content). */
function makeRepo(files: Record<string, string>): { dir: string; git: (...args: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-edges-"));
  const git = (...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
  git("init", "-q");
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  git("add", ".");
  git("commit", "-q", "-m", "init");
  return { dir, git };
}

/** A store's folders (shadow objects, temporary indexes). */
function makeStore(): { objects: string; tmp: string } {
  const store = mkdtempSync(join(tmpdir(), "codex-ts-undo-store-"));
  for (const sub of ["objects", "tmp"]) mkdirSync(join(store, sub));
  return { objects: join(store, "objects"), tmp: join(store, "tmp") };
}

async function repoOf(dir: string): Promise<GitRepo> {
  const repo = await findRepo(dir);
  assert.ok(repo);
  return repo;
}

/** `git ls-tree -r` of a snapshot's tree: "mode type oid\tpath" lines. */
function listTree(repo: GitRepo, objects: string, tree: string): string {
  return execFileSync("git", ["ls-tree", "-r", tree], { cwd: repo.root, encoding: "utf8", env: { ...process.env, GIT_OBJECT_DIRECTORY: objects, GIT_ALTERNATE_OBJECT_DIRECTORIES: repo.objects } });
}

async function until(what: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !what(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

for (const [label, turnIntoOther, check] of [
  [
    "a folder",
    (dir: string) => {
      mkdirSync(join(dir, "a.txt"));
      writeFileSync(join(dir, "a.txt", "inner.txt"), "inner\n");
    },
    (listed: string) => assert.match(listed, /\ta\.txt\/inner\.txt\n/, "the folder's file is in it, as untracked"),
  ],
  [
    "a nested repository",
    (dir: string) => {
      mkdirSync(join(dir, "a.txt"));
      writeFileSync(join(dir, "a.txt", "f.txt"), "nested\n");
      for (const args of [["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "nested"]]) execFileSync("git", args, { cwd: join(dir, "a.txt") });
    },
    (listed: string) => assert.doesNotMatch(listed, /^160000 /m, "not taken in as a submodule"),
  ],
  [
    // Tests run as root, whom no file mode stops from reading: a FIFO is what git cannot read as a file.
    "a special file (a FIFO: what cannot be read as a file)",
    (dir: string) => execFileSync("mkfifo", [join(dir, "a.txt")]),
    (listed: string) => assert.doesNotMatch(listed, /\ta\.txt\n/, "left out, as a path that is not a file"),
  ],
] as const) {
  void test(`a tracked file the kept index read before, now ${label}: the next snapshot starts from a fresh copy and holds what a fresh snapshot holds`, async () => {
    const { dir } = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const repo = await repoOf(dir);
    const { objects, tmp } = makeStore();
    const kept = new ShadowGit(repo, objects, tmp);
    writeFileSync(join(dir, "a.txt"), "changed\n");
    const before = await (await kept.capture(OPTIONS)).tree;
    rmSync(join(dir, "a.txt"));
    turnIntoOther(dir);
    const after = await kept.capture({ ...OPTIONS, since: Promise.resolve(before) });
    const fresh = new ShadowGit(repo, objects, tmp);
    const tree = await after.tree;
    assert.equal(tree, await (await fresh.capture(OPTIONS)).tree);
    assert.deepEqual(await after.changes, await kept.diff(before, tree));
    check(listTree(repo, objects, tree));
    await Promise.all([kept.close(), fresh.close()]);
  });
}

void test("a tracked file the kept index read before, now denied by the permission profile: the next snapshot holds the user's index's version, never its content now", async () => {
  const { dir, git } = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
  const repo = await repoOf(dir);
  const { objects, tmp } = makeStore();
  let denied = false;
  const options = { ...OPTIONS, mayRead: (path: string) => !(denied && path.endsWith("/a.txt")) };
  const kept = new ShadowGit(repo, objects, tmp);
  writeFileSync(join(dir, "a.txt"), "changed\n");
  const before = await (await kept.capture(options)).tree;
  denied = true;
  writeFileSync(join(dir, "a.txt"), "secret now\n");
  const after = await kept.capture({ ...options, since: Promise.resolve(before) });
  const listed = listTree(repo, objects, await after.tree);
  assert.match(listed, new RegExp(`${git("rev-parse", "HEAD:a.txt").trim()}\ta\\.txt`), "the index's a.txt");
  await kept.close();
});

void test("closing while a snapshot's tree is still being written waits for that git, then leaves no index or lock behind", async () => {
  const { dir } = makeRepo({ "a.txt": "a\n" });
  const repo = await repoOf(dir);
  const { objects, tmp } = makeStore();
  // write-tree marks its start, takes its time, and marks its end.
  const shim = makeGitShim(`case "$*" in *write-tree*) touch "$SHIM_DIR/started"; sleep 0.3; "$REAL_GIT" "$@"; rc=$?; touch "$SHIM_DIR/finished"; exit $rc;; esac\nexec "$REAL_GIT" "$@"`);
  await withPathOf(shim, async () => {
    const shadow = new ShadowGit(repo, objects, tmp);
    writeFileSync(join(dir, "new.txt"), "new\n");
    const capture = await shadow.capture({ ...OPTIONS, first: true });
    await until(() => existsSync(join(shim.dir, "started")));
    assert.ok(existsSync(join(shim.dir, "started")), "the tree is being written");
    await shadow.close();
    assert.ok(existsSync(join(shim.dir, "finished")), "close waited for the git writing the tree");
    assert.deepEqual(readdirSync(tmp), [], "no index or lock is left");
    await capture.tree;
    assert.deepEqual(readdirSync(tmp), []);
    await assert.rejects(shadow.capture(OPTIONS), /session has ended/, "no snapshot after close");
  });
});

void test("every git a snapshot runs, git status too, has the shadow object folder: nothing can be written into the user's objects", async () => {
  const { dir } = makeRepo({ "a.txt": "a\n" });
  const repo = await repoOf(dir);
  const { objects, tmp } = makeStore();
  const shim = makeGitShim(`echo "\${GIT_OBJECT_DIRECTORY:-none} $*" >> "$SHIM_DIR/log"\nexec "$REAL_GIT" "$@"`);
  await withPathOf(shim, async () => {
    const shadow = new ShadowGit(repo, objects, tmp);
    const first = await shadow.capture({ ...OPTIONS, first: true });
    writeFileSync(join(dir, "a.txt"), "changed\n");
    const second = await shadow.capture({ ...OPTIONS, since: first.tree });
    await second.tree;
    await shadow.close();
  });
  const calls = readFileSync(join(shim.dir, "log"), "utf8").trim().split("\n");
  assert.ok(calls.some((line) => / status /.test(line)), "status ran");
  for (const line of calls) assert.ok(line.startsWith(`${objects} `), line);
});

void test("a file rewritten to the same size with its time put back is read again: a tree is not reused when the file's change time moved", async () => {
  const { dir, git } = makeRepo({ "a.txt": "a\n" });
  const repo = await repoOf(dir);
  const { objects, tmp } = makeStore();
  const shadow = new ShadowGit(repo, objects, tmp);
  const old = new Date(Date.now() - 3_600_000);
  writeFileSync(join(dir, "a.txt"), "one\n");
  utimesSync(join(dir, "a.txt"), old, old);
  const first = await (await shadow.capture(OPTIONS)).tree;
  // Into the next second: git (which records whole seconds here) sees the change time move too;
  // only a tree reused by its old key would miss the rewrite.
  await new Promise((resolve) => setTimeout(resolve, 1050 - (Date.now() % 1000)));
  writeFileSync(join(dir, "a.txt"), "two\n");
  utimesSync(join(dir, "a.txt"), old, old);
  const second = await shadow.capture({ ...OPTIONS, since: Promise.resolve(first) });
  const tree = await second.tree;
  assert.match(listTree(repo, objects, tree), new RegExp(`${git("hash-object", "a.txt").trim()}\ta\\.txt`), "the snapshot holds two, not the tree of one");
  assert.equal((await second.changes)?.length, 1);
  await shadow.close();
});

void test("a lock a killed git left on undo's status index is removed when stale, and git refreshes the copy again", async () => {
  const { dir } = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
  const repo = await repoOf(dir);
  const { objects, tmp } = makeStore();
  const shadow = new ShadowGit(repo, objects, tmp);
  await (await shadow.capture({ ...OPTIONS, first: true })).tree;
  const statusIndex = readdirSync(tmp).find((name) => name.startsWith("status-index-"));
  assert.ok(statusIndex);
  const copy = join(tmp, statusIndex);
  const minuteAgo = new Date(Date.now() - 60_000);
  utimesSync(copy, minuteAgo, minuteAgo);
  writeFileSync(`${copy}.lock`, "");
  utimesSync(`${copy}.lock`, minuteAgo, minuteAgo);
  // Same content, another time: git compares it, finds it unchanged, and records its new time.
  const halfMinuteAgo = new Date(Date.now() - 30_000);
  utimesSync(join(dir, "b.txt"), halfMinuteAgo, halfMinuteAgo);
  await (await shadow.capture(OPTIONS)).tree;
  assert.equal(existsSync(`${copy}.lock`), false, "the stale lock is gone");
  assert.ok(statSync(copy).mtimeMs > minuteAgo.getTime(), "git wrote the copy with the time it checked");
  await shadow.close();
  assert.deepEqual(readdirSync(tmp), []);
});

for (const [label, age] of [["a stale lock (removed)", 60_000], ["a fresh lock (the index is left for another)", 0]] as const) {
  void test(`a kept index with ${label} does not fail the next snapshot, nor any after it`, async () => {
    const { dir } = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const repo = await repoOf(dir);
    const { objects, tmp } = makeStore();
    const shadow = new ShadowGit(repo, objects, tmp);
    writeFileSync(join(dir, "a.txt"), "changed\n");
    let last = await (await shadow.capture(OPTIONS)).tree;
    const work = readdirSync(tmp).find((name) => name.startsWith("work-index-"));
    assert.ok(work);
    const lock = join(tmp, `${work}.lock`);
    writeFileSync(lock, "");
    const when = new Date(Date.now() - age);
    utimesSync(lock, when, when);
    for (const content of ["again\n", "and again\n"]) {
      writeFileSync(join(dir, "b.txt"), content);
      const next = await shadow.capture({ ...OPTIONS, since: Promise.resolve(last) });
      const tree = await next.tree;
      const fresh = new ShadowGit(repo, objects, tmp);
      assert.equal(tree, await (await fresh.capture(OPTIONS)).tree, content);
      await fresh.close();
      assert.deepEqual(await next.changes, await shadow.diff(last, tree));
      last = tree;
    }
    await shadow.close();
    assert.deepEqual(readdirSync(tmp), [], "nothing is left, the lock neither");
  });
}

void test("a user's split index: snapshots read the shared index, and neither write, add nor remove one in .git, nor the user's index", async () => {
  const { dir, git } = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
  git("-c", "core.splitIndex=true", "update-index", "--split-index");
  writeFileSync(join(dir, "c.txt"), "c\n");
  git("-c", "core.splitIndex=true", "add", "c.txt");
  const gitDir = join(dir, ".git");
  // Git sets a shared index's time whenever it reads an index linked to it (what keeps it from
  // expiring while one does): names and contents are what must not change.
  const shared = (): string[] => readdirSync(gitDir).filter((name) => name.startsWith("sharedindex.")).map((name) => `${name} ${readFileSync(join(gitDir, name)).toString("hex")}`);
  const userIndex = readFileSync(join(gitDir, "index"));
  const before = shared();
  assert.ok(before.length > 0, "the user's index is split");
  const repo = await repoOf(dir);
  const { objects, tmp } = makeStore();
  const shadow = new ShadowGit(repo, objects, tmp);
  const first = await shadow.capture({ ...OPTIONS, first: true });
  writeFileSync(join(dir, "a.txt"), "changed\n");
  const second = await shadow.capture({ ...OPTIONS, since: first.tree });
  const listed = listTree(repo, objects, await second.tree);
  for (const name of ["a.txt", "b.txt", "c.txt"]) assert.match(listed, new RegExp(`${git("hash-object", name).trim()}\t${name.replace(".", "\\.")}`), name);
  assert.deepEqual((await second.changes)?.map((c) => c.path), ["a.txt"]);
  await shadow.close();
  assert.deepEqual(shared(), before, "the shared indexes are as they were, and no other is made");
  assert.deepEqual(readFileSync(join(gitDir, "index")), userIndex);
});
