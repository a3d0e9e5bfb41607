#!/usr/bin/env node
// Startup cost of the codex-ts binary: `codex-ts --version` (the bundle, as installed) next to a
// bare `node -e 0`, the floor any Node CLI pays, without and with NODE_EXTRA_CA_CERTS; the tsc
// build (what shipped before the bundle) and the reference's native binary in the same rounds.
// Prints median and p90 wall time, median CPU time and peak RSS (bench/rusage.py), and the ratios
// to `node -e 0`. Nothing here asserts on timings; it only reports them.
// Usage: node bench/startup.mjs [--runs N]   (default 20)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadAverage } from "./machine.mjs";
import { parseRuns, percentile } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";
import { readRusage, rusageAvailable, withRusage } from "./rusage.mjs";
import { printTable } from "./table.mjs";
import { BENCH_NODE, benchNodeVersion, BUNDLE_BIN, caCertsFile, childEnv, referenceBinary, reportRow, TSC_CLI } from "./subjects.mjs";

const WARMUP = 2;
const TARGET = 1.15;

/** One run: wall, CPU and peak RSS from bench/rusage.py, and its stdout. */
function runOnce(c, scratch) {
  const out = join(scratch, "rusage.json");
  const argv = withRusage(c.argv, out);
  const start = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", env: c.env, stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${c.label} exited with ${r.status}: ${r.stderr}`);
  return { ...readRusage(out, ms), stdout: r.stdout };
}

function cases() {
  const plain = childEnv();
  const list = [
    { key: "node", label: "node -e 0", argv: [BENCH_NODE, "-e", "0"], env: plain },
    { key: "ours", label: "codex-ts --version", argv: [BENCH_NODE, BUNDLE_BIN, "--version"], env: plain },
    { key: "tsc", label: "codex-ts --version, tsc build (before)", argv: [BENCH_NODE, TSC_CLI, "--version"], env: plain },
  ];
  const ca = caCertsFile();
  if (ca) {
    const withCa = childEnv({ NODE_EXTRA_CA_CERTS: ca });
    list.push(
      { key: "node-ca", label: "node -e 0, NODE_EXTRA_CA_CERTS", argv: [BENCH_NODE, "-e", "0"], env: withCa },
      { key: "ours-ca", label: "codex-ts --version, NODE_EXTRA_CA_CERTS", argv: [BENCH_NODE, BUNDLE_BIN, "--version"], env: withCa },
    );
  }
  const ref = referenceBinary();
  if (ref) list.push({ key: "ref", label: "reference --version (native)", argv: [ref, "--version"], env: plain });
  return { list, ca };
}

function main() {
  const runs = parseRuns(process.argv.slice(2), 20);
  requireBuilt(BUNDLE_BIN, TSC_CLI);
  const { list, ca } = cases();
  const scratch = mkdtempSync(join(tmpdir(), "codex-ts-bench-"));
  const samples = new Map(list.map((c) => [c.key, []]));
  const loads = [loadAverage()];
  try {
    const version = runOnce(list[1], scratch).stdout.trim();
    if (!version.startsWith("codex-ts ")) throw new Error(`unexpected --version output: ${JSON.stringify(version)}`);
    // Warm the page cache, then alternate the commands so drift affects all alike.
    for (let i = 0; i < WARMUP; i++) for (const c of list) runOnce(c, scratch);
    for (let i = 0; i < runs; i++) for (const c of list) samples.get(c.key).push(runOnce(c, scratch));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  loads.push(loadAverage());

  const med = (key, field) => percentile(samples.get(key).map((s) => s[field]), 50);
  const floorOf = (key) => (key.endsWith("-ca") ? "node-ca" : key === "ref" ? null : "node");
  const measured = rusageAvailable();
  const fmtMs = (v) => `${v.toFixed(1)} ms`;
  const ratio = (key, field) => {
    const floor = floorOf(key);
    return floor && floor !== key ? `${(med(key, field) / med(floor, field)).toFixed(2)}x` : "";
  };
  const table = [["", "median wall", "p90 wall", "÷ node", ...(measured ? ["median CPU", "÷ node", "peak RSS"] : [])]];
  for (const c of list) {
    table.push([
      c.label,
      fmtMs(med(c.key, "wallMs")),
      fmtMs(percentile(samples.get(c.key).map((s) => s.wallMs), 90)),
      ratio(c.key, "wallMs"),
      ...(measured ? [fmtMs(med(c.key, "cpuMs")), ratio(c.key, "cpuMs"), `${med(c.key, "rssMiB").toFixed(1)} MiB`] : []),
    ]);
  }
  console.log(`Startup: Node ${benchNodeVersion()}, ${runs} runs each after ${WARMUP} warm-up rounds, in turns; load average ${loads.join(" before, ")} after`);
  printTable(table);
  if (ca) console.log(`NODE_EXTRA_CA_CERTS rows: ${ca} (Node 20 parses it before running any script; Node 22 only when a TLS connection first needs it)`);
  if (!measured) console.log("CPU time and peak RSS unavailable: they need python3 (bench/rusage.py).");
  console.log(`Target: codex-ts --version within ${TARGET}x node -e 0 (wall, on a quiet machine; CPU time is what load does not move).`);

  const row = (work, key, floor) => {
    const r = med(key, "wallMs") / med(floor, "wallMs");
    reportRow({ work, ours: fmtMs(med(key, "wallMs")), reference: `node ${fmtMs(med(floor, "wallMs"))}`, ratio: r, cpuRatio: measured ? med(key, "cpuMs") / med(floor, "cpuMs") : undefined, target: `≤ ${TARGET}× node`, met: r <= TARGET });
  };
  row("--version vs bare node -e 0", "ours", "node");
  if (ca) row("--version vs node -e 0, NODE_EXTRA_CA_CERTS set", "ours-ca", "node-ca");
}

main();
