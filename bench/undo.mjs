#!/usr/bin/env node
// What undo's snapshots cost per turn, on a git repository of 10,000 files.
//
// Part 1, in this process, on the compiled engine (dist/src/undo/): a turn's first snapshot, a
// small change (three files, not timed), and the second snapshot with the diff and the ghost
// commit: what a turn that changed files pays. Beside it, run for run in turns, the reference's
// seeds' ghost commit as their git-tooling made it: `git status` for the untracked files, a
// temporary index filled from HEAD (`read-tree`), `git add --all`, `write-tree`, `commit-tree`.
// Both on a clean tree and on one with uncommitted work (50 files modified, 100 new). Wall time
// and CPU time (this process and its git children, from /proc/self/stat) per turn.
//
// Part 2, end to end: `codex-ts exec` runs one turn that writes a file, in the same repository,
// with undo on and with `-c ghost_snapshot.enabled=false`, the bundle without and with
// NODE_EXTRA_CA_CERTS: the difference is what a user waits for. The reference's exec (which has
// no undo) runs the same turn in the same rounds, for scale.
//
// Nothing is asserted. Usage: node bench/undo.mjs [--runs N] [--files N] [--keep]
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { requireBuilt } from "./built.mjs";
import { loadAverage } from "./machine.mjs";
import { median, parseRuns } from "./stats.mjs";
import { benchNodeVersion, childEnv, codexTsVariants, referenceBinary, referenceConfig, reportRow } from "./subjects.mjs";
import { printTable } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ENGINE = join(ROOT, "dist/src/undo/snapshotter.js");
const SERVER = join(ROOT, "dist/test/support/model-server.js");
const TARGET_MS = 50;

function parseFiles(argv) {
  const i = argv.indexOf("--files");
  const n = i === -1 ? 10_000 : Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 100) {
    console.error("--files needs an integer of at least 100");
    process.exit(2);
  }
  return n;
}

// No automatic gc: one started in the background by the first commit would run beside the timed turns.
const git = (cwd, ...args) => execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "gc.auto=0", ...args], { cwd, encoding: "utf8" });

