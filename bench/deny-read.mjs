#!/usr/bin/env node
// What a deny list costs each command (docs/sandbox.md, "Denied paths"):
// 1. The guard's view (fs-guard.ts) of a project with the built-in denials: the first, cold walk
//    and the warm ones that follow (one lstat per folder), on a small project and on this
//    repository with its node_modules; and the first view after the background walk a session
//    starts with (prewarm), when the build has it.
// 2. Spawning `true` through sandboxCommand with the built-in denials and a .env to hide, and
//    with the same denial written in the user's own profile, next to the same command without a
//    guard, under bubblewrap and Landlock (alternating). Landlock leaves the built-in denial out
//    (a writable folder is above it); the user's own it enforces.
// 3. The CLI as a user runs it, `codex-ts sandbox -- true` against the reference's
//    `codex sandbox -- true`, each with a profile denying `**/.env` (alternating, in the same run),
//    when the reference is installed at /work/ref.
// Prints medians and p90s and the load average; asserts nothing.
// Usage: node bench/deny-read.mjs [--runs N]     (default 20; CODEX_TS_DIST=path picks another build;
//        CODEX_TS_BENCH_DIR=folder puts the projects there instead of the temporary folder; the
//        CLI rows run codex-ts with NODE_EXTRA_CA_CERTS only when the bench itself has it)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, parseRuns, percentile } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = process.env.CODEX_TS_DIST ? resolve(process.env.CODEX_TS_DIST) : join(ROOT, "dist");
const REFERENCE = "/work/ref/node_modules/.bin/codex";

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const summary = (label, values) => console.log(`  ${label.padEnd(44)} median ${fmt(median(values)).padStart(9)}   p90 ${fmt(percentile(values, 90)).padStart(9)}`);

