#!/usr/bin/env node
// apply_patch on large patches, codex-ts beside the reference's native applier, in one run on the
// same generated inputs: a 2,000-chunk patch on one 200,000-line file, and one patch that touches
// 500 files. Both tools run as whole processes (start-up included) with the patch on stdin, in
// the same scratch folder, taking turns run by run so machine load affects all alike. codex-ts is
// the bundle's binary without NODE_EXTRA_CA_CERTS, the same with it (Node parses those before any
// script runs), and the tsc build (before the bundle); it is also timed in-process
// (`applyPatchInDirectory`, no process start), which is the engine's share.
// Nothing here asserts on timings; it only reports them.
//
// Usage: node bench/apply-patch.mjs [--runs N]          (default 7)
//   CODEX_TS_BENCH_DIR=dir   where the files are written (default: the system temp folder);
//                            use a folder on a real disk, tmpfs hides the cost of metadata
//   CODEX_REF_BIN=path       the reference: its npm launcher or native binary (default:
//                            /work/ref/node_modules/.bin/codex, else `codex` on PATH)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { requireBuilt } from "./built.mjs";
import { loadAverage } from "./machine.mjs";
import { readRusage, rusageAvailable, withRusage } from "./rusage.mjs";
import { median, parseRuns } from "./stats.mjs";
import { benchNodeVersion, BUNDLE_BIN, childEnv, codexTsVariants, referenceBinary, reportRow } from "./subjects.mjs";
import { printTable } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
const WARMUP = 1;
const TARGET = 1.05;

// ---------------------------------------------------------------------------------------------
// Scenarios: each builds its files (relative path -> content) and a patch.

/** One big file; every 100 lines, a chunk with 3 lines of context replaces one line by two. */
function bigFileScenario() {
  const lineCount = 200_000;
  const chunkCount = 2_000;
  const line = (i) => `  const value${i} = compute(${i}, "some text") + offset; // line ${i}`;
  const lines = Array.from({ length: lineCount }, (_, i) => line(i));
  const stride = lineCount / chunkCount;
  const body = [];
  for (let c = 0; c < chunkCount; c++) {
    const at = Math.floor(c * stride + stride / 2);
    body.push("@@");
    for (let i = at - 3; i < at; i++) body.push(` ${lines[i]}`);
    body.push(`-${lines[at]}`, `+  const value${at} = computeFaster(${at}); // changed`, `+  check(value${at});`);
    for (let i = at + 1; i <= at + 3; i++) body.push(` ${lines[i]}`);
  }
  return {
    label: "1 file, 2,000 chunks",
    size: "200,000 lines (15 MB)",
    files: new Map([["big/generated.ts", `${lines.join("\n")}\n`]]),
    patch: patchText([["*** Update File: big/generated.ts", ...body]]),
    check: (dir) => readFileSync(join(dir, "big/generated.ts"), "utf8").includes("computeFaster("),
  };
}

/** 500 small files in 20 directories, each updated by one chunk, plus 5 added and 5 deleted. */
function manyFilesScenario() {
  const fileCount = 500;
  const extra = 5;
  const files = new Map();
  const sections = [];
  const path = (i) => `pkg${i % 20}/module${i}.ts`;
  for (let i = 0; i < fileCount + extra; i++) {
    const lines = Array.from({ length: 40 }, (_, k) => `export const item${k} = ${i * 100 + k}; // module ${i}`);
    files.set(path(i), `${lines.join("\n")}\n`);
    if (i >= fileCount) {
      sections.push([`*** Delete File: ${path(i)}`]);
      continue;
    }
    const at = 10 + (i % 20);
    sections.push([
      `*** Update File: ${path(i)}`,
      "@@",
      ...lines.slice(at - 3, at).map((l) => ` ${l}`),
      `-${lines[at]}`,
      `+export const item${at} = ${i * 100 + at} * 2; // changed`,
      ...lines.slice(at + 1, at + 4).map((l) => ` ${l}`),
    ]);
  }
  for (let i = 0; i < extra; i++) sections.push([`*** Add File: added/new${i}.ts`, `+export const added${i} = ${i};`]);
  return {
    label: "500 files",
    size: "500 updated, 5 added, 5 deleted",
    files,
    patch: patchText(sections),
    check: (dir) => readFileSync(join(dir, path(0)), "utf8").includes("// changed") && !existsSync(join(dir, path(fileCount))),
  };
}

function patchText(sections) {
  return ["*** Begin Patch", ...sections.flat(), "*** End Patch", ""].join("\n");
}

// ---------------------------------------------------------------------------------------------
// The two appliers

