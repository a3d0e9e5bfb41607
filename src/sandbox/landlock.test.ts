import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { sandboxPolicyFor, type SandboxPolicy } from "../protocol/policy.js";
import { LANDLOCK_PROGRAM, findPython3, landlockArgv, landlockStatus } from "./landlock.js";
import { landlockEnforceable } from "./landlock-deny.js";
import { seccompArch, seccompProgram } from "./seccomp.js";

/** The filter argument the helper gets: the seccomp program for this machine, in hex. */
const filter = (network: boolean): string => {
  const arch = seccompArch();
  return arch === null ? "" : seccompProgram(arch, network).toString("hex");
};

function workspaceWrite(roots: string[], network = false, excludeTmp = true): SandboxPolicy {
  return { type: "workspace-write", writable_roots: roots, network_access: network, exclude_slash_tmp: excludeTmp, exclude_tmpdir_env_var: excludeTmp };
}

void test("read-only: python3 in isolated mode, the helper, no roots, network off", () => {
  const argv = landlockArgv({ policy: sandboxPolicyFor("read-only"), cwd: "/w/proj", argv: ["ls", "-l"], env: {}, python: "/usr/bin/python3" });
  assert.deepEqual(argv, ["/usr/bin/python3", "-I", "-S", "-c", LANDLOCK_PROGRAM, "run", "0", "-", filter(false), "--", "ls", "-l"]);
});

void test("workspace-write: cwd, added roots, /tmp and $TMPDIR become rule paths, canonical and shallowest first", () => {
  const argv = landlockArgv({ policy: workspaceWrite(["../shared"], false, false), cwd: "/w/proj", argv: ["make"], env: { TMPDIR: "/var/tmp/t", LC_CTYPE: "en_US.UTF-8" }, python: "py" });
  assert.deepEqual(argv.slice(5), ["run", "0", "=en_US.UTF-8", filter(false), "/tmp", "/w/proj", "/w/shared", "/var/tmp/t", "--", "make"]);
});

void test("network access turns the socket rules of the filter off", () => {
  const argv = landlockArgv({ policy: workspaceWrite([], true), cwd: "/w", argv: ["curl"], env: {}, python: "py" });
  assert.deepEqual(argv.slice(5), ["run", "1", "-", filter(true), "/w", "--", "curl"]);
  assert.notEqual(filter(true), filter(false));
});

void test("a command that looks like an option stays after the separator", () => {
  const argv = landlockArgv({ policy: sandboxPolicyFor("read-only"), cwd: "/w", argv: ["--", "-x"], env: {}, python: "py" });
  assert.deepEqual(argv.slice(5), ["run", "0", "-", filter(false), "--", "--", "-x"]);
});

void test("the helper is valid Python 3", { skip: findPython3() === null ? "python3 is not installed" : false }, () => {
  const python = findPython3() ?? "python3";
  const r = spawnSync(python, ["-I", "-S", "-c", "import sys; compile(sys.argv[1], '<helper>', 'exec')", LANDLOCK_PROGRAM], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
});

void test("the probe reports the Landlock ABI, or why it cannot run", { skip: process.platform !== "linux" ? "Linux only" : false }, async () => {
  const status = await landlockStatus();
  if (status.available) assert.ok((status.abi ?? 0) >= 1);
  else assert.ok(status.reason && status.reason.length > 0);
  assert.equal(await landlockStatus(), status, "cached");
});

void test("Landlock leaves out a built-in denial wherever a folder above it is writable, and enforces the user's own", () => {
  const view = {
    hidden: [
      { path: "/w/proj/.env", dir: false, byDefault: true },
      { path: "/w/proj/a/.env", dir: false, byDefault: true },
      { path: "/home/u/.ssh/id_rsa", dir: false, byDefault: true },
      { path: "/w/proj/docs/.env", dir: false, byDefault: true },
      { path: "/w/proj/secrets", dir: true },
      { path: "/w/proj/secrets/.env", dir: false, byDefault: true },
      { path: "/w/proj/keys/server.pem", dir: false },
    ],
    readOnly: ["/w/proj/docs"],
    writable: [],
  };
  const { view: kept, unenforced, costly } = landlockEnforceable(view, ["/w/proj", "/tmp"]);
  // docs/.env: its folder is read-only, but the project root above it is writable.
  assert.deepEqual(unenforced, ["/w/proj/.env", "/w/proj/a/.env", "/w/proj/docs/.env"]);
  // The key in a folder nothing writes is enforced; one inside a hidden folder needs nothing of its own.
  assert.deepEqual(kept.hidden.map((h) => h.path), ["/w/proj/secrets", "/w/proj/keys/server.pem", "/home/u/.ssh/id_rsa"]);
  // The user's own denials are kept, and both cost the project root (and keys/) their entries' rights.
  assert.deepEqual(costly, ["/w/proj/secrets", "/w/proj/keys/server.pem"]);
  assert.deepEqual(landlockEnforceable(view, []).costly, [], "nothing writable, nothing lost");
  // Read-only: nothing is writable, so every denial is enforced. Full access: no built-in one is.
  assert.deepEqual(landlockEnforceable(view, []).unenforced, []);
  assert.deepEqual(landlockEnforceable(view, ["/"]).view.hidden.map((h) => h.path), ["/w/proj/secrets", "/w/proj/keys/server.pem"]);
});
