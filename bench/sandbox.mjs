#!/usr/bin/env node
// What confining a command costs: the wall time of spawning `true` bare, compared with spawning
// it through sandboxCommand under each mechanism this machine supports (bubblewrap and the
// Landlock helper on Linux, Seatbelt on macOS), with the workspace-write policy in a temporary
// git workspace. Prints median and p90 of each, the median added cost, the median time of the
// sandboxCommand() call itself (after its one-time probe), and whether the two together stay
// within the target.
// Nothing here asserts on timings; it only reports them.
// Usage: node bench/sandbox.mjs [--runs N]         (default 30; CODEX_TS_DIST=path picks another build)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseRuns, percentile } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = process.env.CODEX_TS_DIST ? resolve(process.env.CODEX_TS_DIST) : join(ROOT, "dist");
const LAUNCHER = join(DIST, "src/sandbox/launcher.js");
const WARMUP = 3;
const TARGET_MS = 15;

function runOnce(argv, cwd, env) {
  const start = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${argv[0]} exited with ${r.status}: ${r.stderr}`);
  return ms;
}

async function main() {
  const runs = parseRuns(process.argv.slice(2), 30);
  requireBuilt(LAUNCHER);
  const { sandboxCommand, SandboxUnavailableError } = await import(pathToFileURL(LAUNCHER).href);
  const scratch = mkdtempSync(join(tmpdir(), "codex-ts-bench-sandbox-"));
  const cwd = join(scratch, "work");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? scratch };
  const policy = { type: "workspace-write", writable_roots: [], network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false };
  const truePath = ["/usr/bin/true", "/bin/true"].find((p) => existsSync(p)) ?? "true";

  try {
    const cases = [{ label: "bare", argv: [truePath], env }];
    const mechanisms = process.platform === "darwin" ? [undefined] : ["bwrap", "landlock"];
    const skipped = [];
    for (const mechanism of mechanisms) {
      try {
        const request = { policy, cwd, argv: [truePath], env, linuxSandbox: mechanism };
        const command = await sandboxCommand(request); // the first call probes the mechanism
        const wrapMs = [];
        for (let i = 0; i < runs; i++) {
          const start = performance.now();
          await sandboxCommand(request);
          wrapMs.push(performance.now() - start);
        }
        cases.push({ label: command.sandbox, argv: command.argv, env: command.env, wrap: percentile(wrapMs, 50) });
      } catch (err) {
        if (!(err instanceof SandboxUnavailableError)) throw err;
        skipped.push(`${mechanism ?? process.platform}: ${err.message}`);
      }
    }

    // Warm the page cache, then alternate the commands so drift affects all alike.
    for (let i = 0; i < WARMUP; i++) for (const c of cases) runOnce(c.argv, cwd, c.env);
    const wall = cases.map(() => []);
    for (let i = 0; i < runs; i++) cases.forEach((c, k) => wall[k].push(runOnce(c.argv, cwd, c.env)));

    const rows = cases.map((c, k) => ({ label: c.label, median: percentile(wall[k], 50), p90: percentile(wall[k], 90), wrap: c.wrap }));
    const bare = rows[0];
    const fmt = (v) => `${v.toFixed(1)} ms`;
    const table = [
      ["spawn `true`", "median wall", "p90 wall", "added (median)", "sandboxCommand()", `added within ${TARGET_MS} ms`],
      ...rows.map((r, k) => [
        r.label,
        fmt(r.median),
        fmt(r.p90),
        k === 0 ? "" : fmt(r.median - bare.median),
        r.wrap === undefined ? "" : fmt(r.wrap),
        k === 0 ? "" : r.median - bare.median + r.wrap <= TARGET_MS ? "yes" : "no",
      ]),
    ];
    const widths = table[0].map((_, col) => Math.max(...table.map((row) => row[col].length)));
    console.log(`Sandbox cost: workspace-write policy, Node ${process.version}, ${process.platform}/${process.arch}, ${runs} runs each after ${WARMUP} warm-up runs`);
    for (const row of table) console.log(row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join("   "));
    for (const line of skipped) console.log(`Skipped ${line}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
