import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "./exclusions.js";
import { ShadowGit, findRepo, hiddenFrom, type GitCapture } from "./git-area.js";
import { parseStatus } from "./git-output.js";

void test("git status's porcelain v2 gives changed tracked paths (spaces kept), untracked and ignored ones", () => {
  const out = [
    "# branch.oid 82028b4093b5718204032f7f3ad0a6118b91f6fc",
    "# branch.head main",
    "1 .M N... 100644 100644 100644 aaa bbb dir/with space.txt",
    "1 D. N... 100644 000000 000000 aaa 000 gone.txt",
    "u UU N... 100644 100644 100644 100644 a b c both.txt",
    "? new file.txt",
    "? nested-repo/",
    "! node_modules/",
    "! debug.log",
  ].join("\0") + "\0";
  assert.deepEqual(parseStatus(Buffer.from(out)), {
    tracked: ["dir/with space.txt", "gone.txt", "both.txt"],
    untracked: ["new file.txt", "nested-repo/"],
    ignored: ["node_modules/", "debug.log"],
    head: "82028b4093b5718204032f7f3ad0a6118b91f6fc",
  });
  assert.equal(parseStatus(Buffer.from("# branch.oid (initial)\0# branch.head main\0")).head, null, "no commit yet");
});

void test("a path is hidden from a snapshot when ignored, inside an ignored folder, or left out for its size or folder", () => {
  const capture: GitCapture = {
    tree: Promise.resolve("t"),
    head: null,
    untrackedFiles: [],
    untrackedDirs: [],
    ignored: ["node_modules/", "debug.log"],
    leftOut: { largeFiles: [{ path: "big.bin", bytes: 1 }], largeDirs: [{ path: "gen", files: 300 }] },
  };
  for (const path of ["node_modules/x.js", "debug.log", "big.bin", "gen/a.ts"]) assert.equal(hiddenFrom(capture, path), true, path);
  for (const path of ["src/a.ts", "generated.ts", "debug.log.txt"]) assert.equal(hiddenFrom(capture, path), false, path);
});

void test("a file rewritten within the second its index entry was written is snapshotted with its new content (git's racy-clean check holds in the copied index)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-racy-"));
  const git = (...args: string[]): string => execFileSync("git", args, { cwd: dir, encoding: "utf8" });
  git("init", "-q");
  const second = new Date("2026-01-01T00:00:00.100Z");
  writeFileSync(join(dir, "a.txt"), "one\n");
  utimesSync(join(dir, "a.txt"), second, second);
  git("add", "a.txt");
  // The index written in the same second as the file: git cannot trust the entry's times.
  const indexTime = new Date("2026-01-01T00:00:00.500Z");
  utimesSync(join(dir, ".git", "index"), indexTime, indexTime);
  // Same size, same inode, same second: only the content tells the change.
  writeFileSync(join(dir, "a.txt"), "ONE\n");
  const rewritten = new Date("2026-01-01T00:00:00.300Z");
  utimesSync(join(dir, "a.txt"), rewritten, rewritten);

  const repo = await findRepo(dir);
  assert.ok(repo);
  const store = mkdtempSync(join(tmpdir(), "codex-ts-undo-store-"));
  for (const sub of ["objects", "tmp"]) mkdirSync(join(store, sub), { recursive: true });
  const shadow = new ShadowGit(repo, join(store, "objects"), join(store, "tmp"));
  const capture = await shadow.capture({ limits: DEFAULT_LIMITS, mayRead: () => true, first: false });
  const listed = execFileSync("git", ["ls-tree", await capture.tree, "a.txt"], { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_OBJECT_DIRECTORY: join(store, "objects"), GIT_ALTERNATE_OBJECT_DIRECTORIES: repo.objects } });
  assert.match(listed, new RegExp(git("hash-object", "a.txt").trim()), "the snapshot holds ONE, not the index's one");
});

