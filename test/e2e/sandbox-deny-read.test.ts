/**
 * The deny-read battery: a project whose permission profile denies a folder (`secrets`), a
 * pattern at any depth (`**\/.env`) and an anchored pattern (`keys/*.pem`), attacked by real
 * commands through `sandboxCommand` under bubblewrap and Landlock (forced one at a time), with
 * the read-only and workspace-write policies and with full access (what an approved escalation
 * gets: everything but the denied paths). Every secret is a unique marker; a probe escapes when
 * a marker shows up in what the command printed, or when a denied file was changed.
 *
 * Probes: direct reads, globs at depth, symlinks (old and new), hard links (made before the
 * session, by the user mid-session, by the command), `..`, /proc/self/root and /proc/PID/root,
 * copies, recursive grep/find/tar, python, unmounting or bind-mounting the project again in a
 * new user namespace, renaming a
 * folder or a file (in the same command, and for the next command to read), files created
 * mid-session, writes and deletions of every denied file. Controls show the rest of the project
 * stays readable (and writable where the policy allows).
 *
 * Known gap, asserted so the test notices if it changes: under Landlock a folder on the way to a
 * denied path (here the project root, which holds a `.env`) gets no rights itself, so a command
 * cannot create a new entry directly in it; bubblewrap has no such limit. These denials are the
 * user's own, so Landlock enforces them at that cost; the built-in ones yield instead
 * (sandbox-default-denials.test.ts).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxPolicy } from "../../src/protocol/policy.js";
import { createCommandEnv } from "../../src/exec/env.js";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { FileSystemGuard } from "../../src/sandbox/fs-guard.js";
import { landlockStatus } from "../../src/sandbox/landlock.js";
import { sandboxCommand } from "../../src/sandbox/launcher.js";

type Mechanism = "bwrap" | "landlock";
type PolicyName = "read-only" | "workspace-write" | "full access";

const POLICIES: Record<PolicyName, SandboxPolicy> = {
  "read-only": { type: "read-only" },
  "workspace-write": { type: "workspace-write", writable_roots: [], network_access: false, exclude_slash_tmp: false, exclude_tmpdir_env_var: false },
  "full access": { type: "danger-full-access" },
};

const base = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-deny-read-")));
after(() => rmSync(base, { recursive: true, force: true }));
const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

interface Scene {
  work: string;
  outside: string;
  secrets: Map<string, string>;
  guard: FileSystemGuard;
  env: Record<string, string>;
}

let sceneCount = 0;

/** A fresh project: every run of probes gets its own, since some of them write. */
function scene(): Scene {
  const root = join(base, `scene-${sceneCount++}`);
  const work = join(root, "work");
  const outside = join(root, "outside");
  const secrets = new Map<string, string>();
  const secret = (path: string): void => {
    const marker = `DENIED-${path.replace(/\W/g, "_")}-${Math.random().toString(36).slice(2, 10)}`;
    mkdirSync(join(work, path, ".."), { recursive: true });
    writeFileSync(join(work, path), `${marker}\n`);
    secrets.set(path, marker);
  };
  for (const path of [".env", "a/b/c/d/.env", "secrets/key.txt", "secrets/nested/more.txt", "keys/server.pem"]) secret(path);
  mkdirSync(join(work, "src"), { recursive: true });
  mkdirSync(join(work, ".git"));
  mkdirSync(join(root, "tmp"));
  mkdirSync(outside);
  writeFileSync(join(work, "readme.txt"), "readable\n");
  writeFileSync(join(work, "keys", "public.crt"), "certificate\n");
  writeFileSync(join(work, "src", "app.js"), "code\n");
  symlinkSync(join(work, "secrets", "key.txt"), join(work, "link.txt"));
  symlinkSync("a/b/c/d/.env", join(work, "env-link"));
  linkSync(join(work, "a", "b", "c", "d", ".env"), join(work, "copy.txt"));
  const guard = new FileSystemGuard({
    paths: [{ path: join(work, "secrets"), access: "none" }],
    denyGlobs: [
      { base: work, pattern: "**/.env" },
      { base: join(work, "keys"), pattern: "*.pem" },
    ],
    globScanMaxDepth: null,
    searchRoots: [work],
  });
  const env = createCommandEnv({}, { ...process.env, TMPDIR: join(root, "tmp") });
  return { work, outside, secrets, guard, env };
}

interface Outcome {
  status: number | null;
  output: string;
}

