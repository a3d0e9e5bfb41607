import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxPolicyFor } from "../protocol/policy.js";
import { patchWriteScope } from "./patch-scope.js";
import { trustedRoots, writableRoots } from "./writable-roots.js";

const workspaceWrite = (roots: string[] = [], excludeTmp = false) => ({
  ...(sandboxPolicyFor("workspace-write", roots) as Extract<ReturnType<typeof sandboxPolicyFor>, { type: "workspace-write" }>),
  exclude_slash_tmp: excludeTmp,
  exclude_tmpdir_env_var: excludeTmp,
});

const scratch = (): string => realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-roots-")));

void test("writable roots: cwd, added roots (relative to cwd), /tmp and $TMPDIR unless excluded", () => {
  assert.deepEqual(writableRoots(workspaceWrite(["../shared"]), "/w/proj", { TMPDIR: "/var/tmp/x" }), ["/w/proj", "/w/shared", "/tmp", "/var/tmp/x"]);
  assert.deepEqual(writableRoots(workspaceWrite([], true), "/w/proj", { TMPDIR: "/var/tmp/x" }), ["/w/proj"]);
});

void test("trusted roots are canonical and shallowest first; a root that does not exist yet is kept as written", () => {
  const base = scratch();
  mkdirSync(join(base, "real"));
  symlinkSync(join(base, "real"), join(base, "alias"));
  assert.deepEqual(trustedRoots([join(base, "alias"), join(base, "real/../real"), join(base, "missing/sub")]), [
    join(base, "real"),
    join(base, "missing/sub"),
  ]);
});

void test("a root reached through a link that sits inside another root is dropped: a command could have planted it", () => {
  const base = scratch();
  const tmp = join(base, "tmp");
  const outside = join(base, "outside");
  mkdirSync(join(tmp, "proj"), { recursive: true });
  mkdirSync(outside);
  const cwd = join(tmp, "proj");
  assert.deepEqual(trustedRoots([cwd, tmp]), [tmp, cwd]);
  // What a sandboxed command with write access to `tmp` can do between two commands.
  renameSync(cwd, join(tmp, "proj-away"));
  symlinkSync(outside, cwd);
  assert.deepEqual(trustedRoots([cwd, tmp]), [tmp], "the workspace's name now leads elsewhere and is not trusted");
  // The same link made outside every root (by the user) is honoured.
  const userLink = join(base, "user-link");
  symlinkSync(outside, userLink);
  assert.deepEqual(trustedRoots([userLink, tmp]), [outside, tmp]);
});

void test("the patch scope: roots per policy and grants, protected .git and .codex whether or not they exist, and the git directory a .git file names", () => {
  const base = scratch();
  const cwd = join(base, "proj");
  const gitdir = join(base, "gitdirs/proj");
  mkdirSync(cwd);
  mkdirSync(gitdir, { recursive: true });
  writeFileSync(join(cwd, ".git"), `gitdir: ${gitdir}\n`);
  assert.equal(patchWriteScope(sandboxPolicyFor("danger-full-access"), cwd), null);
  assert.deepEqual(patchWriteScope(sandboxPolicyFor("read-only"), cwd), { roots: [], protectedPaths: [], approved: [] });
  const scope = patchWriteScope(workspaceWrite([], true), cwd);
  assert.deepEqual(scope?.roots, [cwd]);
  assert.deepEqual(new Set(scope?.protectedPaths), new Set([join(cwd, ".git"), join(cwd, ".codex"), gitdir]));
  const granted = patchWriteScope(sandboxPolicyFor("read-only"), cwd, [join(base, "extra")]);
  assert.deepEqual(granted?.roots, [join(base, "extra")]);
});
