/**
 * Shared by the benchmarks: what one process cost, from the kernel's own accounting. A command
 * runs under bench/rusage.py (python3), which reports wall time from fork to exit, CPU time (user
 * + system, precise to the microsecond where GNU time prints hundredths) and peak RSS. On a busy
 * machine wall time also counts waiting for a core; CPU time does not, so it is what to compare
 * when the load average is high. Without python3, commands run directly and only the wall time,
 * taken by the parent, is known.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const WRAPPER = fileURLToPath(new URL("./rusage.py", import.meta.url));
let python;

function pythonPath() {
  python ??= spawnSync("python3", ["-c", "import os; print(hasattr(os, 'wait4'))"], { encoding: "utf8" }).stdout?.trim() === "True" ? "python3" : null;
  return python;
}

/** Whether CPU time and peak RSS are measured (python3 with os.wait4 is installed). */
export function rusageAvailable() {
  return pythonPath() !== null;
}

/** `argv` wrapped so that its cost lands in `outFile` (unchanged without python3). */
export function withRusage(argv, outFile) {
  return pythonPath() ? [pythonPath(), WRAPPER, outFile, ...argv] : argv;
}

/**
 * What the wrapped run wrote: { wallMs, cpuMs, rssMiB, forkedAtMs (Date.now() scale) }; without
 * python3, { wallMs: fallbackWallMs } only.
 */
export function readRusage(outFile, fallbackWallMs) {
  if (!pythonPath() || !existsSync(outFile)) return { wallMs: fallbackWallMs };
  const r = JSON.parse(readFileSync(outFile, "utf8"));
  rmSync(outFile, { force: true });
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, rssMiB: r.rssKiB / 1024, forkedAtMs: r.forkedAtMs };
}
