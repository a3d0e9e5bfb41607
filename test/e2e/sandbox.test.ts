/**
 * The sandbox battery: real commands run through `sandboxCommand` under every policy and, on
 * Linux, under both mechanisms (bubblewrap and the Landlock fallback, forced one at a time).
 * Each confining policy faces a list of escape attempts (writes outside the writable roots by
 * every route we know, network connections to listeners this test owns, signals to a process
 * outside, reading a secret from the environment), and a list of operations it must still
 * allow. The positive controls under danger-full-access show the probes can see an escape.
 *
 * Whether a probe got through is settled by sending every listener a control and polling with a
 * deadline until each saw it (test/support/listeners.ts); a signal probe likewise waits for a
 * control signal the victim reports after any earlier one. No verdict rests on a fixed sleep.
 *
 * Known gaps, asserted so the test notices if they change:
 * - Landlock only grants rights, so `.git` and `.codex` inside a writable root stay writable
 *   under the fallback; bubblewrap re-mounts them read-only.
 * - Landlock does not cover metadata (chmod, chown, utimes), so the fallback lets a command
 *   chmod a file outside the roots; bubblewrap's read-only mounts refuse it.
 *
 * With the network off, a datagram sent with sendmsg() to a named Unix datagram socket outside the
 * roots (a logging socket, say) is among the escapes: seccomp cannot read sendmsg's address, so
 * Unix datagram sockets are refused altogether, `socketpair` ones too; stream pairs must work.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { SandboxPolicy } from "../../src/protocol/policy.js";
import { createCommandEnv } from "../../src/exec/env.js";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { findPython3, landlockStatus } from "../../src/sandbox/landlock.js";
import { SandboxUnavailableError, sandboxCommand, type SandboxType } from "../../src/sandbox/launcher.js";
import { makeWorkspace, runCli } from "../support/cli.js";
import { startListeners, type Listeners } from "../support/listeners.js";
import { makeOutside, waitFor } from "../support/sandbox-scene.js";

type Mechanism = Exclude<SandboxType, "none">;
type PolicyName = "read-only" | "workspace-write" | "workspace-write+network" | "workspace-write-no-tmp" | "danger-full-access";

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

const tally = { attempts: 0, escaped: 0, allowed: 0, worked: 0, connectionsAllowed: 0, connectionsWorked: 0, controls: 0, controlsWorked: 0 };
const escapes: string[] = [];
const knownGaps: string[] = [];

const isInside = (dir: string, path: string): boolean => {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
};
const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

// ---------------------------------------------------------------------------------------------
// The scene: a workspace with .git and .codex, an added root whose .git file points at a git
// directory elsewhere in the temporary folder (under /tmp, a writable root, when TMPDIR is), a
// TMPDIR for the commands, and a directory outside every root.

const base = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-sandbox-")));
const work = join(base, "work");
const extra = join(base, "extra");
const extraGitdir = join(base, "gitdirs", "extra");
const cmdTmp = join(base, "tmpdir");
for (const dir of [work, join(work, ".git"), join(work, ".codex"), extra, extraGitdir, cmdTmp]) mkdirSync(dir, { recursive: true });
writeFileSync(join(extra, ".git"), "gitdir: ../gitdirs/extra\n");

const outside = makeOutside();
symlinkSync(outside ?? "/nonexistent", join(work, "out-link"));

after(() => {
  rmSync(base, { recursive: true, force: true });
  if (outside !== null) rmSync(outside, { recursive: true, force: true });
});

const SECRET = "sk-battery-secret-4f2c9e";
process.env.OPENAI_API_KEY = SECRET;
process.env.BATTERY_ACCESS_TOKEN = SECRET;
const commandEnv = createCommandEnv({}, { ...process.env, TMPDIR: cmdTmp });
const python = findPython3();
const hasGetent = spawnSync("sh", ["-c", "command -v getent"]).status === 0;

const wsPolicy = (network: boolean, excludeTmp: boolean): SandboxPolicy => ({
  type: "workspace-write",
  writable_roots: [extra],
  network_access: network,
  exclude_slash_tmp: excludeTmp,
  exclude_tmpdir_env_var: excludeTmp,
});
const POLICIES: Record<PolicyName, SandboxPolicy> = {
  "read-only": { type: "read-only" },
  "workspace-write": wsPolicy(false, false),
  "workspace-write+network": wsPolicy(true, false),
  "workspace-write-no-tmp": wsPolicy(false, true),
  "danger-full-access": { type: "danger-full-access" },
};

async function sandboxed(mechanism: Mechanism, policy: SandboxPolicy, script: string): Promise<Outcome> {
  const command = await sandboxCommand({ policy, cwd: work, argv: ["sh", "-c", script], env: commandEnv, linuxSandbox: mechanism });
  if (policy.type !== "danger-full-access") assert.equal(command.sandbox, mechanism);
  const [file = "", ...args] = command.argv;
  const r = spawnSync(file, args, { cwd: work, env: command.env, encoding: "utf8", timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// ---------------------------------------------------------------------------------------------
// What is attempted.

interface WriteProbe {
  name: string;
  /** Shell commands; TARGET is replaced by the quoted target path. */
  script: (target: string) => string;
  /** Prepares the target (e.g. an existing file to overwrite); defaults to nothing. */
  setup?: (target: string) => void;
  /** True when the write landed. */
  landed: (target: string) => boolean;
}

