import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxPolicyFor, type SandboxPolicy } from "../protocol/policy.js";
import { bwrapArgv, findOnPath } from "./bwrap.js";
import { protectedPaths, readGitdirFile } from "./protected-paths.js";

function workspaceWrite(roots: string[], network = false): SandboxPolicy {
  return { type: "workspace-write", writable_roots: roots, network_access: network, exclude_slash_tmp: true, exclude_tmpdir_env_var: true };
}

/** A fresh directory with symlinks resolved, so expected paths match what bwrapArgv prints. */
function scratch(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-bwrap-")));
}

/** The index of the option `flag` whose first operand is `path`. */
function mountIndex(argv: string[], flag: string, path: string): number {
  return argv.findIndex((arg, i) => arg === flag && argv[i + 1] === path);
}

void test("read-only: the host read-only, fresh /dev and /proc, no network, then the command", () => {
  const argv = bwrapArgv({ policy: sandboxPolicyFor("read-only"), cwd: "/w/proj", argv: ["ls", "-l"], bwrapPath: "/usr/bin/bwrap", newSession: true });
  assert.deepEqual(argv, [
    "/usr/bin/bwrap", "--die-with-parent", "--new-session", "--unshare-pid",
    "--ro-bind", "/", "/", "--dev", "/dev",
    "--unshare-net", "--proc", "/proc", "--chdir", "/w/proj", "--", "ls", "-l",
  ]);
});

void test("PTY sessions keep their controlling terminal: no --new-session", () => {
  const argv = bwrapArgv({ policy: sandboxPolicyFor("read-only"), cwd: "/w", argv: ["bash"], bwrapPath: "bwrap", newSession: false });
  assert.equal(argv.includes("--new-session"), false);
  assert.equal(argv.includes("--die-with-parent"), true);
});

void test("workspace-write: roots bound read-write after /, protected folders read-only after every root", () => {
  const root = scratch();
  const cwd = join(root, "proj");
  const extra = join(root, "extra");
  const nested = join(cwd, "nested");
  for (const dir of [cwd, extra, nested, join(cwd, ".git"), join(cwd, ".codex"), join(nested, ".git")]) mkdirSync(dir, { recursive: true });
  const argv = bwrapArgv({ policy: workspaceWrite([extra, nested, join(root, "missing")]), cwd, argv: ["true"], bwrapPath: "bwrap", newSession: true });

  const slash = mountIndex(argv, "--ro-bind", "/");
  const dev = mountIndex(argv, "--dev", "/dev");
  const binds = [cwd, extra, nested].map((r) => mountIndex(argv, "--bind", r));
  const ro = [join(cwd, ".git"), join(cwd, ".codex"), join(nested, ".git")].map((p) => mountIndex(argv, "--ro-bind", p));
  assert.ok(slash >= 0 && dev > slash, "/dev comes after the read-only root");
  for (const i of binds) assert.ok(i > dev, `bind at ${i} after /dev`);
  assert.ok(mountIndex(argv, "--bind", cwd) < mountIndex(argv, "--bind", nested), "a parent root is bound before a root inside it");
  for (const i of ro) assert.ok(i > Math.max(...binds), "protected folders come after every writable root");
  assert.ok(argv.indexOf("--proc") > Math.max(...ro));
  assert.equal(argv.some((a) => a.includes("missing")), false, "a missing root is skipped");
  assert.equal(argv.includes("--unshare-net"), true);
  assert.deepEqual(argv.slice(-4), ["--chdir", cwd, "--", "true"]);
});

void test("workspace-write with network access keeps the host network", () => {
  const cwd = scratch();
  const argv = bwrapArgv({ policy: workspaceWrite([], true), cwd, argv: ["curl", "x"], bwrapPath: "bwrap", newSession: true });
  assert.equal(argv.includes("--unshare-net"), false);
  assert.equal(argv.includes("--unshare-pid"), true);
});