/** A committed repository of `files` files in folders of 100 (source-sized: 1-3 KiB each). */
function makeRepo(files) {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-bench-undo-"));
  git(dir, "init", "-q", "-b", "main");
  for (let d = 0; d < files / 100; d++) {
    mkdirSync(join(dir, "src", `m${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, "src", `m${d}`, `f${f}.ts`), `export const v${d}_${f} = ${f};\n`.repeat(40 + (f % 3) * 40));
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "init");
  // Packed, as a repository of this size is once git has run its gc.
  git(dir, "gc", "-q");
  return dir;
}

/** Uncommitted work: 50 tracked files modified, 100 new ones in five folders. */
function dirty(dir) {
  for (let f = 0; f < 50; f++) writeFileSync(join(dir, "src", `m${f % 10}`, `f${10 + Math.floor(f / 10)}.ts`), `// edited by the user\nexport const e${f} = ${f};\n`);
  for (let d = 0; d < 5; d++) {
    mkdirSync(join(dir, "new", `n${d}`), { recursive: true });
    for (let f = 0; f < 20; f++) writeFileSync(join(dir, "new", `n${d}`, `g${f}.ts`), `export const g = ${f};\n`);
  }
}

/** The turn's change (not timed), and taking it back afterwards so every round starts alike. */
function change(dir) {
  writeFileSync(join(dir, "src", "m1", "f1.ts"), "export const changed = true;\n");
  writeFileSync(join(dir, "turn-new.ts"), "export const created = true;\n");
  unlinkSync(join(dir, "src", "m2", "f2.ts"));
}
function unchange(dir) {
  git(dir, "checkout", "-q", "--", "src/m1/f1.ts", "src/m2/f2.ts");
  rmSync(join(dir, "turn-new.ts"), { force: true });
}

/** CPU time so far of this process and its waited-for children (git), in ms. */
function cpuMs() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  // After "pid (comm) ": state is field 3, so utime..cstime (fields 14-17) are at 11..14 here.
  const ticks = fields.slice(11, 15).reduce((sum, n) => sum + Number(n), 0);
  return ticks * 10 + 0; // USER_HZ is 100 on Linux
}

async function codexTsTurn(engine, store, dir, n) {
  const snapshotter = new engine.Snapshotter(store(n), {
    limits: { largeFileBytes: 10 * 1024 * 1024, largeDirFiles: 200 },
    mayRead: () => true,
    warn: () => {},
  });
  // A fresh session per round would pay the repository discovery once; a long session does not.
  // The warm-up is a turn that has ended (its snapshots written), as a session's last one has.
  const warm = snapshotter.beginTurn("warm", dir);
  await warm.ready;
  await warm.finish();
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const capture = snapshotter.beginTurn(`t${n}`, dir);
  await capture.ready;
  const first = performance.now() - t0;
  capture.toolsStarting();
  change(dir);
  const t1 = performance.now();
  capture.toolsFinished();
  const pending = await capture.finish();
  const second = performance.now() - t1;
  const t2 = performance.now();
  if (pending === null) throw new Error("the turn's change was not seen");
  await pending.complete();
  const commit = performance.now() - t2;
  const cpu = cpuMs() - cpu0;
  unchange(dir);
  return { first, second, commit, total: first + second + commit, cpu };
}

/** The seeds' create_ghost_commit: untracked files from status, a temporary index from HEAD, add --all. */
async function seedsTurn(dir, tmp, n) {
  const run = (args, env = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn("git", args, { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`git ${args[0]} failed`))));
    });
  const cpu0 = cpuMs();
  const t0 = performance.now();
  await run(["status", "--porcelain=2", "-z", "--untracked-files=all"]);
  const head = await run(["rev-parse", "HEAD"]);
  const env = { GIT_INDEX_FILE: join(tmp, `seed-index-${n}`) };
  await run(["read-tree", head], env);
  await run(["add", "--all"], env);
  const tree = await run(["write-tree"], env);
  await run(["commit-tree", tree, "-p", head, "-m", "codex snapshot"], { ...env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" });
  const total = performance.now() - t0;
  const cpu = cpuMs() - cpu0;
  rmSync(env.GIT_INDEX_FILE, { force: true });
  return { total, cpu };
}

async function part1(runs, files, keep) {
  const engine = await import(ENGINE);
  const storage = await import(join(ROOT, "dist/src/undo/storage.js"));
  const home = mkdtempSync(join(tmpdir(), "codex-ts-bench-undo-store-"));
  const store = (n) => storage.storeLayout(home, `0000000${n % 10}-0000-7000-8000-000000000000`);
  const rows = [];
  for (const state of ["clean", "uncommitted work"]) {
    const dir = makeRepo(files);
    if (state !== "clean") {
      dirty(dir);
      // The user's work predates the session: files changed within 2 s of a snapshot are "racy"
      // (their trees are not reused), which would make the first rounds here unlike any turn.
      await new Promise((resolve) => setTimeout(resolve, 2100));
    }
    const ours = [];
    const seeds = [];
    for (let i = 0; i < runs + 1; i++) {
      // Turns: codex-ts first on even rounds, the seeds' first on odd ones.
      const pair = i % 2 === 0 ? [() => codexTsTurn(engine, store, dir, i), () => seedsTurn(dir, home, i)] : [() => seedsTurn(dir, home, i), () => codexTsTurn(engine, store, dir, i)];
      const a = await pair[0]();
      const b = await pair[1]();
      if (i === 0) continue; // warm-up
      (i % 2 === 0 ? ours : seeds).push(a);
      (i % 2 === 0 ? seeds : ours).push(b);
    }
    const m = (list, key) => median(list.map((r) => r[key]));
    rows.push([`codex-ts, ${state}: first snapshot`, m(ours, "first").toFixed(1), "", ""]);
    rows.push([`codex-ts, ${state}: second snapshot + diff`, m(ours, "second").toFixed(1), "", ""]);
    rows.push([`codex-ts, ${state}: ghost commit + record`, m(ours, "commit").toFixed(1), "", ""]);
    rows.push([`codex-ts, ${state}: per turn`, m(ours, "total").toFixed(1), m(ours, "cpu").toFixed(0), `target ≤ ${TARGET_MS} ms`]);
    rows.push([`seeds' ghost commit, ${state}: per turn`, m(seeds, "total").toFixed(1), m(seeds, "cpu").toFixed(0), ""]);
    reportRow({ figure: `undo snapshots per turn, ${files} files, ${state}`, ours: `${m(ours, "total").toFixed(1)} ms`, reference: `${m(seeds, "total").toFixed(1)} ms (seeds' ghost commit)`, ratio: m(ours, "total") / m(seeds, "total"), target: `≤ ${TARGET_MS} ms` });
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
  rmSync(home, { recursive: true, force: true });
  printTable([["per turn (median)", "wall ms", "CPU ms", ""], ...rows]);
}

/**
 * One `exec` turn that writes a file; resolves with its wall time in ms. `modelMs`: how long the
 * scripted model takes before each answer (0: at once; a real model takes seconds, and undo's
 * snapshots are taken while it works). `undo` is null for the reference (it has no undo).
 */
async function execOnce(m, subject, dir, undo, modelMs) {
  const codexHome = mkdtempSync(join(tmpdir(), "codex-ts-bench-undo-home-"));
  const server = await m.startModelServer([
    { ...m.turn(m.fnCall("exec_command", { cmd: "echo x > bench-out.txt", login: false }, "c1")), delayMs: modelMs },
    { ...m.turn(m.text("done")), delayMs: modelMs },
  ]);
  subject.setup?.(codexHome, server.url);
  const argv = subject.argv(server.url, undo);
  const env = childEnv({ ...subject.env, CODEX_HOME: codexHome, HOME: codexHome, OPENAI_API_KEY: "sk-bench", CODEX_API_KEY: undefined, OPENAI_BASE_URL: undefined });
  const start = performance.now();
  const code = await new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: dir, env, stdio: ["ignore", "ignore", "ignore"] });
    child.on("close", resolve);
  });
  const wall = performance.now() - start;
  await server.close();
  rmSync(codexHome, { recursive: true, force: true });
  rmSync(join(dir, "bench-out.txt"), { force: true });
  if (code !== 0) throw new Error(`${subject.label} exited with ${code}`);
  return wall;
}