const exists = (path: string): boolean => existsSync(path);
const contentIs = (path: string, text: string): boolean => {
  try {
    return readFileSync(path, "utf8") === text;
  } catch {
    return false;
  }
};

/** Ways to put something at a path. Each one writes a fresh name. */
function writeProbes(): WriteProbe[] {
  const probes: WriteProbe[] = [
    { name: "redirect", script: (t) => `echo x > ${quote(t)}`, landed: exists },
    { name: "touch", script: (t) => `touch ${quote(t)}`, landed: exists },
    { name: "mkdir", script: (t) => `mkdir ${quote(t)}`, landed: exists },
    { name: "cp", script: (t) => `cp /etc/hostname ${quote(t)} 2>/dev/null || cp /etc/hosts ${quote(t)}`, landed: exists },
    { name: "ln -s", script: (t) => `ln -s /etc/hosts ${quote(t)}`, landed: lstatExists },
    {
      name: "overwrite existing",
      setup: (t) => writeFileSync(t, "original"),
      script: (t) => `echo pwned > ${quote(t)}`,
      landed: (t) => !contentIs(t, "original"),
    },
    {
      name: "delete existing",
      setup: (t) => writeFileSync(t, "original"),
      script: (t) => `rm -f ${quote(t)}`,
      landed: (t) => !existsSync(t),
    },
  ];
  if (python !== null) {
    probes.push({ name: "python open()", script: (t) => `${quote(python)} -c 'import sys; open(sys.argv[1], "w").write("x")' ${quote(t)}`, landed: exists });
  }
  return probes;
}

function lstatExists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

let counter = 0;
const fresh = (dir: string, label: string): string => join(dir, `${label.replace(/[^a-z0-9]+/gi, "-")}-${++counter}`);

interface Ctx {
  mechanism: Mechanism;
  policyName: PolicyName;
  policy: SandboxPolicy;
  failures: string[];
}

/** A write that must NOT land. */
async function mustNotWrite(ctx: Ctx, what: string, dir: string, options: { viaPath?: (target: string) => string } = {}): Promise<void> {
  for (const probe of writeProbes()) {
    const target = fresh(dir, probe.name);
    probe.setup?.(target);
    const path = options.viaPath ? options.viaPath(target) : target;
    const out = await sandboxed(ctx.mechanism, ctx.policy, probe.script(path));
    tally.attempts++;
    if (probe.landed(target)) {
      tally.escaped++;
      const line = `${ctx.mechanism}/${ctx.policyName}: ${what} by ${probe.name} landed (${target}); stderr: ${out.stderr.trim()}`;
      escapes.push(line);
      ctx.failures.push(line);
    }
  }
}

