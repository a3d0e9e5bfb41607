#!/usr/bin/env node
// `npm run bench`: every benchmark that compares codex-ts with the reference, one after the
// other, each printing its own tables, then one table with a row per figure (codex-ts, the
// reference or floor it is compared with, the ratio and the target), with the load average
// before and after. Each bench adds its rows through reportRow() (bench/subjects.mjs).
// Usage: node bench/all.mjs [--runs N]   (passed on to every bench; each has its own default)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadAverage } from "./machine.mjs";
import { printTable } from "./table.mjs";

const BENCH = fileURLToPath(new URL(".", import.meta.url));
const RUNS = [
  ["startup.mjs"],
  ["apply-patch.mjs"],
  ["exec-3-turn.mjs"],
  ["tui.mjs", "--startup-only"],
  ["resume.mjs"],
];

const runsAt = process.argv.indexOf("--runs");
const runsArgs = runsAt === -1 ? [] : ["--runs", process.argv[runsAt + 1]];
const scratch = mkdtempSync(join(tmpdir(), "codex-ts-bench-all-"));
const summary = join(scratch, "rows.jsonl");
const loads = [loadAverage()];
const failed = [];
try {
  for (const [script, ...args] of RUNS) {
    console.log(`\n=== bench/${script} ${[...args, ...runsArgs].join(" ")}`);
    const r = spawnSync(process.execPath, [join(BENCH, script), ...args, ...runsArgs], { stdio: "inherit", env: { ...process.env, CODEX_TS_BENCH_SUMMARY: summary } });
    if (r.status !== 0) failed.push(`${script} (exit ${r.status})`);
  }
  loads.push(loadAverage());
  const rows = existsSync(summary) ? readFileSync(summary, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
  console.log(`\n=== Summary (load average ${loads.join(" at the start, ")} at the end; the ratios are medians of wall time, in turns in one run)`);
  printTable([
    ["work", "codex-ts", "compared with", "ratio", "CPU ratio", "target", ""],
    ...rows.map((r) => [r.work, r.ours, r.reference, `${r.ratio.toFixed(2)}`, r.cpuRatio === undefined ? "" : r.cpuRatio.toFixed(2), r.target, r.met ? "met" : "NOT MET"]),
  ]);
  if (!rows.some((r) => r.work.startsWith("resume"))) console.log("resume: see bench/resume.mjs's own table above.");
  if (failed.length > 0) {
    console.log(`Failed: ${failed.join(", ")}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