void test("/tmp and $TMPDIR are bound unless excluded, and roots are canonicalized", () => {
  const root = scratch();
  const cwd = join(root, "proj");
  const tmp = join(root, "tmp");
  mkdirSync(cwd);
  mkdirSync(tmp);
  symlinkSync(tmp, join(root, "tmp-link"));
  const policy: SandboxPolicy = { type: "workspace-write", writable_roots: [], network_access: false, exclude_slash_tmp: false, exclude_tmpdir_env_var: false };
  const argv = bwrapArgv({ policy, cwd, argv: ["true"], bwrapPath: "bwrap", newSession: true, env: { TMPDIR: tmp } });
  assert.ok(mountIndex(argv, "--bind", "/tmp") >= 0);
  assert.ok(mountIndex(argv, "--bind", tmp) >= 0);
  // With /tmp excluded, a TMPDIR reached through a link (outside every root) is bound at its real path.
  const linked = bwrapArgv({ policy: { ...policy, exclude_slash_tmp: true }, cwd, argv: ["true"], bwrapPath: "bwrap", newSession: true, env: { TMPDIR: join(root, "tmp-link") } });
  assert.ok(mountIndex(linked, "--bind", tmp) >= 0, "TMPDIR through a symlink is bound at its real path");
  assert.equal(mountIndex(linked, "--bind", join(root, "tmp-link")), -1);
  const excluded = bwrapArgv({ policy: { ...policy, exclude_slash_tmp: true, exclude_tmpdir_env_var: true }, cwd, argv: ["true"], bwrapPath: "bwrap", newSession: true, env: { TMPDIR: tmp } });
  assert.equal(mountIndex(excluded, "--bind", "/tmp"), -1);
  assert.equal(mountIndex(excluded, "--bind", tmp), -1);
});

void test("a root reached through a link inside another root is not bound: a command could have planted it", () => {
  const root = scratch();
  const outside = join(root, "outside");
  mkdirSync(outside);
  // The link sits in the workspace (a writable root) and names the TMPDIR root.
  const cwd = join(root, "proj");
  mkdirSync(cwd);
  symlinkSync(outside, join(cwd, "tmp-link"));
  const policy: SandboxPolicy = { type: "workspace-write", writable_roots: [], network_access: false, exclude_slash_tmp: true, exclude_tmpdir_env_var: false };
  const argv = bwrapArgv({ policy, cwd, argv: ["true"], bwrapPath: "bwrap", newSession: true, env: { TMPDIR: join(cwd, "tmp-link") } });
  assert.equal(mountIndex(argv, "--bind", outside), -1);
  assert.ok(mountIndex(argv, "--bind", cwd) >= 0);
});

void test("a .git file (worktree) protects both the file and the git directory it names", () => {
  const root = scratch();
  const cwd = join(root, "worktree");
  const gitdir = join(root, "main", ".git", "worktrees", "wt");
  mkdirSync(cwd);
  mkdirSync(gitdir, { recursive: true });
  writeFileSync(join(cwd, ".git"), "gitdir: ../main/.git/worktrees/wt\n");
  assert.equal(readGitdirFile(join(cwd, ".git")), gitdir);
  assert.deepEqual(protectedPaths([cwd]), [join(cwd, ".git"), gitdir]);
  const argv = bwrapArgv({ policy: workspaceWrite([]), cwd, argv: ["true"], bwrapPath: "bwrap", newSession: true });
  assert.ok(mountIndex(argv, "--ro-bind", join(cwd, ".git")) > mountIndex(argv, "--bind", cwd));
  assert.ok(mountIndex(argv, "--ro-bind", gitdir) > mountIndex(argv, "--bind", cwd));

  writeFileSync(join(cwd, ".git"), "not a gitdir line\n");
  assert.equal(readGitdirFile(join(cwd, ".git")), null);
  writeFileSync(join(cwd, ".git"), `gitdir: ${gitdir}\n`);
  assert.equal(readGitdirFile(join(cwd, ".git")), gitdir, "absolute gitdir");
});

void test("findOnPath skips relative PATH entries and programs inside the workspace", () => {
  const root = scratch();
  const workspace = join(root, "ws");
  const planted = join(workspace, "bin");
  const system = join(root, "sys");
  mkdirSync(planted, { recursive: true });
  mkdirSync(system);
  for (const dir of [planted, system]) {
    writeFileSync(join(dir, "bwrap"), "#!/bin/sh\n");
    chmodSync(join(dir, "bwrap"), 0o755);
  }
  writeFileSync(join(root, "notexec"), "");
  assert.equal(findOnPath("bwrap", workspace, `${planted}:bin:${system}`), join(system, "bwrap"));
  assert.equal(findOnPath("bwrap", workspace, `${planted}`), null);
  assert.equal(findOnPath("notexec", workspace, root), null, "not executable");
  assert.equal(findOnPath("bwrap", root, `${system}`), null, "the workspace may be an ancestor too");
});