/** A write that must land. */
async function mustWrite(ctx: Ctx, what: string, dir: string): Promise<void> {
  for (const probe of writeProbes()) {
    const target = fresh(dir, probe.name);
    probe.setup?.(target);
    const out = await sandboxed(ctx.mechanism, ctx.policy, probe.script(target));
    tally.allowed++;
    if (probe.landed(target)) tally.worked++;
    else ctx.failures.push(`${ctx.mechanism}/${ctx.policyName}: ${what} by ${probe.name} was refused: ${out.stderr.trim()}`);
  }
}

/** Simple escape probe: run `script`, then ask `escaped`. */
async function attempt(ctx: Ctx, what: string, script: string, escaped: (out: Outcome) => boolean | Promise<boolean>): Promise<void> {
  const out = await sandboxed(ctx.mechanism, ctx.policy, script);
  tally.attempts++;
  if (await escaped(out)) {
    tally.escaped++;
    const line = `${ctx.mechanism}/${ctx.policyName}: ${what} escaped (status ${out.status}; stdout ${out.stdout.trim()}; stderr ${out.stderr.trim()})`;
    escapes.push(line);
    ctx.failures.push(line);
  }
}

/** `connects`: exit status 0 proves a connection (TCP, Unix streams); an unconnected datagram send succeeds regardless. */
function networkScripts(l: Listeners): Array<{ name: string; script: string; connects: boolean }> {
  const scripts = [{ name: "TCP via bash /dev/tcp", script: `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${l.tcpPort}'`, connects: true }];
  if (python !== null) {
    const py = (code: string): string => `${quote(python)} -c ${quote(`import socket\n${code}`)}`;
    scripts.push(
      { name: "TCP via python", script: py(`socket.create_connection(("127.0.0.1", ${l.tcpPort}), 3)`), connects: true },
      { name: "UDP via python", script: py(`socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", ${l.udpPort}))`), connects: false },
      { name: "a named Unix socket outside the roots (docker.sock)", script: py(`socket.socket(socket.AF_UNIX).connect(${JSON.stringify(l.unixPath)})`), connects: true },
      // Node 20 binds an abstract name padded with NULs to the full address length, Node 22 as it
      // is: the probe tries the name both ways.
      {
        name: "an abstract Unix socket",
        script: py(
          `name = "\\0${l.abstractName}"\ntry:\n    socket.socket(socket.AF_UNIX).connect(name)\nexcept ConnectionRefusedError:\n    socket.socket(socket.AF_UNIX).connect(name.ljust(108, "\\0"))`,
        ),
        connects: true,
      },
    );
    if (l.dgramPath !== null) {
      scripts.push(
        {
          name: "sendto() to a named Unix datagram socket outside the roots",
          script: py(`socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"x", ${JSON.stringify(l.dgramPath)})`),
          connects: false,
        },
        {
          name: "sendmsg() to a named Unix datagram socket outside the roots",
          script: py(`socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendmsg([b"x"], [], 0, ${JSON.stringify(l.dgramPath)})`),
          connects: false,
        },
        {
          name: "sendmsg() from a datagram socketpair to a named socket outside the roots",
          script: py(`a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)\na.sendmsg([b"x"], [], 0, ${JSON.stringify(l.dgramPath)})`),
          connects: false,
        },
      );
    }
    if (l.tcp6Port !== null) scripts.push({ name: "TCP over IPv6 via python", script: py(`socket.create_connection(("::1", ${l.tcp6Port}), 3)`), connects: true });
  }
  return scripts;
}

