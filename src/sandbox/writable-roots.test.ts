import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxPolicyFor } from "../protocol/policy.js";
import { canWritePath, writableRoots } from "./writable-roots.js";

const workspaceWrite = (roots: string[] = [], excludeTmp = false) => ({
  ...(sandboxPolicyFor("workspace-write", roots) as Extract<ReturnType<typeof sandboxPolicyFor>, { type: "workspace-write" }>),
  exclude_slash_tmp: excludeTmp,
  exclude_tmpdir_env_var: excludeTmp,
});

void test("writable roots: cwd, added roots (relative to cwd), /tmp and $TMPDIR unless excluded", () => {
  assert.deepEqual(writableRoots(workspaceWrite(["../shared"]), "/w/proj", { TMPDIR: "/var/tmp/x" }), ["/w/proj", "/w/shared", "/tmp", "/var/tmp/x"]);
  assert.deepEqual(writableRoots(workspaceWrite([], true), "/w/proj", { TMPDIR: "/var/tmp/x" }), ["/w/proj"]);
});

void test("each policy decides what may be written", () => {
  const cwd = "/w/proj";
  assert.equal(canWritePath(sandboxPolicyFor("danger-full-access"), cwd, "/etc/passwd"), true);
  assert.equal(canWritePath(sandboxPolicyFor("read-only"), cwd, "a.txt"), false);
  const ws = workspaceWrite([], true);
  assert.equal(canWritePath(ws, cwd, "src/a.txt"), true);
  assert.equal(canWritePath(ws, cwd, "../other/a.txt"), false);
  assert.equal(canWritePath(ws, cwd, "/w/proj-sibling/a.txt"), false);
  assert.equal(canWritePath(ws, cwd, "..file"), true, "a name starting with dots is still inside");
  assert.equal(canWritePath(ws, cwd, ".git/config"), false);
  assert.equal(canWritePath(ws, cwd, ".codex/config.toml"), false);
  assert.equal(canWritePath(ws, cwd, "sub/.git/config"), true, "only the root's own .git is protected");
});

void test("a symlink inside the workspace cannot lead a write outside it", () => {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-roots-"));
  const cwd = join(root, "proj");
  const outside = join(root, "outside");
  mkdirSync(cwd);
  mkdirSync(outside);
  symlinkSync(outside, join(cwd, "escape"));
  const ws = workspaceWrite([], true);
  assert.equal(canWritePath(ws, cwd, "escape/new.txt"), false);
  assert.equal(canWritePath(ws, cwd, "fine/new.txt"), true);
});