async function run(mechanism: Mechanism, policy: SandboxPolicy, s: Scene, script: string): Promise<Outcome> {
  const command = await sandboxCommand({ policy, cwd: s.work, argv: ["sh", "-c", script], env: s.env, linuxSandbox: mechanism, guard: s.guard });
  assert.equal(command.sandbox, mechanism, "the deny list always needs the sandbox, full access included");
  const [file = "", ...args] = command.argv;
  const r = spawnSync(file, args, { cwd: s.work, env: command.env, encoding: "utf8", timeout: 30_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

interface Probe {
  name: string;
  /** Run first (for two-step probes: the second command reads). */
  before?: string;
  /** What happens on the host between the commands (a user editing files mid-session). */
  hostBefore?: (s: Scene) => void;
  script: string;
}

const READS: Probe[] = [
  { name: "direct read of a file in the denied folder", script: "cat secrets/key.txt; cat secrets/nested/more.txt" },
  { name: "everything listed in the denied folder", script: "ls -la secrets; for f in secrets/* secrets/.[!.]*; do cat \"$f\"; done" },
  { name: "pattern at the project root", script: "cat .env" },
  { name: "pattern at depth", script: "cat a/b/c/d/.env" },
  { name: "anchored pattern", script: "cat keys/server.pem" },
  { name: "symlinks made before the session", script: "cat link.txt; cat env-link" },
  { name: "a symlink made by the command", script: "ln -s \"$PWD/secrets/key.txt\" \"$TMPDIR/l1\"; cat \"$TMPDIR/l1\"; ln -s .env l2 && cat l2" },
  { name: "a hard link made before the session", script: "cat copy.txt" },
  { name: "a hard link made by the command", script: "ln a/b/c/d/.env \"$TMPDIR/h1\" && cat \"$TMPDIR/h1\"; ln .env src/h2 && cat src/h2" },
  { name: "dot-dot paths", script: "cat a/../secrets/key.txt; cat a/b/../b/c/d/../d/.env; cat src/../.env" },
  { name: "/proc/self/root", script: "cat /proc/self/root\"$PWD\"/secrets/key.txt /proc/self/root\"$PWD\"/.env" },
  { name: "/proc/<parent>/root", script: "cat /proc/$PPID/root\"$PWD\"/.env; cat /proc/1/root\"$PWD\"/.env" },
  { name: "copying first", script: "cp .env \"$TMPDIR/c1\"; cat \"$TMPDIR/c1\"; cp -r secrets \"$TMPDIR/c2\"; cat \"$TMPDIR\"/c2/*" },
  { name: "recursive grep, find and tar over the project", script: "grep -ra DENIED . ; find . -type f -exec cat {} + ; tar cf - . | cat" },
  { name: "python", script: "python3 -c \"print(open('.env').read()); print(open('secrets/key.txt').read())\"" },
  { name: "dd and input redirection", script: "dd if=keys/server.pem 2>&1; cat < a/b/c/d/.env" },
  { name: "unmounting in a new user namespace", script: "unshare -Urm sh -c 'umount -l secrets; umount -l .env; umount -l a/b/c/d/.env; cat secrets/key.txt .env a/b/c/d/.env'" },
  {
    name: "bind-mounting the project elsewhere in a new user namespace",
    script:
      "unshare -Urm sh -c 'mkdir -p \"$TMPDIR/m1\" \"$TMPDIR/m2\"; mount --bind . \"$TMPDIR/m1\"; cat \"$TMPDIR/m1/.env\"; " +
      "mount --rbind . \"$TMPDIR/m2\"; umount -l \"$TMPDIR/m2/.env\" \"$TMPDIR/m2/secrets\"; cat \"$TMPDIR/m2/.env\" \"$TMPDIR/m2/secrets/key.txt\"'",
  },
  { name: "renaming the denied folder, then reading it", script: "mv secrets s2; cat s2/key.txt; mv keys k2; cat k2/server.pem" },
  {
    name: "renamed folders and files, read by the next command",
    before: "mv secrets s2; mv keys k2; mv a/b a/bb; mv .env plain; mv a/b/c/d/.env a/b/c/d/plain",
    script: "cat s2/key.txt k2/server.pem a/bb/c/d/.env plain a/b/c/d/plain",
  },
  {
    name: "files created mid-session by the user",
    hostBefore: (s) => {
      for (const path of ["late/deeper/.env", "secrets/late.txt", "keys/late.pem"]) {
        const marker = `DENIED-late-${path.replace(/\W/g, "_")}`;
        mkdirSync(join(s.work, path, ".."), { recursive: true });
        writeFileSync(join(s.work, path), `${marker}\n`);
        s.secrets.set(path, marker);
      }
    },
    script: "cat late/deeper/.env secrets/late.txt keys/late.pem",
  },
  {
    name: "a hard link made by the user mid-session",
    hostBefore: (s) => linkSync(join(s.work, "secrets", "key.txt"), join(s.work, "src", "innocent.txt")),
    script: "cat src/innocent.txt",
  },
];

/** Writes and deletions: every denied file must come out unchanged. */
const WRITES: Probe[] = [
  { name: "overwrite and append", script: "echo pwned > .env; echo pwned >> a/b/c/d/.env; echo pwned > secrets/key.txt; echo pwned >> keys/server.pem" },
  { name: "truncate through a hard link and a symlink", script: ": > copy.txt; : > link.txt" },
  { name: "delete", script: "rm -f .env a/b/c/d/.env keys/server.pem secrets/key.txt; rm -rf secrets" },
  { name: "new files in the denied folder", script: "echo planted > secrets/planted.txt; mkdir secrets/dir" },
];

function leaks(s: Scene, output: string): string[] {
  return [...s.secrets].filter(([, marker]) => output.includes(marker)).map(([path]) => path);
}

function damaged(s: Scene): string[] {
  const out: string[] = [];
  for (const [path, marker] of s.secrets) {
    let text: string | null;
    try {
      text = readFileSync(join(s.work, path), "utf8");
    } catch {
      text = null;
    }
    if (text !== `${marker}\n`) out.push(path);
  }
  if (existsSync(join(s.work, "secrets", "planted.txt")) || existsSync(join(s.work, "secrets", "dir"))) out.push("secrets/ (planted)");
  return out;
}

async function battery(mechanism: Mechanism, policyName: PolicyName): Promise<{ escapes: string[]; probes: number }> {
  const policy = POLICIES[policyName];
  const escapes: string[] = [];
  let probes = 0;
  for (const probe of [...READS, ...WRITES]) {
    const s = scene();
    probe.hostBefore?.(s);
    let output = "";
    if (probe.before !== undefined) output += (await run(mechanism, policy, s, probe.before)).output;
    output += (await run(mechanism, policy, s, probe.script)).output;
    probes++;
    const leaked = leaks(s, output);
    if (leaked.length > 0) escapes.push(`${probe.name}: read ${leaked.join(", ")}`);
    const changed = damaged(s);
    if (changed.length > 0) escapes.push(`${probe.name}: changed ${changed.join(", ")}`);
  }
  return { escapes, probes };
}

const mechanisms: Array<{ mechanism: Mechanism; skip: () => Promise<string | false> }> = [
  { mechanism: "bwrap", skip: async () => ((await findBwrap(base)) === null ? "bubblewrap cannot run here" : false) },
  {
    mechanism: "landlock",
    skip: async () => {
      const status = await landlockStatus();
      return status.available ? false : `Landlock is unavailable: ${status.reason ?? ""}`;
    },
  },
];

void test("deny-read battery", { skip: process.platform !== "linux" ? "bubblewrap and Landlock are Linux's" : false }, async (t) => {
  for (const { mechanism, skip } of mechanisms) {
    const reason = await skip();
    for (const policyName of Object.keys(POLICIES) as PolicyName[]) {
      await t.test(`${mechanism} / ${policyName}`, { skip: reason }, async () => {
        const { escapes, probes } = await battery(mechanism, policyName);
        assert.equal(probes, READS.length + WRITES.length);
        assert.deepEqual(escapes, []);
      });
    }
  }
});

void test("what stays allowed: the rest of the project is readable, and writable where the policy says so", { skip: process.platform !== "linux" }, async (t) => {
  for (const { mechanism, skip } of mechanisms) {
    const reason = await skip();
    await t.test(mechanism, { skip: reason }, async () => {
      const s = scene();
      const readOnly = await run(mechanism, POLICIES["read-only"], s, "cat readme.txt src/app.js keys/public.crt && ls secrets a/b/c/d >/dev/null && echo listed");
      assert.equal(readOnly.status, 0, readOnly.output);
      assert.equal(readOnly.output, "readable\ncode\ncertificate\nlisted\n");

      const write = await run(mechanism, POLICIES["workspace-write"], s, "echo new > src/new.txt && cat src/new.txt && echo more >> readme.txt && mkdir -p src/x && echo deep > src/x/f && cat src/x/f");
      assert.equal(write.status, 0, write.output);
      assert.equal(write.output, "new\ndeep\n");
      assert.equal(readFileSync(join(s.work, "readme.txt"), "utf8"), "readable\nmore\n");

      // Full access (an approved escalation) reaches outside the project, minus the denied paths.
      const full = await run(mechanism, POLICIES["full access"], s, `echo out > ${quote(join(s.outside, "f"))} && cat ${quote(join(s.outside, "f"))}; cat .env`);
      assert.match(full.output, /^out\n/);
      assert.equal(leaks(s, full.output).length, 0, full.output);

      // New entries right in the folders on the way to a denied path: the project root (which
      // holds a denied .env) and a/b (above a/b/c/d/.env).
      for (const folder of [".", "a/b"]) {
        const made = await run(mechanism, POLICIES["workspace-write"], s, `echo made > ${folder}/made.txt && cat ${folder}/made.txt`);
        if (mechanism === "bwrap") assert.equal(made.output, "made\n");
        else assert.notEqual(made.status, 0, "known gap: Landlock cannot grant a folder on the way to a denied path; if this now works, update docs/sandbox.md");
      }
    });
  }
});

void test("positive control: without the sandbox every probe reaches a secret, so a clean battery means something", { skip: process.platform !== "linux" }, () => {
  for (const probe of [...READS, ...WRITES]) {
    const s = scene();
    probe.hostBefore?.(s);
    const plain = (script: string): string => {
      const r = spawnSync("sh", ["-c", script], { cwd: s.work, env: s.env, encoding: "utf8", timeout: 30_000 });
      return `${r.stdout}${r.stderr}`;
    };
    const output = (probe.before !== undefined ? plain(probe.before) : "") + plain(probe.script);
    const reached = leaks(s, output).length + damaged(s).length;
    assert.ok(reached > 0, `${probe.name}: reached no secret even unconfined:\n${output}`);
  }
});
