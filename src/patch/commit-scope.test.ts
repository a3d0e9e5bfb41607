/**
 * The commit under a write scope, as the agent's patches run: every path is resolved at the
 * moment of its write without letting the kernel follow a link, and a write that would land
 * outside the scope (or in a protected folder) fails the whole patch, which is undone. Links
 * that stay inside the scope work as before.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { snapshot, workspace, wrapPatch } from "../../test/support/patch-tree.js";
import type { WriteScope } from "../util/write-scope.js";
import { commitPlan } from "./commit.js";
import { parsePatch } from "./parser.js";
import { planPatch } from "./plan.js";
import type { PatchPlan } from "./types.js";

/** A project folder (the scope's root) and a folder outside it. */
function scene(files: Record<string, string> = {}): { dir: string; outside: string; scope: WriteScope } {
  const dir = workspace(files);
  const outside = realpathSync(workspace());
  return { dir, outside, scope: { roots: [dir], protectedPaths: [join(dir, ".git"), join(dir, ".codex")], approved: [] } };
}

const planIn = (dir: string, body: string): Promise<PatchPlan> => planPatch(parsePatch(wrapPatch(body)), dir);

/** Commits a plan that must be refused with `message`, and checks nothing changed in either folder. */
async function assertRefused(plan: PatchPlan, scope: WriteScope, folders: string[], message: string | RegExp): Promise<void> {
  const before = folders.map(snapshot);
  await assert.rejects(commitPlan(plan, scope), typeof message === "string" ? { message } : message);
  assert.deepEqual(folders.map(snapshot), before);
}

const outsideMessage = (path: string, leadsTo: string): string =>
  `Failed to write file ${path}: the path leads to ${leadsTo}, outside the folders this session may write to`;

void test("a link to a missing file outside the scope is not written through: the target is not created", async () => {
  const { dir, outside, scope } = scene({ "a.txt": "a\n" });
  symlinkSync(join(outside, "pwned.txt"), join(dir, "notes.txt"));
  const plan = await planIn(dir, "*** Update File: a.txt\n@@\n-a\n+A\n*** Add File: notes.txt\n+pwned");
  await assertRefused(plan, scope, [dir, outside], outsideMessage(join(dir, "notes.txt"), join(outside, "pwned.txt")));
  assert.equal(existsSync(join(outside, "pwned.txt")), false);
});

void test("a link to an existing file outside the scope is not written through, by an update or an add", async () => {
  const { dir, outside, scope } = scene();
  writeFileSync(join(outside, "secret.txt"), "keep\n");
  symlinkSync(join(outside, "secret.txt"), join(dir, "link.txt"));
  await assertRefused(await planIn(dir, "*** Update File: link.txt\n@@\n-keep\n+pwned"), scope, [dir, outside], outsideMessage(join(dir, "link.txt"), join(outside, "secret.txt")));
  await assertRefused(await planIn(dir, "*** Add File: link.txt\n+pwned"), scope, [dir, outside], outsideMessage(join(dir, "link.txt"), join(outside, "secret.txt")));
  assert.equal(readFileSync(join(outside, "secret.txt"), "utf8"), "keep\n");
});

void test("a folder link on the way is followed only while it stays inside the scope; no folder is created outside", async () => {
  const { dir, outside, scope } = scene();
  mkdirSync(join(dir, "real"));
  symlinkSync(outside, join(dir, "away"));
  symlinkSync("real", join(dir, "inner"));
  await assertRefused(await planIn(dir, "*** Add File: away/new/deep.txt\n+x"), scope, [dir, outside], `Failed to create parent directories for ${join(dir, "away/new/deep.txt")}: the path leads to ${join(outside, "new")}, outside the folders this session may write to`);
  await commitPlan(await planIn(dir, "*** Add File: inner/sub/ok.txt\n+ok"), scope);
  assert.equal(readFileSync(join(dir, "real/sub/ok.txt"), "utf8"), "ok\n");
});

void test("protected folders stay closed, also when reached through a link", async () => {
  const { dir, scope } = scene({ ".git/config": "[core]\n" });
  symlinkSync(".git", join(dir, "gitlink"));
  await assertRefused(
    await planIn(dir, "*** Update File: gitlink/config\n@@\n-[core]\n+[core]\n+\thooksPath = /tmp/evil"),
    scope,
    [dir],
    `Failed to write file ${join(dir, "gitlink/config")}: the path leads to ${join(dir, ".git/config")}, inside ${join(dir, ".git")}, which stays read-only`,
  );
  await assertRefused(await planIn(dir, "*** Add File: .codex/config.toml\n+x = 1"), scope, [dir], /Failed to create parent directories for .*\.codex\/config\.toml: the path leads to .*\.codex, inside .*\.codex, which stays read-only/);
});

void test("what the user approved is written where it led when approved, folders on the way included", async () => {
  const { dir, outside, scope } = scene();
  symlinkSync(join(outside, "approved.txt"), join(dir, "notes.txt"));
  await commitPlan(await planIn(dir, `*** Add File: notes.txt\n+yes\n*** Add File: ${outside}/made/for/it.txt\n+also`), {
    ...scope,
    approved: [join(outside, "approved.txt"), join(outside, "made/for/it.txt")],
  });
  assert.equal(readFileSync(join(outside, "approved.txt"), "utf8"), "yes\n");
  assert.equal(readFileSync(join(outside, "made/for/it.txt"), "utf8"), "also\n");
});

void test("a link swapped in after the patch was checked is refused at the write, and the writes before it are undone", async () => {
  const { dir, outside, scope } = scene({ "a.txt": "a\n", "b.txt": "b\n" });
  writeFileSync(join(outside, "b.txt"), "b\n");
  const plan = await planIn(dir, "*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B");
  // What a racing command does between the check and the write.
  rmSync(join(dir, "b.txt"));
  symlinkSync(join(outside, "b.txt"), join(dir, "b.txt"));
  await assertRefused(plan, scope, [dir, outside], outsideMessage(join(dir, "b.txt"), join(outside, "b.txt")));
});

void test("a file that appeared after the plan is not clobbered by an add", async () => {
  const { dir, scope } = scene();
  const plan = await planIn(dir, "*** Add File: new.txt\n+from the patch");
  writeFileSync(join(dir, "new.txt"), "written meanwhile\n");
  await assertRefused(plan, scope, [dir], `Failed to write file ${join(dir, "new.txt")}: File exists (os error 17)`);
});

void test("deleting a link that leads outside removes the link, never its target", async () => {
  const { dir, outside, scope } = scene();
  writeFileSync(join(outside, "target.txt"), "t\n");
  symlinkSync(join(outside, "target.txt"), join(dir, "link.txt"));
  await commitPlan(await planIn(dir, "*** Delete File: link.txt"), scope);
  assert.equal(existsSync(join(dir, "link.txt")), false);
  assert.equal(readFileSync(join(outside, "target.txt"), "utf8"), "t\n");
});

void test("special files are neither read nor written: a FIFO is refused at once instead of blocking", { skip: process.platform === "win32" }, async () => {
  const { dir } = scene();
  assert.equal(spawnSync("mkfifo", [join(dir, "pipe")]).status, 0);
  const notRegular = `${join(dir, "pipe")} is a named pipe (FIFO), not a regular file, so it was not read`;
  await assert.rejects(planIn(dir, "*** Update File: pipe\n@@\n-a\n+b"), { message: `Failed to read file to update ${join(dir, "pipe")}: ${notRegular}` });
  await assert.rejects(planIn(dir, "*** Add File: pipe\n+b"), { message: `Failed to write file ${join(dir, "pipe")}: ${notRegular}` });
});
