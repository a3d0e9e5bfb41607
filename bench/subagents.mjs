#!/usr/bin/env node
// Sub-agents fanning out (docs/subagents.md): a parent spawns 4 children in one response, each
// child runs one command (`sleep` of 1.4, 1.6, 1.8 and 2.0 s), the parent waits until all four
// answered, closes them and finishes. Compared with the same parent starting one child that runs
// the slowest command alone, the fan-out should finish within that time plus 10% (the children
// run in parallel), and each extra sub-agent should cost at most 30 MiB of peak RSS. A third
// scenario (no child: the parent answers at once) is the memory floor.
//
// Every run is a fresh `exec --json` process against an in-process scripted model; codex-ts and
// the reference (Codex CLI 0.169, when installed at /work/ref) run the same scripts in the same
// run, alternating, and codex-ts runs with and without NODE_EXTRA_CA_CERTS. Prints medians, the
// criteria's figures and the load average; asserts nothing.
// Usage: node bench/subagents.mjs [--runs N]   (default 5)
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { gnuTimePath } from "./gnu-time.mjs";
import { median, parseRuns } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const SCRIPT = join(ROOT, "dist/test/support/agent-script.js");
const REFERENCE = "/work/ref/node_modules/.bin/codex";
const SLEEPS = [1.4, 1.6, 1.8, 2.0];
const SLOWEST = Math.max(...SLEEPS);

/** The parent's turns: spawn `sleeps.length` children at once, wait until all answered, close them, finish. */
function parentTurn(s, sleeps) {
  return (request) => {
    const ids = s.spawnedIn(request);
    const outputs = [...s.outputsIn(request).values()].join("\n");
    if (sleeps.length === 0) return { outputs: [{ type: "message", text: "nothing to delegate" }] };
    if (ids.length === 0) return { outputs: sleeps.map((secs, i) => s.collabCall("spawn_agent", { message: `sleep ${secs}` }, `spawn_${i}`)) };
    const notified = s.userTextsIn(request).filter((t) => t.startsWith("<subagent_notification>")).join("\n");
    const pending = ids.filter((id) => !notified.includes(id));
    if (pending.length > 0) return { outputs: [s.collabCall("wait_agent", { targets: pending, timeout_ms: 60_000 }, `wait_${request.body.input?.length ?? 0}`)] };
    if (!outputs.includes("previous_status")) return { outputs: ids.map((id, i) => s.collabCall("close_agent", { target: id }, `close_${i}`)) };
    return { outputs: [{ type: "message", text: `all ${ids.length} helpers answered` }] };
  };
}

function childTurn(task, request, s) {
  if (s.outputsIn(request).size === 0) return { outputs: [{ type: "function_call", name: "exec_command", arguments: { cmd: task, yield_time_ms: 30_000 }, callId: "run" }] };
  return { outputs: [{ type: "message", text: `finished ${task}` }] };
}

async function runOnce(s, which, sleeps, timePath, env) {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-bench-agents-"));
  const work = join(root, "work");
  const home = join(root, "home");
  mkdirSync(work);
  mkdirSync(home);
  const turns = Array.from({ length: 40 }, () => parentTurn(s, sleeps));
  const server = await s.startAgentServer({ parent: turns, child: (task, request) => childTurn(task, request, s) });
  const provider = `model = "gpt-5.4"\nmodel_provider = "mock"\n[model_providers.mock]\nname = "mock"\nbase_url = "${server.url}"\nenv_key = "MOCK_KEY"\nstream_max_retries = 0\n`;
  writeFileSync(join(home, "config.toml"), which === "reference" ? `${provider}[analytics]\nenabled = false\n[features]\nplugins = false\n` : provider);
  const rssFile = join(root, "rss.txt");
  const command = which === "reference" ? [REFERENCE, "exec"] : [process.execPath, CLI, "exec"];
  const argv = [...command, "--json", "--skip-git-repo-check", "-s", "danger-full-access", "delegate"];
  const [cmd, args] = timePath ? [timePath, ["-o", rssFile, "-f", "%M", ...argv]] : [argv[0], argv.slice(1)];
  const childEnv = { ...env, CODEX_HOME: home, MOCK_KEY: "x", HOME: home, NO_COLOR: "1" };
  const start = performance.now();
  const child = spawn(cmd, args, { cwd: work, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on("close", resolve));
  const wall = performance.now() - start;
  await server.close();
  const problems = [];
  if (code !== 0) problems.push(`exit ${code}: ${stderr.trim().slice(-300)}`);
  if (!stdout.includes(sleeps.length === 0 ? "nothing to delegate" : `all ${sleeps.length} helpers answered`)) problems.push(`no final answer: ${stdout.slice(-300)}`);
  problems.push(...server.violations);
  const rss = timePath && existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1)) / 1024 : undefined;
  rmSync(root, { recursive: true, force: true });
  return { wall, rss, problems };
}

