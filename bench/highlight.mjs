#!/usr/bin/env node
// What syntax highlighting costs the TUI: in fresh processes, the time to import highlight.ts
// itself (what start-up pays: nothing heavy), to load highlight.js and its grammars (paid once,
// in the background, when the first turn starts), to colour a 200-line TypeScript block, and
// to draw that block again (from the cache).
// It only reports numbers. Usage: node bench/highlight.mjs [--runs N]
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { requireBuilt } from "./built.mjs";
import { median, parseRuns, percentile } from "./stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MODULE = join(ROOT, "dist/src/tui/parts/highlight.js");
requireBuilt(MODULE);
const RUNS = parseRuns(process.argv, 7);

// Runs in the child: prints three durations in ms as JSON.
const PROBE = `
const t0 = performance.now();
const h = await import(${JSON.stringify(MODULE)});
const t1 = performance.now();
await h.loadHighlighter();
const t2 = performance.now();
const block = Array.from({ length: 200 }, (_, i) => "const value" + i + ": number = compute(" + i + ", \\"text\\"); // note").join("\\n");
h.highlightCode(block, "ts");
const t3 = performance.now();
h.highlightCode(block, "ts");
const t4 = performance.now();
console.log(JSON.stringify([t1 - t0, t2 - t1, t3 - t2, t4 - t3]));
`;

const rows = { module: [], load: [], block: [], again: [] };
for (let i = 0; i < RUNS; i++) {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", PROBE], { encoding: "utf8", env: { ...process.env, FORCE_COLOR: "1" } });
  if (r.status !== 0) throw new Error(`probe failed: ${r.stderr}`);
  const [module, load, block, again] = JSON.parse(r.stdout);
  rows.module.push(module);
  rows.load.push(load);
  rows.block.push(block);
  rows.again.push(again);
}
const fmt = (ms) => `${ms.toFixed(1)} ms`.padStart(9);
console.log(`${RUNS} fresh processes        median       p90`);
for (const [label, values] of [["import highlight.ts", rows.module], ["load highlight.js + grammars", rows.load], ["colour 200 lines of TS", rows.block], ["the same block again (cached)", rows.again]]) {
  console.log(`${label.padEnd(28)} ${fmt(median(values))} ${fmt(percentile(values, 90))}`);
}
