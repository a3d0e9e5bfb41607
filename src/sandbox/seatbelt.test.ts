import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxPolicyFor, type SandboxPolicy } from "../protocol/policy.js";
import { seatbeltArgv, seatbeltProfile } from "./seatbelt.js";

function workspaceWrite(roots: string[], options: { network?: boolean; excludeTmp?: boolean } = {}): SandboxPolicy {
  const excludeTmp = options.excludeTmp ?? true;
  return { type: "workspace-write", writable_roots: roots, network_access: options.network ?? false, exclude_slash_tmp: excludeTmp, exclude_tmpdir_env_var: excludeTmp };
}

const scratch = (): string => realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-seatbelt-")));

/** Parentheses balance and never go negative: the profile at least parses as S-expressions. */
function assertBalanced(profile: string): void {
  let depth = 0;
  for (const line of profile.split("\n")) {
    const code = line.replace(/;.*$/, "").replace(/"[^"]*"/g, "");
    for (const ch of code) {
      if (ch === "(") depth++;
      if (ch === ")") depth--;
      assert.ok(depth >= 0, `unbalanced at: ${line}`);
    }
  }
  assert.equal(depth, 0);
}

void test("read-only: deny by default, reads allowed, no writable roots, no network", () => {
  const { profile, params } = seatbeltProfile(sandboxPolicyFor("read-only"), "/w/proj", {});
  assert.ok(profile.startsWith("(version 1)\n(deny default)\n"));
  for (const rule of ["(allow process-exec)", "(allow process-fork)", "(allow file-read*)", "(allow sysctl-read)", "(allow signal (target same-sandbox))"]) {
    assert.ok(profile.includes(rule), rule);
  }
  assert.ok(profile.includes('(literal "/dev/null")'));
  assert.equal(profile.includes("WRITABLE_ROOT"), false);
  assert.equal(profile.includes("(allow file-write* (subpath"), false);
  assert.equal(profile.includes("network-outbound"), false);
  assert.equal(profile.includes("system-socket"), false);
  assert.deepEqual(params, {});
  assertBalanced(profile);
});

void test("workspace-write: each root is a parameter, its .git and .codex are carved out", () => {
  const root = scratch();
  const cwd = join(root, "proj");
  const extra = join(root, "extra");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  mkdirSync(extra);
  const { profile, params } = seatbeltProfile(workspaceWrite([extra]), cwd, {});
  assert.deepEqual(params, {
    WRITABLE_ROOT_0: cwd,
    WRITABLE_ROOT_0_RO_0: join(cwd, ".git"),
    WRITABLE_ROOT_0_RO_1: join(cwd, ".codex"),
    WRITABLE_ROOT_1: extra,
    WRITABLE_ROOT_1_RO_0: join(extra, ".git"),
    WRITABLE_ROOT_1_RO_1: join(extra, ".codex"),
  });
  assert.ok(
    profile.includes(
      '(require-all (subpath (param "WRITABLE_ROOT_0")) (require-not (subpath (param "WRITABLE_ROOT_0_RO_0")))' +
        ' (require-not (subpath (param "WRITABLE_ROOT_0_RO_1"))))',
    ),
    profile,
  );
  assert.ok(profile.includes("(allow file-write*\n"));
  assert.equal(profile.includes(cwd), false, "paths travel as parameters, never inside the profile");
  assert.equal(profile.includes("network-outbound"), false);
  assertBalanced(profile);
});

void test("network access adds outbound, inbound and sockets", () => {
  const cwd = scratch();
  const { profile } = seatbeltProfile(workspaceWrite([], { network: true }), cwd, {});
  for (const rule of ["(allow network-outbound)", "(allow network-inbound)", "(allow system-socket)"]) assert.ok(profile.includes(rule), rule);
  assertBalanced(profile);
});

void test("parameters are canonicalized: symlinked roots and TMPDIR appear at their real paths", () => {
  const root = scratch();
  const real = join(root, "real");
  mkdirSync(real);
  symlinkSync(real, join(root, "link"));
  const tmp = join(root, "tmp");
  mkdirSync(tmp);
  symlinkSync(tmp, join(root, "tmp-link"));
  const { params } = seatbeltProfile(workspaceWrite([], { excludeTmp: false }), join(root, "link"), { TMPDIR: join(root, "tmp-link") });
  const roots = Object.entries(params).filter(([k]) => /^WRITABLE_ROOT_\d+$/.test(k)).map(([, v]) => v);
  assert.deepEqual(roots, [real, realpathSync("/tmp"), tmp]);
  assert.equal(params.WRITABLE_ROOT_0_RO_0, join(real, ".git"));
});

void test("a .git file protects the git directory it names", () => {
  const root = scratch();
  const cwd = join(root, "wt");
  const gitdir = join(root, "repo", ".git", "worktrees", "wt");
  mkdirSync(cwd);
  mkdirSync(gitdir, { recursive: true });
  writeFileSync(join(cwd, ".git"), "gitdir: ../repo/.git/worktrees/wt\n");
  const { params } = seatbeltProfile(workspaceWrite([]), cwd, {});
  assert.ok(Object.values(params).includes(gitdir));
  assert.ok(Object.values(params).includes(join(cwd, ".git")));
});

void test("seatbeltArgv: sandbox-exec, the profile, -D parameters, --, the command", () => {
  const cwd = scratch();
  const argv = seatbeltArgv(workspaceWrite([]), cwd, ["make", "test"], {});
  assert.equal(argv[0], "/usr/bin/sandbox-exec");
  assert.equal(argv[1], "-p");
  assert.ok(argv[2]?.startsWith("(version 1)"));
  assert.equal(argv[3], `-DWRITABLE_ROOT_0=${cwd}`);
  assert.deepEqual(argv.slice(-3), ["--", "make", "test"]);
  const readOnly = seatbeltArgv(sandboxPolicyFor("read-only"), cwd, ["ls"], {});
  assert.deepEqual(readOnly.slice(3), ["--", "ls"]);
});