async function main() {
  const runs = parseRuns(process.argv.slice(2), 5);
  requireBuilt(CLI, SCRIPT);
  const s = await import(SCRIPT);
  const timePath = gnuTimePath();
  const withCa = { ...process.env };
  delete withCa.CODEX_API_KEY;
  delete withCa.OPENAI_BASE_URL;
  const withoutCa = { ...withCa };
  delete withoutCa.NODE_EXTRA_CA_CERTS;
  const programs = [
    { name: "codex-ts", which: "ours", env: withoutCa },
    ...(withCa.NODE_EXTRA_CA_CERTS ? [{ name: "codex-ts + NODE_EXTRA_CA_CERTS", which: "ours", env: withCa }] : []),
    ...(existsSync(REFERENCE) ? [{ name: "Codex CLI 0.169", which: "reference", env: withoutCa }] : []),
  ];
  const scenarios = [
    { name: "fan-out: 4 children", sleeps: SLEEPS },
    { name: `one child (sleep ${SLOWEST})`, sleeps: [SLOWEST] },
    { name: "no child", sleeps: [] },
  ];
  console.log(`sub-agents: ${runs} runs per program and scenario, alternating; Node ${process.version}`);
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const results = new Map();
  for (let i = 0; i <= runs; i++) {
    for (const scenario of scenarios) {
      for (const p of programs) {
        const r = await runOnce(s, p.which, scenario.sleeps, timePath, p.env);
        if (i === 0) continue; // warm-up
        const key = `${p.name}|${scenario.name}`;
        if (!results.has(key)) results.set(key, []);
        results.get(key).push(r);
        for (const problem of r.problems) console.log(`  problem (${key}): ${problem}`);
      }
    }
  }
  console.log(`load average after:  ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const med = (key, pick) => {
    const values = (results.get(key) ?? []).filter((r) => r.problems.length === 0).map(pick).filter((v) => typeof v === "number");
    return values.length ? median(values) : NaN;
  };
  console.log(`\n${"medians".padEnd(62)} wall (ms)   peak RSS (MiB)`);
  for (const p of programs) {
    for (const scenario of scenarios) {
      const key = `${p.name}|${scenario.name}`;
      console.log(`  ${`${p.name}, ${scenario.name}`.padEnd(60)} ${med(key, (r) => r.wall).toFixed(0).padStart(8)}   ${med(key, (r) => r.rss).toFixed(1).padStart(8)}`);
    }
  }
  console.log("\ncriteria (fan-out wall within the one-child wall + 10%; at most 30 MiB per extra sub-agent)");
  for (const p of programs) {
    const fan = `${p.name}|${scenarios[0].name}`;
    const one = `${p.name}|${scenarios[1].name}`;
    const none = `${p.name}|${scenarios[2].name}`;
    const ratio = med(fan, (r) => r.wall) / med(one, (r) => r.wall);
    const perExtra = (med(fan, (r) => r.rss) - med(one, (r) => r.rss)) / (SLEEPS.length - 1);
    const perChild = (med(fan, (r) => r.rss) - med(none, (r) => r.rss)) / SLEEPS.length;
    console.log(`  ${p.name.padEnd(34)} fan-out / one child: ${ratio.toFixed(3)} (${ratio <= 1.1 ? "within" : "over"} 1.10)   RSS per extra sub-agent: ${perExtra.toFixed(1)} MiB, per sub-agent over no child: ${perChild.toFixed(1)} MiB`);
  }
}

await main();