/** Runs the network probes: each must fail to reach its listener, or must reach it when allowed. */
async function probeNetwork(ctx: Ctx, l: Listeners, mustFail: boolean): Promise<void> {
  for (const { name, script, connects } of networkScripts(l)) {
    const before = l.seen();
    const out = await sandboxed(ctx.mechanism, ctx.policy, script);
    await l.settle();
    const reached = l.seen() > before;
    if (mustFail) {
      tally.attempts++;
      if (reached || (connects && out.status === 0)) {
        tally.escaped++;
        const line = `${ctx.mechanism}/${ctx.policyName}: ${name} reached the listener (status ${out.status})`;
        escapes.push(line);
        ctx.failures.push(line);
      }
    } else {
      tally.connectionsAllowed++;
      if (reached && out.status === 0) tally.connectionsWorked++;
      else ctx.failures.push(`${ctx.mechanism}/${ctx.policyName}: ${name} should work: status ${out.status}, ${out.stderr.trim()}`);
    }
  }
  if (mustFail && python !== null) {
    // What programs pair up for themselves (stream and seqpacket pairs, as Node's and Python's
    // child processes use) keeps working with the network off.
    const paired = await sandboxed(ctx.mechanism, ctx.policy, `${quote(python)} -c ${quote('import socket\nfor kind in (socket.SOCK_STREAM, socket.SOCK_SEQPACKET):\n    a, b = socket.socketpair(socket.AF_UNIX, kind)\n    a.sendmsg([b"ok"])\n    print(b.recv(8).decode())')}`);
    tally.allowed++;
    if (paired.stdout === "ok\nok\n") tally.worked++;
    else ctx.failures.push(`${ctx.mechanism}/${ctx.policyName}: a Unix stream or seqpacket socketpair failed: ${paired.stderr.trim()}`);
  }
  if (mustFail) {
    const dns = hasGetent ? "getent hosts example.com" : python !== null ? `${quote(python)} -c 'import socket; socket.getaddrinfo("example.com", 80)'` : null;
    if (dns !== null) await attempt(ctx, "DNS lookup", dns, (out) => out.status === 0);
  }
}

