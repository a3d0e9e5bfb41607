import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyPatchInDirectory } from "./apply-patch.js";
import { parsePatch } from "./parser.js";
import { planPatch } from "./plan.js";
import { commitPlan, planTargets } from "./commit.js";
import type { PatchPlan } from "./types.js";
import type { WriteScope } from "../util/write-scope.js";
import { snapshot, workspace, wrapPatch } from "../../test/support/patch-tree.js";

const wrap = wrapPatch;

/** Commits a plan that must fail with `message`, and checks that every path is as it was. */
async function assertRolledBack(dir: string, plan: PatchPlan, message: string): Promise<void> {
  const before = snapshot(dir);
  await assert.rejects(commitPlan(plan), { message });
  assert.deepEqual(snapshot(dir), before);
}

const read = (dir: string, name: string): string => readFileSync(join(dir, name), "utf8");

void test("adds (into new folders), updates, deletes and moves, with the reference's summary", async () => {
  const dir = workspace({ "modify.txt": "line1\nline2\n", "delete.txt": "obsolete\n", "old/name.txt": "from\n" });
  const result = await applyPatchInDirectory(
    wrap(
      "*** Add File: nested/deeper/new.txt\n+created\n*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+to",
    ),
    dir,
  );
  assert.deepEqual(result, {
    ok: true,
    stdout: "Success. Updated the following files:\nA nested/deeper/new.txt\nM modify.txt\nM renamed/dir/name.txt\nD delete.txt\n",
    stderr: "",
  });
  assert.equal(read(dir, "nested/deeper/new.txt"), "created\n");
  assert.equal(read(dir, "modify.txt"), "line1\nchanged\n");
  assert.equal(read(dir, "renamed/dir/name.txt"), "to\n");
  assert.equal(existsSync(join(dir, "delete.txt")), false);
  assert.equal(existsSync(join(dir, "old/name.txt")), false);
});

void test("add overwrites an existing file and a move overwrites its destination", async () => {
  const dir = workspace({ "dup.txt": "old\n", "a.txt": "a\n", "b.txt": "b\n" });
  const result = await applyPatchInDirectory(wrap("*** Add File: dup.txt\n+new\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a\n+A"), dir);
  assert.equal(result.ok, true);
  assert.equal(read(dir, "dup.txt"), "new\n");
  assert.equal(read(dir, "b.txt"), "A\n");
  assert.equal(existsSync(join(dir, "a.txt")), false);
});

void test("hunks see the effect of earlier hunks on the same file", async () => {
  const dir = workspace();
  const result = await applyPatchInDirectory(wrap("*** Add File: f.txt\n+one\n*** Update File: f.txt\n@@\n-one\n+two"), dir);
  assert.equal(result.ok, true);
  assert.equal(read(dir, "f.txt"), "two\n");
});

void test("a chunk that cannot be found changes no file at all", async () => {
  const dir = workspace({ "a.txt": "a\n", "b.txt": "b\n" });
  const before = snapshot(dir);
  const result = await applyPatchInDirectory(
    wrap("*** Add File: new/dir/c.txt\n+c\n*** Delete File: a.txt\n*** Update File: b.txt\n@@\n-not there\n+x"),
    dir,
  );
  assert.equal(result.ok, false);
  assert.equal(result.stderr, `Failed to find expected lines in ${join(dir, "b.txt")}:\nnot there\n`);
  assert.deepEqual(snapshot(dir), before);
});

void test("a write that fails part-way is rolled back", async (t) => {
  if (process.getuid?.() === 0) {
    t.skip("root ignores directory permissions");
    return;
  }
  const dir = workspace({ "a.txt": "a\n", "locked/b.txt": "b\n" });
  chmodSync(join(dir, "locked"), 0o555);
  t.after(() => chmodSync(join(dir, "locked"), 0o755));
  const before = snapshot(dir);
  const result = await applyPatchInDirectory(wrap("*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: locked/b.txt\n@@\n-b\n+B"), dir);
  assert.equal(result.ok, false);
  assert.match(result.stderr, /^Failed to write file .*locked\/b\.txt: Permission denied \(os error 13\)\n$/);
  assert.deepEqual(snapshot(dir), before);
});

void test("a directory in the way is refused before anything is written", async () => {
  const dir = workspace({ "a.txt": "a\n", "sub/keep.txt": "k\n" });
  const before = snapshot(dir);
  const deleting = await applyPatchInDirectory(wrap("*** Update File: a.txt\n@@\n-a\n+A\n*** Delete File: sub"), dir);
  assert.equal(deleting.ok, false);
  assert.equal(deleting.stderr, `Failed to read ${join(dir, "sub")}: Is a directory (os error 21)\n`);
  const adding = await applyPatchInDirectory(wrap("*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: sub\n+x"), dir);
  assert.equal(adding.ok, false);
  assert.equal(adding.stderr, `Failed to write file ${join(dir, "sub")}: Is a directory (os error 21)\n`);
  assert.deepEqual(snapshot(dir), before);
});

