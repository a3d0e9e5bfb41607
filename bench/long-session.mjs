#!/usr/bin/env node
// A long session in a small window: `codex-ts exec --json` works through STEPS tool calls (one
// apply_patch per step, each adding a file) in one turn, against an in-process scripted model
// server that reports usage from each request's size and refuses requests larger than the
// window. The agent must compact by itself (local summaries by default) to finish. The script
// samples the CLI's resident memory (VmRSS from /proc) when the server receives the requests of
// steps 100, 200, …, and, through bench/heap-probe.mjs (preloaded with --expose-gc, answering
// SIGUSR2), its live heap after a full garbage collection at the same moments. It prints wall
// time, peak RSS (VmHWM), the number of compactions, the largest request, and the rollout
// file's size. A second run with a window large enough never to
// compact shows what the same session costs without compaction.
// Nothing is asserted on timings. Usage:
//   node bench/long-session.mjs [--steps N] [--window N] [--remote] [--same-file] [--no-baseline] [--keep]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { requireBuilt } from "./built.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const SERVER = join(ROOT, "dist/test/support/model-server.js");
const SUMMARY_MARK = join(ROOT, "dist/src/core/compact/prompt.js");
const PROBE = join(ROOT, "bench/heap-probe.mjs");
const ROLLOUT_HELPERS = join(ROOT, "dist/test/support/rollout.js");

function intFlag(argv, name, fallback, min) {
  const i = argv.indexOf(name);
  if (i === -1) return fallback;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < min) {
    console.error(`${name} needs an integer of at least ${min}`);
    process.exit(2);
  }
  return n;
}

const argv = process.argv.slice(2);
const STEPS = intFlag(argv, "--steps", 500, 10);
const WINDOW = intFlag(argv, "--window", 32_000, 8_000);
const REMOTE = argv.includes("--remote");
/** Every step rewrites one file instead of adding one, so the turn's cumulative diff stays small. */
const SAME_FILE = argv.includes("--same-file");
const line = (n) => `step ${n}: ${"lorem ipsum dolor sit amet ".repeat(30)}`;
const KEEP = argv.includes("--keep");
const SAMPLE_EVERY = Math.max(1, Math.floor(STEPS / 5));

requireBuilt(CLI, SERVER, SUMMARY_MARK, PROBE, ROLLOUT_HELPERS);
const { startModelServer, estimatedRequestTokens } = await import(SERVER);
const { SUMMARIZATION_PROMPT } = await import(SUMMARY_MARK);
const { rolloutFiles } = await import(ROLLOUT_HELPERS);

const mib = (kib, digits = 0) => `${(kib / 1024).toFixed(digits)} MiB`;