/** Sends SIGTERM from inside the sandbox to a process outside it. */
async function probeSignal(ctx: Ctx): Promise<void> {
  if (ctx.mechanism === "landlock" && ((await landlockStatus()).abi ?? 0) < 6) {
    knownGaps.push("landlock: signals to outside processes are only blocked from Landlock ABI 6 (Linux 6.12)");
    return;
  }
  // The victim reports each signal it handles, lowest number first when several are pending:
  // once it reports the control (SIGWINCH, 28) sent after the probe ended, a SIGTERM (15) the
  // probe managed to send would have been reported before it.
  if (python === null) return;
  const victim = spawn(
    python,
    ["-c", "import signal, sys, time\nfor s in (signal.SIGTERM, signal.SIGWINCH):\n signal.signal(s, lambda n, f: print(signal.Signals(n).name, flush=True))\nprint('ready', flush=True)\nwhile True: time.sleep(1)"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const reported: string[] = [];
  victim.stdout.setEncoding("utf8");
  victim.stdout.on("data", (chunk: string) => reported.push(...chunk.split("\n").filter(Boolean)));
  try {
    assert.ok(await waitFor(() => reported.includes("ready"), 10_000), "the victim runs");
    await attempt(ctx, "SIGTERM to an outside process", `kill -TERM ${victim.pid}`, async () => {
      victim.kill("SIGWINCH");
      assert.ok(await waitFor(() => reported.includes("SIGWINCH"), 10_000), "the victim reported the control signal");
      return reported.includes("SIGTERM");
    });
  } finally {
    victim.kill("SIGKILL");
  }
}

async function runBattery(mechanism: Mechanism, policyName: PolicyName, listeners: Listeners): Promise<string[]> {
  const policy = POLICIES[policyName];
  const ctx: Ctx = { mechanism, policyName, policy, failures: [] };
  const out = outside ?? "/nonexistent";
  const slashTmpScratch = realpathSync(mkdtempSync(join("/tmp", "codex-ts-battery-")));
  const inTmp = !isInside(slashTmpScratch, base) && !isInside(base, slashTmpScratch);
  assert.ok(inTmp);

  try {
    if (policy.type === "danger-full-access") {
      // Positive controls: the same probes do see writes and connections when nothing confines.
      const before = { allowed: tally.allowed, worked: tally.worked };
      await mustWrite(ctx, "write outside the roots (control)", out);
      await probeNetwork(ctx, listeners, false);
      tally.controls += tally.allowed - before.allowed;
      tally.controlsWorked += tally.worked - before.worked;
      tally.allowed = before.allowed;
      tally.worked = before.worked;
      return ctx.failures;
    }

    // Escapes through the file system.
    await mustNotWrite(ctx, "write outside the roots", out);
    await mustNotWrite(ctx, "write through a symlink in the workspace", out, { viaPath: (t) => join(work, "out-link", relative(out, t)) });
    await mustNotWrite(ctx, "write through /proc/self/root", out, { viaPath: (t) => `/proc/self/root${t}` });
    {
      const source = fresh(work, "movable");
      writeFileSync(source, "payload");
      const dest = fresh(out, "moved");
      await attempt(ctx, "mv a workspace file outside", `mv ${quote(source)} ${quote(dest)}`, () => existsSync(dest));
      const hard = fresh(out, "hardlink");
      await attempt(ctx, "hard link of a workspace file outside", `ln ${quote(source)} ${quote(hard)}`, () => existsSync(hard));
      // The other way round: a link in the workspace to an outside file would let any write
      // inside (a command's, a patch's) land on that file.
      const outsideFile = fresh(out, "linked-in");
      writeFileSync(outsideFile, "original");
      const linkedIn = fresh(work, "hardlink-in");
      await attempt(ctx, "hard link of an outside file into the workspace", `ln ${quote(outsideFile)} ${quote(linkedIn)}`, () => existsSync(linkedIn));
    }
    {
      const victim = fresh(out, "chmod");
      writeFileSync(victim, "x", { mode: 0o644 });
      const script = `chmod 0777 ${quote(victim)}`;
      const changed = (): boolean => (statSync(victim).mode & 0o777) === 0o777;
      if (mechanism === "landlock") {
        await sandboxed(mechanism, policy, script);
        knownGaps.push(`landlock/${policyName}: chmod outside the roots ${changed() ? "works (Landlock does not cover metadata)" : "was refused"}`);
      } else {
        await attempt(ctx, "chmod a file outside the roots", script, changed);
      }
    }

    {
      // As root, a device node made in the workspace would be a door to the device (1,3 is
      // /dev/null, so a door that opens does no harm here).
      const node = fresh(work, "device-node");
      await attempt(ctx, "a device node made in the workspace and written through", `mknod ${quote(node)} c 1 3 && echo x > ${quote(node)}`, (o) => o.status === 0);
      rmSync(node, { force: true });
    }

    const readOnly = policy.type === "read-only";
    if (readOnly) {
      await mustNotWrite(ctx, "write in the workspace (read-only)", work);
      await mustNotWrite(ctx, "write in /tmp (read-only)", slashTmpScratch);
      await mustNotWrite(ctx, "write in $TMPDIR (read-only)", cmdTmp);
      await mustNotWrite(ctx, "write in an added root (read-only)", extra);
      await mustNotWrite(ctx, "write in .git (read-only)", join(work, ".git"));
    } else {
      await mustWrite(ctx, "write in the workspace", work);
      await mustWrite(ctx, "write in an added root", extra);
      const excluded = policy.type === "workspace-write" && policy.exclude_slash_tmp;
      if (excluded) {
        await mustNotWrite(ctx, "write in /tmp (excluded)", slashTmpScratch);
        await mustNotWrite(ctx, "write in $TMPDIR (excluded)", cmdTmp);
      } else {
        await mustWrite(ctx, "write in /tmp", slashTmpScratch);
        await mustWrite(ctx, "write in $TMPDIR", cmdTmp);
      }
      // Protected folders inside writable roots.
      const protectedDirs: Array<[string, string]> = [
        ["write in <cwd>/.git", join(work, ".git")],
        ["write in <cwd>/.codex", join(work, ".codex")],
      ];
      // The gitdir is writable (and so worth protecting) only through /tmp: when TMPDIR is
      // elsewhere it is outside every root, and no mechanism has anything to protect.
      if (!excluded && isInside(realpathSync("/tmp"), extraGitdir)) protectedDirs.push(["write in the gitdir an added root's .git file names", extraGitdir]);
      for (const [what, dir] of protectedDirs) {
        if (mechanism === "landlock") {
          const target = fresh(dir, "gap");
          await sandboxed(mechanism, policy, `echo x > ${quote(target)}`);
          assert.ok(existsSync(target), `${what}: Landlock cannot make it read-only, and this test documents that`);
          knownGaps.push(`landlock/${policyName}: ${what} is allowed (Landlock only grants rights)`);
        } else {
          await mustNotWrite(ctx, what, dir);
        }
      }
      {
        const target = fresh(join(work, ".git"), "replace");
        const parked = fresh(work, "parked-git");
        if (mechanism !== "landlock") {
          await attempt(ctx, "moving <cwd>/.git aside and recreating it", `mv .git ${quote(parked)} && mkdir .git && echo x > ${quote(target)}`, () => existsSync(parked) || existsSync(target));
        }
      }
    }
    const allowedDevNull = await sandboxed(mechanism, policy, "echo x > /dev/null && echo ok");
    tally.allowed++;
    if (allowedDevNull.stdout.trim() === "ok") tally.worked++;
    else ctx.failures.push(`${mechanism}/${policyName}: > /dev/null failed: ${allowedDevNull.stderr}`);

    // Network.
    const networkOn = policy.type === "workspace-write" && policy.network_access;
    await probeNetwork(ctx, listeners, !networkOn);
    const flag = await sandboxed(mechanism, policy, 'printf %s "$CODEX_SANDBOX_NETWORK_DISABLED"');
    if (flag.stdout !== (networkOn ? "" : "1")) ctx.failures.push(`${mechanism}/${policyName}: CODEX_SANDBOX_NETWORK_DISABLED is '${flag.stdout}'`);

    // Processes and secrets.
    await probeSignal(ctx);
    await attempt(ctx, "reading OPENAI_API_KEY / *TOKEN* from the environment", 'printf "%s|%s" "$OPENAI_API_KEY" "$BATTERY_ACCESS_TOKEN"', (o) => o.stdout.includes(SECRET));
    return ctx.failures;
  } finally {
    rmSync(slashTmpScratch, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

const mechanisms: Array<{ mechanism: Mechanism; skip: () => Promise<string | false> }> =
  process.platform === "darwin"
    ? [{ mechanism: "seatbelt", skip: () => Promise.resolve(existsSync("/usr/bin/sandbox-exec") ? false : "sandbox-exec is missing") }]
    : [
        { mechanism: "bwrap", skip: async () => ((await findBwrap(work)) === null ? "bubblewrap cannot run here" : false) },
        {
          mechanism: "landlock",
          skip: async () => {
            const status = await landlockStatus();
            return status.available ? false : `Landlock is unavailable: ${status.reason ?? ""}`;
          },
        },
      ];

const supported = process.platform === "linux" || process.platform === "darwin";

void test("sandbox battery", { skip: !supported ? "no sandbox on this platform" : outside === null ? "no directory outside every root" : false }, async (t) => {
  const listeners = await startListeners(outside as string, python);
  try {
    for (const { mechanism, skip } of mechanisms) {
      const reason = await skip();
      for (const policyName of Object.keys(POLICIES) as PolicyName[]) {
        await t.test(`${mechanism} / ${policyName}`, { skip: reason }, async () => {
          const failures = await runBattery(mechanism, policyName, listeners);
          assert.deepEqual(failures, []);
        });
      }
    }
  } finally {
    await listeners.close();
  }
});

void test("codex-ts sandbox runs a command confined, with its exit status", { skip: !supported ? "no sandbox on this platform" : outside === null ? "no directory outside every root" : false }, async () => {
  const ws = makeWorkspace();
  const escapeTarget = fresh(outside ?? "/nonexistent", "cli");
  const r = await runCli(["sandbox", "-s", "workspace-write", "--", "sh", "-c", `echo ok > inside.txt; echo x > ${quote(escapeTarget)}; printf %s "$OPENAI_API_KEY"; exit 3`], {
    cwd: ws.dir,
    home: ws.home,
  });
  assert.equal(r.code, 3, r.stderr);
  tally.allowed++;
  if (existsSync(join(ws.dir, "inside.txt"))) tally.worked++;
  assert.ok(existsSync(join(ws.dir, "inside.txt")), "the workspace is writable");
  tally.attempts += 2;
  if (existsSync(escapeTarget)) tally.escaped++;
  if (r.stdout.includes("sk-test-key")) tally.escaped++;
  assert.equal(existsSync(escapeTarget), false, "outside stays untouched");
  assert.equal(r.stdout.includes("sk-test-key"), false, "the API key is not passed to the command");

  const readOnly = await runCli(["sandbox", "--", "sh", "-c", "echo x > f"], { cwd: ws.dir, home: ws.home });
  tally.attempts++;
  if (existsSync(join(ws.dir, "f"))) tally.escaped++;
  assert.notEqual(readOnly.code, 0, "read-only is the default");
  assert.equal(existsSync(join(ws.dir, "f")), false);

  const missing = await runCli(["sandbox", "--", "codex-ts-no-such-command"], { cwd: ws.dir, home: ws.home });
  assert.equal(missing.code, 127, missing.stderr);
  const killed = await runCli(["sandbox", "--", "sh", "-c", "kill -TERM $$"], { cwd: ws.dir, home: ws.home });
  assert.equal(killed.code, 128 + 15, killed.stderr);
});

void test("launcher: danger-full-access is untouched, other platforms refuse, macOS gets seatbelt", async () => {
  const argv = ["echo", "hi"];
  const none = await sandboxCommand({ policy: { type: "danger-full-access" }, cwd: work, argv, env: { A: "1" } });
  assert.deepEqual(none, { argv, env: { A: "1" }, sandbox: "none" });

  await assert.rejects(
    sandboxCommand({ policy: { type: "read-only" }, cwd: work, argv, env: {}, platform: "win32" }),
    (err: Error) => err instanceof SandboxUnavailableError && /danger-full-access/.test(err.message),
  );
  await assert.rejects(
    sandboxCommand({ policy: { type: "read-only" }, cwd: work, argv, env: {}, platform: "linux", linuxSandbox: "chroot" }),
    SandboxUnavailableError,
  );

  const mac = await sandboxCommand({ policy: POLICIES["workspace-write+network"], cwd: work, argv, env: { A: "1" }, platform: "darwin" });
  assert.equal(mac.sandbox, "seatbelt");
  assert.equal(mac.argv[0], "/usr/bin/sandbox-exec");
  assert.deepEqual(mac.argv.slice(-3), ["--", "echo", "hi"]);
  assert.deepEqual(mac.env, { A: "1", CODEX_SANDBOX: "seatbelt" }, "network allowed: no CODEX_SANDBOX_NETWORK_DISABLED");
  const macRo = await sandboxCommand({ policy: { type: "read-only" }, cwd: work, argv, env: {}, platform: "darwin" });
  assert.equal(macRo.env.CODEX_SANDBOX_NETWORK_DISABLED, "1");
});

void test("battery summary", () => {
  const line =
    `sandbox battery: ${tally.attempts} escape attempts, ${tally.escaped} escaped; ` +
    `${tally.allowed} allowed writes, ${tally.worked} worked; ` +
    `${tally.connectionsAllowed} allowed connections, ${tally.connectionsWorked} worked; ` +
    `${tally.controls} unconfined controls, ${tally.controlsWorked} landed`;
  console.log(line);
  for (const gap of [...new Set(knownGaps)]) console.log(`  known gap: ${gap}`);
  for (const escape of escapes) console.log(`  ESCAPE: ${escape}`);
  // A battery whose every mechanism was skipped checked nothing: that is a failure, not a pass.
  if (supported) assert.ok(tally.attempts > 0 && tally.allowed > 0, "no escape attempt ran: no sandbox mechanism could be tested here");
  assert.equal(tally.escaped, 0, escapes.join("\n"));
  assert.equal(tally.worked, tally.allowed);
  assert.equal(tally.controlsWorked, tally.controls);
});
