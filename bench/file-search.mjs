#!/usr/bin/env node
// The TUI's `@` file search on a generated tree of 100,000 listed files (a few levels of folders
// with source-like names, plus one ignored file per folder). Prints the time to list the files
// through the plain walk and through git (the tree untracked, then tracked), then query latency
// p50/p95 over typical queries typed a character at a time and whole, for our scorer and for
// pi-tui's fuzzyFilter.
// It only reports numbers. Usage: node bench/file-search.mjs [--files N] [--keep]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { requireBuilt } from "./built.mjs";
import { median, percentile } from "./stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const INDEX_MODULE = join(ROOT, "dist/src/file-search/file-index.js");
const LIST_MODULE = join(ROOT, "dist/src/file-search/list-files.js");
requireBuilt(INDEX_MODULE);
const { FileIndex } = await import(INDEX_MODULE);
const { listFiles } = await import(LIST_MODULE);

const argAt = process.argv.indexOf("--files");
const COUNT = argAt === -1 ? 100_000 : Number(process.argv[argAt + 1]);
const KEEP = process.argv.includes("--keep");

const WORDS = ["core", "util", "render", "session", "config", "parser", "model", "client", "server", "tool", "patch", "index", "event", "cache", "state", "stream", "widget", "search", "layout", "theme"];
const EXTS = [".ts", ".tsx", ".js", ".json", ".md", ".rs", ".py", ".css"];
/** One ignored file per folder on top of the COUNT listed ones, so the ignore rules have work. */
const IGNORED = "build-output.log";

/** A deterministic tree: COUNT files spread over folders three levels deep, ~50 files a folder. */
function generate(root) {
  let seed = 42;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed >>> 16) % n; // the high bits: an LCG's low bits repeat quickly
  };
  const word = () => WORDS[rand(WORDS.length)];
  const files = [];
  let folder = "";
  for (let i = 0; i < COUNT; i++) {
    if (i % 50 === 0) {
      folder = `${word()}-${rand(40)}/${word()}/${word()}_${rand(30)}`;
      mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(join(root, folder, IGNORED), "");
    }
    const name = `${word()}${word()[0].toUpperCase()}${word().slice(1)}${i}${EXTS[rand(EXTS.length)]}`;
    const path = `${folder}/${name}`;
    writeFileSync(join(root, path), "");
    files.push(path);
  }
  writeFileSync(join(root, ".gitignore"), "*.log\n");
  return files;
}

/**
 * Runs `fn` and records its wall time and its CPU time (user + system) in `into`. On a busy
 * machine wall time includes waiting for a core; CPU time is what the query itself cost.
 */
function timed(into, fn) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  fn();
  into.wall.push(performance.now() - start);
  const used = process.cpuUsage(cpu);
  into.cpu.push((used.user + used.system) / 1000);
}

const samples = () => ({ wall: [], cpu: [] });

function stats(label, { wall, cpu }) {
  const fmt = (ms) => `${ms.toFixed(2)} ms`.padStart(9);
  console.log(`  ${label.padEnd(34)} wall p50 ${fmt(median(wall))} p95 ${fmt(percentile(wall, 95))} max ${fmt(Math.max(...wall))}   cpu p50 ${fmt(median(cpu))} p95 ${fmt(percentile(cpu, 95))}`);
}

const scratchBase = process.env.BENCH_SCRATCH ?? tmpdir();
const root = mkdtempSync(join(scratchBase, "file-search-bench-"));
try {
  const t = performance.now();
  generate(root);
  console.log(`generated ${COUNT} files under ${root} in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const timeList = async (label, options) => {
    const start = performance.now();
    const { files, source } = await listFiles(root, options);
    console.log(`  ${label.padEnd(34)} ${(performance.now() - start).toFixed(0).padStart(6)} ms  (${files.length} files, ${source})`);
  };
  console.log("index build:");
  await timeList("walk (.gitignore via `ignore`)", { useGit: false });
  execFileSync("git", ["init", "-q"], { cwd: root });
  await timeList("git, all files untracked", {});
  execFileSync("git", ["add", "-A"], { cwd: root });
  await timeList("git, all files tracked", {});

  const index = new FileIndex(root);
  await index.whenReady();
  const queries = ["session", "srvcfg", "core/util", "renderTheme", "patchidx.ts", "stream_12", "zzzq", "cfgparser.json"];
  const ours = samples();
  const fresh = samples();
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      // Typed a character at a time, as in the composer: each prefix is one query.
      for (let n = 1; n <= q.length; n++) timed(ours, () => index.search(q.slice(0, n), 20));
      // The whole query at once, with nothing to narrow from.
      index.search("", 1);
      timed(fresh, () => index.search(q, 20));
    }
  }
  console.log(`queries over ${index.size} files (top 20):`);
  stats("ours, typed char by char", ours);
  stats("ours, whole query, no narrowing", fresh);

  const { fuzzyFilter } = await import("@mariozechner/pi-tui");
  const { files } = await listFiles(root);
  const theirs = samples();
  for (const q of queries) timed(theirs, () => fuzzyFilter(files, q, (f) => f).slice(0, 20));
  stats("pi-tui fuzzyFilter, whole query", theirs);
  console.log(`heap used: ${(process.memoryUsage().heapUsed / 1048576).toFixed(0)} MiB`);
} finally {
  if (KEEP) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
