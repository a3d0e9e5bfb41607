import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxPolicyFor } from "../protocol/policy.js";
import { OUTSIDE_PROJECT_REASON, READ_ONLY_SANDBOX_REASON, assessPatchSafety } from "./patch-safety.js";

const cwd = "/nonexistent/proj";
const inside = [`${cwd}/a.txt`];
const outside = ["/nonexistent/elsewhere/a.txt"];
const write = { ...sandboxPolicyFor("workspace-write"), exclude_slash_tmp: true, exclude_tmpdir_env_var: true };

void test("an empty patch is rejected", () => {
  assert.deepEqual(assessPatchSafety([], "never", write, cwd), { kind: "reject", reason: "empty patch", blockedBy: null, path: null });
});

void test("writes the sandbox allows apply without asking, except under 'untrusted'", () => {
  assert.deepEqual(assessPatchSafety(inside, "never", write, cwd), { kind: "auto" });
  assert.deepEqual(assessPatchSafety(inside, "on-request", write, cwd), { kind: "auto" });
  assert.deepEqual(assessPatchSafety(outside, "on-request", sandboxPolicyFor("danger-full-access"), cwd), { kind: "auto" });
  assert.deepEqual(assessPatchSafety(inside, "untrusted", write, cwd), { kind: "ask", grantRoot: null });
});

void test("other writes go to the user, or are refused when the user is never asked", () => {
  // The user is asked to open the folder of the first path outside the roots.
  assert.deepEqual(assessPatchSafety(outside, "on-request", write, cwd), { kind: "ask", grantRoot: "/nonexistent/elsewhere" });
  // In-process patches are not sandboxed, so on-failure cannot rely on a sandbox failure.
  assert.deepEqual(assessPatchSafety(outside, "on-failure", write, cwd), { kind: "ask", grantRoot: "/nonexistent/elsewhere" });
  // A folder granted earlier in the session counts as writable.
  assert.deepEqual(assessPatchSafety(outside, "never", write, cwd, ["/nonexistent/elsewhere"]), { kind: "auto" });
  assert.deepEqual(assessPatchSafety(outside, "never", write, cwd), {
    kind: "reject",
    reason: OUTSIDE_PROJECT_REASON,
    blockedBy: "writable-roots",
    path: "/nonexistent/elsewhere/a.txt",
  });
  // Under a read-only sandbox the model is told so (as the reference tells it), not "outside of the project".
  assert.deepEqual(assessPatchSafety(inside, "never", sandboxPolicyFor("read-only"), cwd), {
    kind: "reject",
    reason: READ_ONLY_SANDBOX_REASON,
    blockedBy: "read-only-sandbox",
    path: "/nonexistent/proj/a.txt",
  });
  assert.equal(READ_ONLY_SANDBOX_REASON, "writing is blocked by read-only sandbox; rejected by user approval settings");
});

void test("a granted folder obeys the same rules as the sandbox's roots: no symlink escapes, .git and .codex stay protected", () => {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-grant-"));
  const granted = join(root, "granted");
  const elsewhere = join(root, "elsewhere");
  mkdirSync(granted);
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, join(granted, "link"));
  const readOnly = sandboxPolicyFor("read-only");
  assert.deepEqual(assessPatchSafety([join(granted, "ok.txt")], "on-request", readOnly, cwd, [granted]), { kind: "auto" });
  assert.equal(assessPatchSafety([join(granted, "link/x.txt")], "on-request", readOnly, cwd, [granted]).kind, "ask");
  assert.equal(assessPatchSafety([join(granted, ".git/hooks/pre-commit")], "on-request", readOnly, cwd, [granted]).kind, "ask");
  assert.equal(assessPatchSafety([join(granted, ".codex/config.toml")], "on-request", readOnly, cwd, [granted]).kind, "ask");
});
