#!/usr/bin/env node
// Startup cost of the codex-ts binary: `node dist/src/cli/main.js --version` compared with a bare
// `node -e 0`, which is the floor any Node CLI pays. Prints median and p90 wall time, the median
// peak RSS (via GNU time, when installed), and codex-ts / node ratios. Nothing here asserts on
// timings; it only reports them. Usage: node bench/startup.mjs [--runs N]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { gnuTimePath } from "./gnu-time.mjs";
import { parseRuns, percentile } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const WARMUP = 2;

function runOnce(argv) {
  const start = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} exited with ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** Peak RSS in MiB of one run, measured by GNU time writing to a scratch file. */
function rssOnce(timePath, argv, scratch) {
  const out = join(scratch, "rss.txt");
  const r = spawnSync(timePath, ["-o", out, "-f", "%M", ...argv], { stdio: "ignore" });
  if (r.status !== 0) throw new Error(`${argv.join(" ")} under ${timePath} exited with ${r.status}`);
  const kib = Number(readFileSync(out, "utf8").trim().split("\n").at(-1));
  return kib / 1024;
}

function main() {
  const runs = parseRuns(process.argv.slice(2), 20);
  requireBuilt(CLI);
  const cases = [
    { label: "node -e 0", argv: [process.execPath, "-e", "0"] },
    { label: "codex-ts --version", argv: [process.execPath, CLI, "--version"] },
  ];
  const version = runOnce(cases[1].argv).stdout.trim();
  if (!version.startsWith("codex-ts ")) throw new Error(`unexpected --version output: ${JSON.stringify(version)}`);

  // Warm the page cache, then alternate the two commands so drift affects both alike.
  for (let i = 0; i < WARMUP; i++) for (const c of cases) runOnce(c.argv);
  const wall = cases.map(() => []);
  for (let i = 0; i < runs; i++) cases.forEach((c, k) => wall[k].push(runOnce(c.argv).ms));

  const timePath = gnuTimePath();
  const rss = cases.map(() => []);
  if (timePath) {
    const scratch = mkdtempSync(join(tmpdir(), "codex-ts-bench-"));
    try {
      for (let i = 0; i < runs; i++) cases.forEach((c, k) => rss[k].push(rssOnce(timePath, c.argv, scratch)));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }

  const rows = cases.map((c, k) => ({
    label: c.label,
    median: percentile(wall[k], 50),
    p90: percentile(wall[k], 90),
    rss: timePath ? percentile(rss[k], 50) : undefined,
  }));
  const [base, cli] = rows;
  const fmtMs = (v) => `${v.toFixed(1)} ms`;
  const fmtMiB = (v) => (v === undefined ? "n/a" : `${v.toFixed(1)} MiB`);
  const ratio = (a, b) => (a === undefined || b === undefined ? "n/a" : `${(a / b).toFixed(2)}x`);
  const table = [
    ["", "median wall", "p90 wall", "peak RSS (median)"],
    ...rows.map((r) => [r.label, fmtMs(r.median), fmtMs(r.p90), fmtMiB(r.rss)]),
    ["ratio codex-ts / node", ratio(cli.median, base.median), ratio(cli.p90, base.p90), ratio(cli.rss, base.rss)],
    ["codex-ts minus node", fmtMs(cli.median - base.median), fmtMs(cli.p90 - base.p90),
      cli.rss === undefined ? "n/a" : fmtMiB(cli.rss - base.rss)],
  ];
  const widths = table[0].map((_, col) => Math.max(...table.map((row) => row[col].length)));
  console.log(`Startup: ${version}, Node ${process.version}, ${runs} runs each after ${WARMUP} warm-up runs`);
  for (const row of table) console.log(row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join("   "));
  if (!timePath) console.log("Peak RSS unavailable: GNU time (/usr/bin/time, Debian package `time`) is not installed.");
  console.log("Reference (native Codex CLI 0.169 --version): 9 ms / 16 MiB; via its npm launcher: 73 ms / 43 MiB.");
}

main();
