import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxPolicyFor } from "../protocol/policy.js";
import { patchWriteScope } from "../sandbox/patch-scope.js";
import { destinationsOf, type Destination, type WriteScope } from "../util/write-scope.js";
import { OUTSIDE_PROJECT_REASON, READ_ONLY_SANDBOX_REASON, assessPatchSafety } from "./patch-safety.js";

const cwd = "/nonexistent/proj";
const scope: WriteScope = { roots: [cwd], protectedPaths: [`${cwd}/.git`, `${cwd}/.codex`], approved: [] };
const at = (path: string, canonical = path): Destination => ({ path, canonical });
const inside = [at(`${cwd}/a.txt`)];
const outside = [at("/nonexistent/elsewhere/a.txt")];
const write = { ...sandboxPolicyFor("workspace-write"), exclude_slash_tmp: true, exclude_tmpdir_env_var: true };

void test("an empty patch is rejected", () => {
  assert.deepEqual(assessPatchSafety([], "never", write, scope), { kind: "reject", reason: "empty patch", blockedBy: null, path: null });
});

void test("writes the scope allows apply without asking, except under 'untrusted'", () => {
  assert.deepEqual(assessPatchSafety(inside, "never", write, scope), { kind: "auto" });
  assert.deepEqual(assessPatchSafety(inside, "on-request", write, scope), { kind: "auto" });
  assert.deepEqual(assessPatchSafety(outside, "on-request", sandboxPolicyFor("danger-full-access"), null), { kind: "auto" });
  assert.deepEqual(assessPatchSafety(inside, "untrusted", write, scope), { kind: "ask", grantRoot: null, reason: null });
});

void test("other writes go to the user, or are refused when the user is never asked", () => {
  // The user is asked to open the folder of the first path outside the roots.
  assert.deepEqual(assessPatchSafety(outside, "on-request", write, scope), { kind: "ask", grantRoot: "/nonexistent/elsewhere", reason: null });
  // In-process patches are not sandboxed, so on-failure cannot rely on a sandbox failure.
  assert.deepEqual(assessPatchSafety(outside, "on-failure", write, scope), { kind: "ask", grantRoot: "/nonexistent/elsewhere", reason: null });
  assert.deepEqual(assessPatchSafety(outside, "never", write, scope), {
    kind: "reject",
    reason: OUTSIDE_PROJECT_REASON,
    blockedBy: "writable-roots",
    path: "/nonexistent/elsewhere/a.txt",
  });
  // Under a read-only sandbox the model is told so (as the reference tells it), not "outside of the project".
  assert.deepEqual(assessPatchSafety(inside, "never", sandboxPolicyFor("read-only"), { ...scope, roots: [] }), {
    kind: "reject",
    reason: READ_ONLY_SANDBOX_REASON,
    blockedBy: "read-only-sandbox",
    path: "/nonexistent/proj/a.txt",
  });
  assert.equal(READ_ONLY_SANDBOX_REASON, "writing is blocked by read-only sandbox; rejected by user approval settings");
});

void test("a path is judged by where it leads: a link inside the project to a place outside it is asked about, saying where", () => {
  const link = at(`${cwd}/notes.txt`, "/nonexistent/elsewhere/pwned.txt");
  assert.deepEqual(assessPatchSafety([link], "on-request", write, scope), {
    kind: "ask",
    grantRoot: "/nonexistent/elsewhere",
    reason: `${cwd}/notes.txt leads to /nonexistent/elsewhere/pwned.txt`,
  });
  assert.equal(assessPatchSafety([link], "never", write, scope).kind, "reject");
  assert.equal(assessPatchSafety([at(`${cwd}/.git/config`)], "never", write, scope).kind, "reject");
});

void test("a granted folder obeys the same rules as the sandbox's roots: no link escapes, dangling or not, .git and .codex stay protected", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-grant-")));
  const granted = join(root, "granted");
  const elsewhere = join(root, "elsewhere");
  mkdirSync(granted);
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, join(granted, "link"));
  symlinkSync(join(elsewhere, "not-yet.txt"), join(granted, "dangling.txt"));
  const readOnly = sandboxPolicyFor("read-only");
  const grantedScope = patchWriteScope(readOnly, cwd, [granted]);
  const kind = (path: string, follows = true): string =>
    assessPatchSafety(destinationsOf([{ path, followsLinks: follows }]), "on-request", readOnly, grantedScope).kind;
  assert.equal(kind(join(granted, "ok.txt")), "auto");
  assert.equal(kind(join(granted, "new/dir/ok.txt")), "auto");
  assert.equal(kind(join(granted, "link/x.txt")), "ask");
  assert.equal(kind(join(granted, "dangling.txt")), "ask", "a dangling link is judged by its target");
  assert.equal(kind(join(granted, "dangling.txt"), false), "auto", "deleting a link removes the link itself");
  assert.equal(kind(join(granted, ".git/hooks/pre-commit")), "ask");
  assert.equal(kind(join(granted, ".codex/config.toml")), "ask");
});
