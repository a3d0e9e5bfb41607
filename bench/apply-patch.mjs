#!/usr/bin/env node
// Cost of the apply_patch engine on large patches, in-process: a 2,000-chunk patch on one
// 200,000-line file, and one patch that touches 500 files. Each scenario also runs at 1/4 and 1/2
// size, so the time per chunk or per file shows whether cost grows linearly. For every size it
// prints the median of N runs for each stage (parse, plan, the per-change unified diff carried by
// the patch_apply_begin event, commit) and for the whole `applyPatchInDirectory` call, plus the
// process's peak RSS. Nothing here asserts on timings; it only reports them.
// Usage: node bench/apply-patch.mjs [--runs N]       (default 5; CODEX_TS_DIST=path picks another build)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, parseRuns } from "./stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = process.env.CODEX_TS_DIST ? resolve(process.env.CODEX_TS_DIST) : join(ROOT, "dist");
const WARMUP = 1;
const TARGET_MS = 250;
const FRACTIONS = [0.25, 0.5, 1];

async function load(name) {
  return import(pathToFileURL(join(DIST, "src/patch", name)).href);
}

async function loadEngine() {
  let engine;
  try {
    engine = {
      ...(await load("parser.js")),
      ...(await load("plan.js")),
      ...(await load("commit.js")),
      ...(await load("apply-patch.js")),
    };
  } catch (err) {
    console.error(`Cannot load the patch engine from ${DIST}: run \`npm run build\` first.\n${err.message}`);
    process.exit(2);
  }
  try {
    engine.unifiedDiff = (await load("unified-diff.js")).unifiedDiff;
  } catch {
    engine.unifiedDiff = undefined; // not built yet: the diff column reads n/a
  }
  return engine;
}

// ---------------------------------------------------------------------------------------------
// Scenarios: each builds its files (relative path -> content) and a patch, at a given fraction.

/** One big file; every `lines / chunks` lines, a chunk with 3 lines of context replaces one line by two. */
function bigFileScenario(fraction) {
  const lineCount = Math.round(200_000 * fraction);
  const chunkCount = Math.round(2_000 * fraction);
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
    label: "1 file",
    units: chunkCount,
    unit: "chunk",
    size: `${lineCount.toLocaleString("en-US")} lines, ${chunkCount.toLocaleString("en-US")} chunks`,
    files: new Map([["big/generated.ts", `${lines.join("\n")}\n`]]),
    patch: patchText([["*** Update File: big/generated.ts", ...body]]),
    check: (dir) => readFileSync(join(dir, "big/generated.ts"), "utf8").includes("computeFaster("),
  };
}

/** Many small files in 20 directories, each updated by one chunk, plus 1% added and 1% deleted. */
function manyFilesScenario(fraction) {
  const fileCount = Math.round(500 * fraction);
  const extra = Math.max(1, Math.round(fileCount / 100));
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
    label: `${fileCount} files`,
    units: fileCount + 2 * extra,
    unit: "file",
    size: `${fileCount} updated, ${extra} added, ${extra} deleted`,
    files,
    patch: patchText(sections),
    check: (dir) => readFileSync(join(dir, path(0)), "utf8").includes("// changed"),
  };
}

function patchText(sections) {
  return ["*** Begin Patch", ...sections.flat(), "*** End Patch", ""].join("\n");
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
  // Flush the rewrite before the next timed run, so that run measures the patch and not the
  // file system still catching up on deleting and recreating the previous tree.
  spawnSync("sync");
}