void test("missing files are reported with the reference's wording", async () => {
  const dir = workspace();
  const update = await applyPatchInDirectory(wrap("*** Update File: nope.txt\n@@\n-a\n+b"), dir);
  assert.equal(update.stderr, `Failed to read file to update ${join(dir, "nope.txt")}: No such file or directory (os error 2)\n`);
  const del = await applyPatchInDirectory(wrap("*** Delete File: nope.txt"), dir);
  assert.equal(del.stderr, `Failed to read ${join(dir, "nope.txt")}: No such file or directory (os error 2)\n`);
});

void test("parse errors and empty patches fail with the standalone program's messages", async () => {
  const dir = workspace();
  assert.deepEqual(await applyPatchInDirectory("*** Begin Patch\n*** End Patch", dir), {
    ok: false,
    stdout: "",
    stderr: "No files were modified.\n",
  });
  assert.equal(
    (await applyPatchInDirectory(wrap("*** Update File: x"), dir)).stderr,
    "Invalid patch hunk on line 2: Update file hunk for path 'x' is empty\n",
  );
  assert.equal((await applyPatchInDirectory("nonsense", dir)).stderr, "Invalid patch: The first line of the patch must be '*** Begin Patch'\n");
});

void test("binary files are refused instead of being rewritten", async () => {
  const dir = workspace();
  writeFileSync(join(dir, "bin.dat"), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a]));
  const result = await applyPatchInDirectory(wrap("*** Update File: bin.dat\n@@\n-A\n+B"), dir);
  assert.equal(result.stderr, `Failed to read file to update ${join(dir, "bin.dat")}: stream did not contain valid UTF-8\n`);
});

void test("updates keep file permissions and write through symlinks", async () => {
  const dir = workspace({ "run.sh": "echo a\n", "real.txt": "r\n" });
  chmodSync(join(dir, "run.sh"), 0o755);
  symlinkSync("real.txt", join(dir, "link.txt"));
  const result = await applyPatchInDirectory(
    wrap("*** Update File: run.sh\n@@\n-echo a\n+echo b\n*** Update File: link.txt\n@@\n-r\n+R"),
    dir,
  );
  assert.equal(result.ok, true);
  assert.equal(statSync(join(dir, "run.sh")).mode & 0o777, 0o755);
  assert.equal(read(dir, "real.txt"), "R\n");
  assert.equal(readdirSync(dir).filter((n) => n.includes("codex-ts-patch")).length, 0, "no temporary files are left behind");
});

void test("the plan resolves paths against cwd and lists every path a patch writes or removes", async () => {
  const dir = workspace({ "a.txt": "a\n" });
  const parsed = parsePatch(wrap("*** Update File: a.txt\n*** Move to: ../out/b.txt\n@@\n-a\n+b\n*** Add File: /tmp/abs.txt\n+x"));
  const plan = await planPatch(parsed, dir);
  assert.deepEqual(planTargets(plan), [
    { path: join(dir, "a.txt"), followsLinks: false },
    { path: join(dir, "../out/b.txt"), followsLinks: true },
    { path: "/tmp/abs.txt", followsLinks: true },
  ]);
  assert.equal(plan.changes[0]?.movePath, join(dir, "../out/b.txt"));
  assert.equal(plan.changes[0]?.moveDisplayPath, "../out/b.txt");
  assert.equal(read(dir, "a.txt"), "a\n", "planning never writes");
});

void test("a commit that fails after some files were replaced puts them back", async () => {
  // The plan is built by hand so the failure happens in the second phase, even as root:
  // deleting a path that became a directory after planning.
  const dir = workspace({ "a.txt": "a\n" });
  mkdirSync(join(dir, "became-a-dir"));
  const plan: PatchPlan = {
    cwd: dir,
    patch: "",
    changes: [
      { ...changeBase, kind: "update", path: join(dir, "a.txt"), displayPath: "a.txt", oldContent: "a\n", newContent: "A\n" },
      { ...changeBase, kind: "add", path: join(dir, "fresh/new.txt"), displayPath: "fresh/new.txt", oldContent: null, newContent: "n\n" },
      { ...changeBase, kind: "delete", path: join(dir, "became-a-dir"), displayPath: "became-a-dir", oldContent: "x\n", newContent: null },
    ],
  };
  await assertRolledBack(dir, plan, `Failed to delete file ${join(dir, "became-a-dir")}: Is a directory (os error 21)`);
});

const changeBase = { movePath: null, moveDisplayPath: null, overwrittenContent: null, regions: null };

void test("a folder that cannot be created fails the whole patch", async () => {
  const dir = workspace({ "a.txt": "a\n", "blocker": "a file where a folder should be\n" });
  const before = snapshot(dir);
  const result = await applyPatchInDirectory(wrap("*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: blocker/inside.txt\n+x"), dir);
  assert.equal(result.ok, false);
  assert.equal(result.stderr, `Failed to create parent directories for ${join(dir, "blocker/inside.txt")}: File exists (os error 17)\n`);
  assert.deepEqual(snapshot(dir), before);
});

// The commit writes in place and undoes from memory: files keep their inode, mode and links, and a
// failure part-way through any phase puts every path back (contents, modes, symlinks, deleted
// files and the sources of moves), with no folder or file left behind.