/** Each applier as a command that reads the patch on stdin in its working directory. */
async function appliers(scratch, workDir) {
  const list = codexTsVariants().map((v) => ({ name: v.label, key: v.key, argv: [...v.argv, "apply_patch"], env: childEnv(v.env) }));
  // The other way to keep patches inside the roots, the reference's: apply them in a sandboxed
  // process. Timed so the choice of the in-process scoped commit rests on figures.
  if (process.platform === "linux") {
    const { sandboxCommand } = await import(pathToFileURL(join(DIST, "src/sandbox/launcher.js")).href);
    mkdirSync(workDir, { recursive: true });
    const policy = { type: "workspace-write", writable_roots: [], network_access: false, exclude_slash_tmp: true, exclude_tmpdir_env_var: true };
    const first = list[0];
    try {
      const boxed = await sandboxCommand({ policy, cwd: workDir, argv: first.argv, env: { ...first.env }, linuxSandbox: "bwrap" });
      // rusage cannot see inside bwrap's PID namespace: no CPU figure for this row.
      list.push({ name: `${first.name} in bubblewrap`, key: "bwrap", argv: boxed.argv, env: boxed.env, noCpu: true });
    } catch {
      // No bubblewrap here: the row is left out.
    }
  }
  const reference = referenceBinary();
  if (reference) {
    // The native binary applies a patch when started under the name apply_patch.
    const link = join(scratch, "bin", "apply_patch");
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(reference, link);
    list.push({ name: "reference", key: "ref", argv: [link], env: childEnv(), binary: reference });
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// Measurement

/** Writes the scenario's files into `dir` and removes whatever else is there (added files). */
function resetDir(dir, files) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [rel, content] of files) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  // Flush the rewrite before the timed run, so it measures the patch and not the file system
  // still catching up on the previous tree (the files a patch edits were usually written long before).
  spawnSync("sync");
}

/** Wall time from fork to exit, CPU time and peak RSS (bench/rusage.py) of one whole process. */
function runProcess(applier, scenario, dir, timeFile) {
  const argv = withRusage(applier.argv, timeFile);
  const start = performance.now();
  const child = spawnSync(argv[0], argv.slice(1), { cwd: dir, env: applier.env, input: scenario.patch, encoding: "utf8", maxBuffer: 64 << 20 });
  const ms = performance.now() - start;
  if (child.status !== 0 || !scenario.check(dir)) {
    throw new Error(`${applier.name} failed on ${scenario.label} (status ${child.status}): ${child.stderr || child.error?.message}`);
  }
  const usage = readRusage(timeFile, ms);
  return { ms: usage.wallMs, cpu: usage.cpuMs };
}

async function runInProcess(engine, scenario, dir) {
  const start = performance.now();
  const result = await engine.applyPatchInDirectory(scenario.patch, dir);
  const ms = performance.now() - start;
  if (!result.ok || !scenario.check(dir)) throw new Error(`in-process apply failed on ${scenario.label}: ${result.stderr}`);
  return { ms };
}

/**
 * The path the agent's patches take: parse, plan, and a commit under a write scope (the folder
 * as the only root, its .git and .codex protected), every write checked where it lands.
 */
async function runScoped(engine, scenario, dir) {
  const start = performance.now();
  const plan = await engine.planPatch(engine.parsePatch(scenario.patch), dir);
  const real = realpathSync(dir);
  await engine.commitPlan(plan, { roots: [real], protectedPaths: [join(real, ".git"), join(real, ".codex")], approved: [] });
  const ms = performance.now() - start;
  if (!scenario.check(dir)) throw new Error(`scoped apply failed on ${scenario.label}`);
  return { ms };
}

/** Samples per tool name ("in-process" for the engine alone): lists of { ms, cpu? }. */
async function measure(scenario, tools, engine, runs, dir, timeFile) {
  const samples = new Map([...tools.map((t) => [t.name, []]), ["in-process", []], ["in-process, write scope", []]]);
  for (let round = 0; round < WARMUP + runs; round++) {
    // Alternate the order so neither tool always runs right after a reset.
    const order = round % 2 ? [...tools].reverse() : tools;
    for (const tool of order) {
      resetDir(dir, scenario.files);
      const sample = runProcess(tool, scenario, dir, timeFile);
      if (round >= WARMUP) samples.get(tool.name).push(sample);
    }
    resetDir(dir, scenario.files);
    const sample = await runInProcess(engine, scenario, dir);
    if (round >= WARMUP) samples.get("in-process").push(sample);
    resetDir(dir, scenario.files);
    const scoped = await runScoped(engine, scenario, dir);
    if (round >= WARMUP) samples.get("in-process, write scope").push(scoped);
  }
  return samples;
}

function fsTypeOf(path) {
  try {
    const mounts = readFileSync("/proc/mounts", "utf8").split("\n").map((l) => l.split(" ")).filter((f) => f.length > 2);
    const real = realpathSync(path);
    const best = mounts.filter(([, at]) => real === at || real.startsWith(at.endsWith("/") ? at : `${at}/`)).sort((a, b) => b[1].length - a[1].length)[0];
    return best ? `${best[2]} (${best[0]} on ${best[1]})` : "unknown";
  } catch {
    return "unknown";
  }
}

