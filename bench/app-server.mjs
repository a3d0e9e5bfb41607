#!/usr/bin/env node
// `codex-ts app-server` against the reference's `codex app-server`, alternating in one run, over
// stdio against the scripted model server: the time from spawn to the `initialize` answer,
// `thread/start`, one turn (turn/start → turn/completed, a one-message answer), a hundred
// `thread/list` requests at once, `fuzzyFileSearch` over a generated tree of FUZZY_FILES files
// (the first query, which lists the tree, then the median of warm queries), and the server's
// resident memory after all that (from /proc/PID/status). Each run is a fresh server process with a fresh CODEX_HOME. Prints medians
// and the load average; asserts nothing. NODE_EXTRA_CA_CERTS is unset for the servers unless
// `--keep-ca` (Node reads those certificates at start-up, before any code runs).
// Usage: node bench/app-server.mjs [--runs N] [--reference PATH] [--keep-ca]
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, parseRuns } from "./stats.mjs";
import { loadAverage } from "./machine.mjs";
import { requireBuilt } from "./built.mjs";
import { StdioRpc, rssMib } from "./stdio-rpc.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const SERVER = join(ROOT, "dist/test/support/model-server.js");

function referencePath(argv) {
  const i = argv.indexOf("--reference");
  if (i !== -1) return argv[i + 1];
  const guess = "/work/ref/node_modules/.bin/codex";
  return existsSync(guess) ? guess : null;
}

const FUZZY_FILES = 20_000;
const FUZZY_QUERIES = ["session", "srvcfg", "render_theme", "pkg7/util", "zzzq", "parser.ts"];

/** A tree of FUZZY_FILES files, folders three deep, names from a few words (no ignore files). */
function fuzzyTree() {
  const root = mkdtempSync(join(tmpdir(), "bench-fuzzy-tree-"));
  const words = ["session", "config", "render", "theme", "parser", "server", "client", "util", "stream", "index"];
  for (let i = 0; i < FUZZY_FILES; i++) {
    const dir = join(root, `pkg${i % 40}`, words[i % 7], words[(i >> 3) % 10]);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${words[(i * 7) % 10]}_${words[(i >> 5) % 10]}${i}.ts`), "");
  }
  return root;
}

async function fuzzySearches(client, tree) {
  const t = performance.now();
  await client.request("fuzzyFileSearch", { query: "sessn", roots: [tree] });
  const cold = performance.now() - t;
  const warm = [];
  for (const query of FUZZY_QUERIES) {
    const q = performance.now();
    await client.request("fuzzyFileSearch", { query, roots: [tree] });
    warm.push(performance.now() - q);
  }
  return { fuzzyCold: cold, fuzzyWarm: median(warm) };
}

async function runOnce(name, argv, modelUrl, keepCa, tree) {
  const root = mkdtempSync(join(tmpdir(), "bench-app-server-"));
  const home = join(root, "home");
  const work = join(root, "work");
  mkdirSync(home);
  mkdirSync(join(work, ".git"), { recursive: true });
  writeFileSync(
    join(home, "config.toml"),
    `model = "gpt-5.5"\nmodel_provider = "mock"\n[analytics]\nenabled = false\n[features]\nplugins = false\n[model_providers.mock]\nname = "mock"\nbase_url = "${modelUrl}"\nwire_api = "responses"\nenv_key = "MOCK_KEY"\n[projects."${work}"]\ntrust_level = "trusted"\n`,
  );
  const env = { ...process.env, CODEX_HOME: home, MOCK_KEY: "x" };
  if (!keepCa) delete env.NODE_EXTRA_CA_CERTS;
  const t0 = performance.now();
  const child = spawn(argv[0], argv.slice(1), { cwd: work, env, stdio: ["pipe", "pipe", "ignore"] });
  const client = new StdioRpc(child);
  await client.request("initialize", { clientInfo: { name: "bench", title: null, version: "1" }, capabilities: { experimentalApi: false } });
  const init = performance.now() - t0;
  client.notify("initialized");
  const t1 = performance.now();
  const started = await client.request("thread/start", { cwd: work, approvalPolicy: "never", sandbox: "read-only" });
  const start = performance.now() - t1;
  const threadId = started.result.thread.id;
  const t2 = performance.now();
  const done = client.wait("turn/completed");
  await client.request("turn/start", { threadId, input: [{ type: "text", text: "hi", text_elements: [] }] });
  await done;
  const turn = performance.now() - t2;
  const t3 = performance.now();
  await Promise.all(Array.from({ length: 100 }, () => client.request("thread/list", { limit: 5 })));
  const lists = performance.now() - t3;
  const fuzzy = await fuzzySearches(client, tree);
  const rss = rssMib(child.pid);
  await client.close();
  rmSync(root, { recursive: true, force: true });
  return { name, init, start, turn, lists, ...fuzzy, rss };
}

async function main() {
  const argv = process.argv.slice(2);
  const runs = parseRuns(argv, 5);
  requireBuilt(CLI);
  const { startModelServer, turn, text } = await import(SERVER);
  const reference = referencePath(argv);
  const keepCa = argv.includes("--keep-ca");
  const cases = [["codex-ts app-server", [process.execPath, CLI, "app-server"]]];
  if (reference) cases.push(["codex 0.169 app-server", [reference, "app-server"]]);
  const results = new Map(cases.map(([name]) => [name, []]));
  const tree = fuzzyTree();
  const load = [loadAverage()];
  for (let i = 0; i < runs + 1; i++) {
    for (const [name, cmd] of cases) {
      const server = await startModelServer(Array.from({ length: 4 }, () => turn(text("hello"))));
      const r = await runOnce(name, cmd, server.url, keepCa, tree);
      await server.close();
      if (i > 0) results.get(name).push(r); // the first round warms the disk cache
    }
    load.push(loadAverage());
  }
  console.log(`app-server over stdio, ${runs} runs each, alternating; NODE_EXTRA_CA_CERTS ${keepCa ? `= ${process.env.NODE_EXTRA_CA_CERTS ?? "(unset here)"}` : "unset"}; load average ${load.join(" → ")}`);
  rmSync(tree, { recursive: true, force: true });
  console.log(`server                    initialize  thread/start   turn   100×thread/list   fuzzy: first  warm p50 (${FUZZY_FILES} files)   RSS after`);
  for (const [name, rs] of results) {
    const m = (k) => median(rs.map((r) => r[k]));
    console.log(`${name.padEnd(25)} ${m("init").toFixed(0).padStart(7)} ms ${m("start").toFixed(0).padStart(9)} ms ${m("turn").toFixed(0).padStart(5)} ms ${m("lists").toFixed(0).padStart(12)} ms ${m("fuzzyCold").toFixed(0).padStart(12)} ms ${m("fuzzyWarm").toFixed(1).padStart(7)} ms ${m("rss").toFixed(0).padStart(22)} MiB`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