const inode = (path: string): number => statSync(path).ino;

const planIn = (dir: string, body: string): Promise<PatchPlan> => planPatch(parsePatch(wrap(body)), dir);

void test("a commit rewrites files in place: same inode and mode, hard links and symlinks see the change, shrinking files are cut", async () => {
  const dir = workspace({ "run.sh": "echo a long first version\n", "data.txt": "d\n", "real.txt": "r\n" });
  chmodSync(join(dir, "run.sh"), 0o755);
  chmodSync(join(dir, "data.txt"), 0o640);
  linkSync(join(dir, "data.txt"), join(dir, "hard.txt"));
  symlinkSync("real.txt", join(dir, "link.txt"));
  const inodes = ["run.sh", "data.txt", "real.txt"].map((name) => inode(join(dir, name)));
  await commitPlan(
    await planIn(
      dir,
      "*** Update File: run.sh\n@@\n-echo a long first version\n+echo b\n" +
        "*** Update File: data.txt\n@@\n-d\n+d grows\n+over two lines\n" +
        "*** Update File: link.txt\n@@\n-r\n+R",
    ),
  );
  assert.deepEqual(snapshot(dir), {
    "data.txt": 'file 640 "d grows\\nover two lines\\n"',
    "hard.txt": 'file 640 "d grows\\nover two lines\\n"',
    "link.txt": "link -> real.txt",
    "real.txt": 'file 644 "R\\n"',
    "run.sh": 'file 755 "echo b\\n"',
  });
  assert.deepEqual(["run.sh", "data.txt", "real.txt"].map((name) => inode(join(dir, name))), inodes, "no file was replaced by a new one");
});

void test("a failure while deleting undoes every write, add, move and delete: modes, links and deleted files come back", async () => {
  const dir = workspace({ "run.sh": "echo a\n", "a.txt": "a\n", "keep.txt": "keep\n", "real.txt": "r\n", "z.txt": "z\n" });
  chmodSync(join(dir, "run.sh"), 0o755);
  chmodSync(join(dir, "keep.txt"), 0o600);
  symlinkSync("real.txt", join(dir, "link.txt"));
  const planned = await planIn(
    dir,
    "*** Update File: run.sh\n@@\n-echo a\n+echo b\n" +
      "*** Add File: new/deep/c.txt\n+c\n" +
      "*** Update File: a.txt\n*** Move to: moved/b.txt\n@@\n-a\n+b\n" +
      "*** Delete File: keep.txt\n" +
      "*** Delete File: link.txt\n" +
      "*** Delete File: z.txt",
  );
  // After planning, the last path to delete becomes a folder, so the commit fails at its very end.
  rmSync(join(dir, "z.txt"));
  mkdirSync(join(dir, "z.txt"));
  const runSh = inode(join(dir, "run.sh"));
  await assertRolledBack(dir, planned, `Failed to delete file ${join(dir, "z.txt")}: Is a directory (os error 21)`);
  assert.equal(inode(join(dir, "run.sh")), runSh, "restored in place too");
});

void test("a failure while writing undoes the writes before it, and a file created through a link to a missing file inside the scope goes again", async () => {
  const dir = workspace({ "a.txt": "a\n", "b.txt": "b\n" });
  symlinkSync("missing-target.txt", join(dir, "dangling.txt"));
  const planned = await planIn(
    dir,
    "*** Update File: a.txt\n@@\n-a\n+a, now much longer than before\n" +
      "*** Add File: dangling.txt\n+through the link\n" +
      "*** Delete File: b.txt\n" +
      "*** Add File: blocked.txt\n+x",
  );
  mkdirSync(join(dir, "blocked.txt"));
  const before = snapshot(dir);
  await assert.rejects(commitPlan(planned, scopeOf(dir)), { message: `Failed to write file ${join(dir, "blocked.txt")}: Is a directory (os error 21)` });
  assert.deepEqual(snapshot(dir), before);
});

/** A write scope of one canonical root, with its .git and .codex protected. */
function scopeOf(root: string): WriteScope {
  const real = realpathSync(root);
  return { roots: [real], protectedPaths: [join(real, ".git"), join(real, ".codex")], approved: [] };
}

void test("a content in more pieces than one vectored write takes is written whole", async () => {
  const lines = Array.from({ length: 6_000 }, (_, i) => `line ${i}`);
  const dir = workspace({ "big.txt": `${lines.join("\n")}\n` });
  const body: string[] = [];
  const expected = [...lines];
  for (let at = 2; at < lines.length; at += 5) {
    body.push("@@", ` ${lines[at - 1]}`, `-${lines[at]}`, `+changed ${at}`);
    expected[at] = `changed ${at}`;
  }
  const planned = await planIn(dir, `*** Update File: big.txt\n${body.join("\n")}`);
  assert.ok((planned.changes[0]?.contents?.new?.parts.length ?? 0) > 2_048, "the exact path kept the pieces apart");
  await commitPlan(planned);
  assert.equal(readFileSync(join(dir, "big.txt"), "utf8"), `${expected.join("\n")}\n`);
});