async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** One run of the stages one after the other, then one run of the whole call. */
async function runOnce(engine, scenario, dir) {
  const parse = await timed(() => engine.parsePatch(scenario.patch));
  const plan = await timed(() => engine.planPatch(parse.value, dir));
  let diff;
  if (engine.unifiedDiff) {
    diff = await timed(() => {
      let bytes = 0;
      for (const change of plan.value.changes) {
        const regions = change.regions ?? undefined;
        bytes += engine.unifiedDiff(change.oldContent ?? "", change.newContent ?? "", { context: 1, regions }).length;
      }
      return bytes;
    });
  }
  const commit = await timed(() => engine.commitPlan(plan.value));
  if (!scenario.check(dir)) throw new Error(`${scenario.label}: commitPlan did not write the expected content`);
  resetDir(dir, scenario.files);

  const whole = await timed(() => engine.applyPatchInDirectory(scenario.patch, dir));
  if (!whole.value.ok || !scenario.check(dir)) throw new Error(`${scenario.label}: applyPatchInDirectory failed: ${whole.value.stderr}`);
  resetDir(dir, scenario.files);
  return { parse: parse.ms, plan: plan.ms, diff: diff?.ms, commit: commit.ms, whole: whole.ms };
}

async function measure(engine, scenario, runs, dir) {
  resetDir(dir, scenario.files);
  for (let i = 0; i < WARMUP; i++) await runOnce(engine, scenario, dir);
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await runOnce(engine, scenario, dir));
  const pick = (key) => (samples[0][key] === undefined ? undefined : median(samples.map((s) => s[key])));
  const stages = { parse: pick("parse"), plan: pick("plan"), diff: pick("diff"), commit: pick("commit"), whole: pick("whole") };
  const sum = stages.parse + stages.plan + (stages.diff ?? 0) + stages.commit;
  return { ...stages, sum, wholeRange: [Math.min(...samples.map((s) => s.whole)), Math.max(...samples.map((s) => s.whole))] };
}

async function main() {
  const runs = parseRuns(process.argv.slice(2), 5);
  const engine = await loadEngine();
  const scratch = mkdtempSync(join(tmpdir(), "codex-ts-bench-patch-"));
  const results = [];
  try {
    for (const make of [bigFileScenario, manyFilesScenario]) {
      for (const fraction of FRACTIONS) {
        const scenario = make(fraction);
        results.push({ scenario, fraction, ...(await measure(engine, scenario, runs, join(scratch, "work"))) });
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const fmtMs = (v) => (v === undefined ? "n/a" : v.toFixed(1));
  const table = [
    ["scenario", "size", "parse", "plan", "diff", "commit", "stages", "apply", "apply per unit"],
    ...results.map((r) => [
      r.scenario.label,
      r.scenario.size,
      fmtMs(r.parse),
      fmtMs(r.plan),
      fmtMs(r.diff),
      fmtMs(r.commit),
      fmtMs(r.sum),
      fmtMs(r.whole),
      `${((r.whole * 1000) / r.scenario.units).toFixed(1)} µs/${r.scenario.unit}`,
    ]),
  ];
  const widths = table[0].map((_, col) => Math.max(...table.map((row) => row[col].length)));
  const left = new Set([0, 1]);
  console.log(`apply_patch engine (${DIST}): median of ${runs} runs after ${WARMUP} warm-up run, Node ${process.version}`);
  console.log(`Files written under ${tmpdir()} (set TMPDIR to measure another file system, e.g. /dev/shm).`);
  console.log("Times in ms. stages = parse + plan + diff + commit run one by one; apply = one applyPatchInDirectory call");
  console.log("(parse, plan and commit; it does not compute diffs). diff = unifiedDiff of every change with the plan's");
  console.log("regions and 1 line of context, as the patch_apply_begin event carries it.\n");
  for (const row of table) console.log(row.map((cell, col) => (left.has(col) ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join("   "));
  if (!engine.unifiedDiff) console.log("diff: n/a, dist/src/patch/unified-diff.js is not built.");

  console.log("");
  for (const r of results.filter((x) => x.fraction === 1)) {
    const verdict = (ms) => `${ms.toFixed(1)} ms ${ms <= TARGET_MS ? "within" : "OVER"} the ${TARGET_MS} ms target`;
    console.log(`${r.scenario.label}: stages ${verdict(r.sum)}; apply ${verdict(r.whole)} (range ${r.wholeRange.map((v) => v.toFixed(1)).join("-")} ms)`);
  }
  // maxRSS is the process's high-water mark in KiB, so it includes building the inputs.
  console.log(`peak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} MiB`);
}

await main();