/** codex-ts's bundle (without and with NODE_EXTRA_CA_CERTS), each with undo on and off; the reference's native binary when installed. */
function execSubjects() {
  const subjects = codexTsVariants({ tsc: false }).map((v) => ({
    label: v.label,
    env: v.env,
    modes: [true, false],
    argv: (url, undo) => [...v.argv, "exec", "--json", "-s", "danger-full-access", "-c", `openai_base_url="${url}"`, ...(undo ? [] : ["-c", "ghost_snapshot.enabled=false"]), "write a file"],
  }));
  const ref = referenceBinary();
  if (ref) {
    subjects.push({
      label: "reference (native, no undo)",
      env: {},
      modes: [null],
      setup: (codexHome, url) => writeFileSync(join(codexHome, "config.toml"), referenceConfig(url)),
      argv: () => [ref, "exec", "--json", "-s", "danger-full-access", "write a file"],
    });
  }
  return subjects;
}

async function part2(runs, files) {
  const m = await import(SERVER);
  const dir = makeRepo(files);
  const subjects = execSubjects();
  const rows = [];
  for (const modelMs of [0, 500]) {
    const times = new Map();
    for (let i = 0; i < runs + 1; i++) {
      // Alternating: the subjects in turn, undo on first on even rounds and off first on odd ones.
      for (const subject of i % 2 === 0 ? subjects : [...subjects].reverse()) {
        for (const undo of i % 2 === 0 ? subject.modes : [...subject.modes].reverse()) {
          const wall = await execOnce(m, subject, dir, undo, modelMs);
          if (i === 0) continue;
          const key = `${subject.label}|${undo}`;
          times.set(key, [...(times.get(key) ?? []), wall]);
        }
      }
    }
    const when = modelMs === 0 ? "at once" : `after ${modelMs} ms`;
    for (const subject of subjects) {
      if (subject.modes[0] === null) {
        rows.push([`${subject.label}, model answers ${when}`, median(times.get(`${subject.label}|null`)).toFixed(0), "", ""]);
        continue;
      }
      const on = median(times.get(`${subject.label}|true`));
      const off = median(times.get(`${subject.label}|false`));
      rows.push([`${subject.label}, model answers ${when}`, on.toFixed(0), off.toFixed(0), (on - off).toFixed(0)]);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  printTable([["exec, one turn (median wall ms)", "undo on", "undo off", "difference"], ...rows]);
}

async function main() {
  requireBuilt(ENGINE, SERVER);
  const runs = parseRuns(process.argv, 9);
  const files = parseFiles(process.argv);
  const keep = process.argv.includes("--keep");
  console.log(`undo snapshots on a git repository of ${files} files · ${runs} runs each · node ${benchNodeVersion()} · load average ${loadAverage()}`);
  await part1(runs, files, keep);
  await part2(Math.max(3, Math.ceil(runs / 2)), files);
  console.log(`load average at the end: ${loadAverage()}`);
}

await main();