function procStatus(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
    return { rss: field("VmRSS"), hwm: field("VmHWM") };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

function lastUserText(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  return input.at(-1)?.content?.[0]?.text ?? "";
}

async function run(window) {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-long-"));
  const cwd = join(root, "work");
  const home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
  let child = null;
  let step = 0;
  let compactions = 0;
  let maxRequest = 0;
  let peak = 0;
  const samples = [];
  const heaps = [];
  const server = await startModelServer([], {
    usageFromBody: true,
    contextWindow: window,
    compact: (req) => {
      compactions += 1;
      const users = (req.body.input ?? []).filter((i) => i.type === "message" && i.role === "user" && !String(i.content?.[0]?.text ?? "").startsWith("<"));
      return [...users, { type: "compaction", encrypted_content: `summary-${compactions}` }];
    },
    respond: (req) => {
      maxRequest = Math.max(maxRequest, estimatedRequestTokens(req.rawBody));
      const status = procStatus(child.pid);
      peak = Math.max(peak, status.hwm || 0);
      if (lastUserText(req.body).startsWith(SUMMARIZATION_PROMPT)) {
        compactions += 1;
        return { outputs: [{ type: "message", text: `Summary ${compactions}: steps 1 to ${step} are done; continue with step ${step + 1}.` }] };
      }
      step += 1;
      if (step % SAMPLE_EVERY === 0 && step <= STEPS) {
        samples.push({ step, rss: status.rss });
        child.kill("SIGUSR2");
      }
      if (step > STEPS) return { outputs: [{ type: "message", text: `All ${STEPS} steps are done.` }] };
      const patch = SAME_FILE && step > 1
        ? `*** Begin Patch\n*** Update File: step-1.txt\n@@\n-${line(step - 1)}\n+${line(step)}\n*** End Patch\n`
        : `*** Begin Patch\n*** Add File: step-${step}.txt\n+${line(step)}\n*** End Patch\n`;
      return { outputs: [{ type: "message", text: `Writing step ${step}.` }, { type: "custom_tool_call", name: "apply_patch", input: patch, callId: `call-${step}` }] };
    },
  });
  const args = [
    CLI, "exec", "-c", `openai_base_url="${server.url}"`, "-c", `model_context_window=${window}`,
    ...(REMOTE ? [] : ["-c", "features.remote_compaction=false"]),
    "-m", "gpt-5.1-codex", "-s", "danger-full-access", "--skip-git-repo-check", "--json",
    `Write step-1.txt to step-${STEPS}.txt, then say you are done.`,
  ];
  const started = performance.now();
  const result = await new Promise((resolve) => {
    child = spawn(process.execPath, ["--expose-gc", "--import", pathToFileURL(PROBE).href, ...args], {
      cwd,
      env: { ...process.env, CODEX_HOME: home, HOME: root, OPENAI_API_KEY: "sk-bench", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      for (const m of String(d).matchAll(/^heap-probe (\d+) (\d+)$/gm)) heaps.push(Number(m[1]) / 1024);
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  const wall = performance.now() - started;
  await server.close();
  const rollout = rolloutFiles(home)[0];
  const files = readdirSync(cwd).filter((f) => f.startsWith("step-")).length;
  const written = SAME_FILE ? readFileSync(join(cwd, "step-1.txt"), "utf8") === `${line(STEPS)}\n` : files === STEPS;
  const ok = result.code === 0 && result.stdout.includes(`All ${STEPS} steps are done.`) && written && server.violations.length === 0;
  if (!ok) {
    console.error(`run with a ${window}-token window failed: exit ${result.code}, ${files} files, violations ${server.violations.slice(0, 3).join("; ")}`);
    console.error(result.stderr.slice(-2000));
  }
  samples.forEach((sample, i) => (sample.heap = heaps[i] ?? NaN));
  const out = { ok, wall, peak, samples, compactions, maxRequest, requests: server.requests.length, rolloutBytes: rollout ? statSync(rollout).size : 0 };
  if (!KEEP) rmSync(root, { recursive: true, force: true });
  else console.log(`kept ${root}`);
  return out;
}

function report(label, r) {
  console.log(`\n${label}`);
  console.log(`  finished: ${r.ok ? "yes" : "NO"}   model requests: ${r.requests}   compactions: ${r.compactions}`);
  console.log(`  wall: ${(r.wall / 1000).toFixed(2)} s   peak RSS: ${mib(r.peak)}   largest request: ${r.maxRequest.toLocaleString("en-US")} tokens (est.)`);
  console.log(`  rollout file: ${(r.rolloutBytes / 1024 / 1024).toFixed(2)} MiB`);
  console.log(`  at step:          ${r.samples.map((s) => String(s.step).padStart(7)).join(" ")}`);
  console.log(`  RSS:              ${r.samples.map((s) => mib(s.rss).padStart(7)).join(" ")}`);
  console.log(`  live heap (GC'd): ${r.samples.map((s) => mib(s.heap, 1).padStart(7)).join(" ")}`);
}

console.log(`long session: ${STEPS} steps (${SAME_FILE ? "rewriting one file" : "one new file each"}), ${REMOTE ? "server-side" : "local"} compaction, Node ${process.version}`);
const small = await run(WINDOW);
report(`window ${WINDOW.toLocaleString("en-US")} tokens (compacting)`, small);
let failed = !small.ok;
if (!argv.includes("--no-baseline")) {
  const big = await run(2_000_000);
  report("window 2,000,000 tokens (never compacts: the baseline)", big);
  failed ||= !big.ok;
}
process.exit(failed ? 1 : 0);