function time(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

function spawnTimed(argv, cwd, env) {
  const start = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${argv.join(" ").slice(0, 80)} exited with ${r.status}: ${r.stderr}`);
  return ms;
}

async function main() {
  const runs = parseRuns(process.argv.slice(2), 20);
  requireBuilt(join(DIST, "src/sandbox/fs-guard.js"));
  const { FileSystemGuard } = await import(pathToFileURL(join(DIST, "src/sandbox/fs-guard.js")).href);
  const { sandboxCommand } = await import(pathToFileURL(join(DIST, "src/sandbox/launcher.js")).href);
  const { loadConfig } = await import(pathToFileURL(join(DIST, "src/config/load-config.js")).href);
  console.log(`load average: ${loadavg().map((l) => l.toFixed(2)).join(" ")}   runs: ${runs}`);

  const scratch = mkdtempSync(join(process.env.CODEX_TS_BENCH_DIR ? resolve(process.env.CODEX_TS_BENCH_DIR) : tmpdir(), "codex-ts-bench-deny-"));
  const home = join(scratch, "home");
  const small = join(scratch, "small");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  // A home with an SSH key, as most have: the built-in denials hide it too.
  writeFileSync(join(home, ".ssh", "id_ed25519"), "key\n");
  mkdirSync(join(small, ".git"), { recursive: true });
  for (let i = 0; i < 20; i++) {
    mkdirSync(join(small, `dir${i}`, "sub"), { recursive: true });
    writeFileSync(join(small, `dir${i}`, "sub", "file.ts"), "x");
  }
  writeFileSync(join(small, ".env"), "TOKEN=x\n");
  const ownHome = join(scratch, "own-home");
  mkdirSync(ownHome);
  writeFileSync(join(ownHome, "config.toml"), 'default_permissions = "own"\n[permissions.own]\nextends = ":workspace"\n[permissions.own.filesystem]\n":project_roots" = { "**/.env" = "none" }\n');
  const rulesFor = (cwd, codexHome = home) => loadConfig({ cwd, overrides: [], env: { CODEX_HOME: codexHome, HOME: home } }).fileSystemRules;

  console.log("\nThe guard's view with the built-in denials (.env files, SSH keys)");
  for (const [label, cwd] of [["small project (41 folders)", small], ["this repository, node_modules included", ROOT]]) {
    const guard = new FileSystemGuard(rulesFor(cwd));
    const cold = time(() => guard.view());
    const warm = Array.from({ length: runs }, () => time(() => guard.view()));
    console.log(`  ${label}: cold ${fmt(cold)}`);
    summary("  warm", warm);
    if (typeof guard.prewarm === "function") {
      const fresh = new FileSystemGuard(rulesFor(cwd));
      const start = performance.now();
      await fresh.prewarm();
      const background = performance.now() - start;
      console.log(`  ${label}: background walk ${fmt(background)} (not blocking), then the first view ${fmt(time(() => fresh.view()))}`);
    }
  }

  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
  const policy = { type: "workspace-write", writable_roots: [], network_access: false, exclude_slash_tmp: false, exclude_tmpdir_env_var: false };
  console.log("\nSpawning `true` in the small project (workspace-write), with and without the denials");
  const guards = [
    ["built-in denials (incl. view)", new FileSystemGuard(rulesFor(small), { warn: () => undefined })],
    ["the user's own .env denial (incl. view)", new FileSystemGuard(rulesFor(small, ownHome), { warn: () => undefined })],
  ];
  for (const mechanism of ["bwrap", "landlock"]) {
    let plain;
    try {
      plain = await sandboxCommand({ policy, cwd: small, argv: ["true"], env, linuxSandbox: mechanism });
    } catch (err) {
      console.log(`  ${mechanism}: unavailable (${err.message})`);
      continue;
    }
    const without = [];
    const withDenials = guards.map(() => []);
    for (let i = 0; i < runs + 2; i++) {
      const a = spawnTimed(plain.argv, small, plain.env);
      if (i >= 2) without.push(a);
      for (const [index, [, guard]] of guards.entries()) {
        const start = performance.now();
        const denied = await sandboxCommand({ policy, cwd: small, argv: ["true"], env, linuxSandbox: mechanism, guard });
        const b = performance.now() - start + spawnTimed(denied.argv, small, denied.env);
        if (i >= 2) withDenials[index].push(b);
      }
    }
    summary(`${mechanism}: no deny list`, without);
    for (const [index, [label]] of guards.entries()) summary(`${mechanism}: ${label}`, withDenials[index]);
  }

  console.log("\nThe CLI: `sandbox -- true` with a profile denying **/.env, alternating with the reference");
  const profile = 'default_permissions = "p"\n[analytics]\nenabled = false\n[features]\nplugins = false\n[permissions.p.filesystem]\n":root" = "read"\n":project_roots" = { "." = "write", "**/.env" = "none" }\n';
  const oursHome = join(scratch, "ours-home");
  const refHome = join(ROOT, "..", `refhome-bench-deny-${process.pid}`);
  mkdirSync(oursHome);
  mkdirSync(refHome);
  writeFileSync(join(oursHome, "config.toml"), profile);
  writeFileSync(join(refHome, "config.toml"), profile);
  const cli = [process.execPath, join(DIST, "src/cli/main.js"), "sandbox", "--", "true"];
  // The reference keeps folders of its own in the temporary folder (and, while a command runs,
  // empty .git, .codex, .agents and .aws mount points in writable roots): a scratch one for both.
  const cliTmp = join(scratch, "tmp");
  mkdirSync(cliTmp);
  // Node reads NODE_EXTRA_CA_CERTS before any script runs: passed on only when the bench has it.
  const caEnv = process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {};
  console.log(`  (codex-ts ${caEnv.NODE_EXTRA_CA_CERTS ? `with NODE_EXTRA_CA_CERTS=${caEnv.NODE_EXTRA_CA_CERTS}` : "without NODE_EXTRA_CA_CERTS"})`);
  const haveRef = existsSync(REFERENCE);
  const ours = [];
  const ref = [];
  try {
    for (let i = 0; i < runs + 2; i++) {
      const a = spawnTimed(cli, small, { ...env, ...caEnv, TMPDIR: cliTmp, CODEX_HOME: oursHome });
      const b = haveRef ? spawnTimed([REFERENCE, "sandbox", "--", "true"], small, { ...env, TMPDIR: cliTmp, CODEX_HOME: refHome }) : 0;
      if (i >= 2) {
        ours.push(a);
        ref.push(b);
      }
    }
    summary("codex-ts sandbox -- true", ours);
    if (haveRef) summary("reference codex sandbox -- true", ref);
    else console.log("  (the reference is not installed; skipped)");
  } finally {
    rmSync(refHome, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`load average: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
}

await main();