void test("a snapshot started from the index kept from the last one holds what one from a fresh copy of the user's index holds", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-kept-"));
  const git = (...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
  git("init", "-q");
  mkdirSync(join(dir, "src"));
  for (const name of ["a.txt", "b.txt", "src/c.txt", "src/d.txt"]) writeFileSync(join(dir, name), `${name}\n`);
  git("add", ".");
  git("commit", "-q", "-m", "init");
  const repo = await findRepo(dir);
  assert.ok(repo);
  const store = mkdtempSync(join(tmpdir(), "codex-ts-undo-store-"));
  for (const sub of ["objects", "tmp"]) mkdirSync(join(store, sub), { recursive: true });
  const kept = new ShadowGit(repo, join(store, "objects"), join(store, "tmp"));
  const options = { limits: { ...DEFAULT_LIMITS, largeFileBytes: 64 }, mayRead: () => true, first: false };
  let last: string = await (await kept.capture(options)).tree;
  const steps: Array<[string, () => void]> = [
    ["a tracked file changed, files created", () => {
      writeFileSync(join(dir, "a.txt"), "changed\n");
      writeFileSync(join(dir, "new.txt"), "new\n");
      mkdirSync(join(dir, "gen"));
      writeFileSync(join(dir, "gen", "out.txt"), "generated\n");
    }],
    ["the change undone by git, a created file removed, a folder ignored", () => {
      git("checkout", "--", "a.txt");
      rmSync(join(dir, "new.txt"));
      writeFileSync(join(dir, ".gitignore"), "gen/\n");
    }],
    ["an untracked file grown past the size limit, a tracked one deleted", () => {
      writeFileSync(join(dir, ".gitignore"), `gen/\n${"#".repeat(100)}\n`);
      rmSync(join(dir, "b.txt"));
    }],
    ["a tracked file replaced by a folder", () => {
      rmSync(join(dir, "src", "c.txt"));
      mkdirSync(join(dir, "src", "c.txt"));
      writeFileSync(join(dir, "src", "c.txt", "inner.txt"), "inner\n");
    }],
    ["and back to a file", () => {
      rmSync(join(dir, "src", "c.txt"), { recursive: true });
      writeFileSync(join(dir, "src", "c.txt"), "src/c.txt\n");
    }],
    ["the user's index changed", () => {
      writeFileSync(join(dir, "src", "d.txt"), "staged\n");
      git("add", "src/d.txt");
      writeFileSync(join(dir, "later.txt"), "later\n");
    }],
  ];
  for (const [label, step] of steps) {
    step();
    const snapshot = await kept.capture({ ...options, since: Promise.resolve(last) });
    const freshGit: ShadowGit = new ShadowGit(repo, join(store, "objects"), join(store, "tmp"));
    const fresh = await freshGit.capture(options);
    const tree = await snapshot.tree;
    assert.equal(tree, await fresh.tree, label);
    await freshGit.close();
    assert.deepEqual(await snapshot.changes, await kept.diff(last, tree), `${label}: the changes`);
    last = tree;
  }
  await kept.close();
  assert.deepEqual(readdirSync(join(store, "tmp")), [], "the kept indexes are removed when the session ends");
});

void test("the repository's object format is found with it (SHA-256 ids are 32 bytes)", async () => {
  for (const [format, bytes] of [["sha1", 20], ["sha256", 32]] as const) {
    const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-format-"));
    execFileSync("git", ["init", "-q", `--object-format=${format}`], { cwd: dir });
    const repo = await findRepo(dir);
    assert.equal(repo?.oidBytes, bytes, format);
    assert.equal(repo?.prefix, "");
  }
});

void test("git status refreshes undo's own copy of the user's index, never the user's index: what it had to read by content it reads once", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-refresh-"));
  const git = (...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
  git("init", "-q");
  for (const name of ["a.txt", "b.txt", "c.txt"]) writeFileSync(join(dir, name), `${name}\n`);
  git("add", ".");
  git("commit", "-q", "-m", "init");
  // Every file's time in the index's own second, as after a checkout: git must compare each by
  // content whenever it reads that index, until an index is written again.
  const index = join(dir, ".git", "index");
  const second = new Date("2026-01-01T00:00:00.000Z");
  for (const name of ["a.txt", "b.txt", "c.txt"]) utimesSync(join(dir, name), second, second);
  utimesSync(index, new Date("2026-01-01T00:00:00.500Z"), new Date("2026-01-01T00:00:00.500Z"));
  const userIndex = readFileSync(index);
  const userTimes = statSync(index);
  const gitFolder = (): string[] => readdirSync(join(dir, ".git"), { recursive: true, encoding: "utf8" }).map((name) => `${name} ${statSync(join(dir, ".git", name)).mtimeMs}`).sort();
  const before = gitFolder();
  writeFileSync(join(dir, "b.txt"), "B.TXT\n");
  utimesSync(join(dir, "b.txt"), second, second);

  const repo = await findRepo(dir);
  assert.ok(repo);
  const store = mkdtempSync(join(tmpdir(), "codex-ts-undo-store-"));
  for (const sub of ["objects", "tmp"]) mkdirSync(join(store, sub), { recursive: true });
  const shadow = new ShadowGit(repo, join(store, "objects"), join(store, "tmp"));
  const first = await shadow.capture({ limits: DEFAULT_LIMITS, mayRead: () => true, first: true });
  const tree = await first.tree;
  const statusIndex = readdirSync(join(store, "tmp")).find((name) => name.startsWith("status-index-"));
  assert.ok(statusIndex, "status ran on undo's copy");
  assert.ok(statSync(join(store, "tmp", statusIndex)).mtimeMs > userTimes.mtimeMs, "git wrote the copy with the file times it checked");
  assert.deepEqual(readFileSync(index), userIndex, "the user's index is not written");
  assert.equal(statSync(index).mtimeMs, userTimes.mtimeMs);

  const listed = execFileSync("git", ["ls-tree", tree, "b.txt"], { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_OBJECT_DIRECTORY: join(store, "objects"), GIT_ALTERNATE_OBJECT_DIRECTORIES: repo.objects } });
  assert.match(listed, new RegExp(git("hash-object", "b.txt").trim()), "the same-second rewrite of b.txt is in the snapshot");
  // The next snapshot reads the refreshed copy: the same tree, the user's index still untouched.
  const again = await shadow.capture({ limits: DEFAULT_LIMITS, mayRead: () => true, first: false, since: first.tree });
  assert.equal(await again.tree, tree);
  assert.deepEqual(await again.changes, []);
  assert.deepEqual(readFileSync(index), userIndex);
  assert.deepEqual(gitFolder(), before, "nothing in .git is written");
  await shadow.close();
  assert.deepEqual(readdirSync(join(store, "tmp")), [], "undo's indexes are removed with the session");
});