async function main() {
  const runs = parseRuns(process.argv.slice(2), 7);
  requireBuilt(BUNDLE_BIN, join(DIST, "src/patch/apply-patch.js"));
  const load = (file) => import(pathToFileURL(join(DIST, "src/patch", file)).href);
  const engine = { ...(await load("apply-patch.js")), ...(await load("parser.js")), ...(await load("plan.js")), ...(await load("commit.js")) };
  const base = process.env.CODEX_TS_BENCH_DIR ? resolve(process.env.CODEX_TS_BENCH_DIR) : tmpdir();
  mkdirSync(base, { recursive: true });
  const scratch = mkdtempSync(join(base, "codex-ts-bench-patch-"));
  const fsType = fsTypeOf(scratch);
  const loads = [loadAverage()];
  const rows = [];
  let tools;
  try {
    tools = await appliers(scratch, join(scratch, "work"));
    for (const scenario of [bigFileScenario(), manyFilesScenario()]) {
      rows.push({ scenario, samples: await measure(scenario, tools, engine, runs, join(scratch, "work"), join(scratch, "time.txt")) });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  loads.push(loadAverage());

  const reference = tools.find((t) => t.key === "ref");
  const measured = rusageAvailable();
  console.log(`apply_patch, whole process with the patch on stdin: median (min-max) of ${runs} runs after ${WARMUP} warm-up, ms; load average ${loads.join(" before, ")} after`);
  console.log(`codex-ts:  node ${benchNodeVersion()} ${BUNDLE_BIN} apply_patch (and the tsc build, before the bundle)`);
  console.log(`reference: ${reference ? `${reference.binary} started as apply_patch` : "not found (set CODEX_REF_BIN to its launcher or binary); its rows and the ratios are left out"}`);
  console.log(`files on:  ${scratch.replace(/[^/]+$/, "")} ${fsType}${fsType.startsWith("tmpfs") ? "  (tmpfs: set CODEX_TS_BENCH_DIR to a folder on disk)" : ""}\n`);
  const wall = (list) => list.map((s) => s.ms);
  const cpuOf = (list) => list.map((s) => s.cpu);
  const stat = (values) => `${median(values).toFixed(1)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
  const ratio = (ours, theirs) => (theirs ? `${(median(ours) / median(theirs)).toFixed(2)}x` : "");
  const header = ["scenario", "size", "applier", "wall", ...(reference ? ["ratio"] : []), ...(measured ? ["cpu", ...(reference ? ["ratio"] : [])] : [])];
  const table = [header];
  const cpuKnown = (name) => !tools.find((t) => t.name === name)?.noCpu;
  for (const { scenario, samples } of rows) {
    const theirs = samples.get("reference");
    for (const [name, list] of samples) {
      const timed = !name.startsWith("in-process");
      const compared = timed && name !== "reference";
      table.push([
        scenario.label,
        scenario.size,
        timed ? name : `codex-ts ${name}`,
        stat(wall(list)),
        ...(reference ? [compared ? ratio(wall(list), theirs && wall(theirs)) : ""] : []),
        ...(measured ? (cpuKnown(name) ? [timed ? median(cpuOf(list)).toFixed(1) : "", ...(reference ? [compared ? ratio(cpuOf(list), theirs && cpuOf(theirs)) : ""] : [])] : ["n/a", ...(reference ? [""] : [])]) : []),
      ]);
    }
    if (theirs) {
      for (const key of ["bundle", "bundle-ca"]) {
        const ours = samples.get(tools.find((t) => t.key === key)?.name);
        if (!ours) continue;
        const r = median(wall(ours)) / median(wall(theirs));
        const work = `apply_patch, ${scenario.label}${key === "bundle-ca" ? ", NODE_EXTRA_CA_CERTS set" : ""}`;
        reportRow({ work, ours: `${median(wall(ours)).toFixed(0)} ms`, reference: `${median(wall(theirs)).toFixed(0)} ms`, ratio: r, cpuRatio: measured ? median(cpuOf(ours)) / median(cpuOf(theirs)) : undefined, target: `≤ ${TARGET}`, met: r <= TARGET });
      }
    }
  }
  printTable(table, 3);
  console.log("\nwall = fork to exit; cpu = user + system time of the process (bench/rusage.py; left out without python3);");
  console.log(`ratio = this applier's median / the reference's (target: ${TARGET.toFixed(2)}x or less); codex-ts in-process = one`);
  console.log("applyPatchInDirectory call in this process: the engine alone, warm, without a process start.");
  console.log("in-process, write scope = parse, plan and a commit under a write scope, as the agent's patches run");
  console.log("(every path walked without following links, every write checked where it lands).");
}

await main();
