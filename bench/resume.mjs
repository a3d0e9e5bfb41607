#!/usr/bin/env node
// Resuming a long session: a generated rollout file with 10,000 response items (2,500 turns of
// prompt, exec_command call, its output and an answer, with the turn_context and event lines
// codex-ts writes), resumed with `codex-ts exec --json resume <id> <prompt>` against an
// in-process scripted model server. Every measured run resumes the same file, so it also shows
// that a resume appends only its new lines and that memory follows the file's size, not the
// number of earlier resumes. A fresh `exec` in the same directory is measured as the baseline.
// Prints medians of: spawn -> first model request received, wall time, peak RSS (GNU time).
// Nothing is asserted on timings. Usage: node bench/resume.mjs [--runs N] [--items N] [--keep]
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { gnuTimePath } from "./gnu-time.mjs";
import { median, parseRuns } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const SERVER = join(ROOT, "dist/test/support/model-server.js");
const WARMUP = 1;
const TARGET_MS = 300;
const THREAD_ID = "01a20039-0605-7f82-bb57-0384ad2af383";

function parseItems(argv) {
  const i = argv.indexOf("--items");
  if (i === -1) return 10_000;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 4) {
    console.error("--items needs an integer of at least 4");
    process.exit(2);
  }
  return n;
}

/** Writes a rollout file as codex-ts would have recorded `items` response items; returns its path. */
function generateRollout(codexHome, cwd, items) {
  const dir = join(codexHome, "sessions", "2026", "11", "21");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `rollout-2026-11-21T22-27-46-${THREAD_ID}.jsonl`);
  let clock = Date.UTC(2026, 10, 21, 22, 27, 46);
  const lines = [];
  const add = (type, payload) => {
    clock += 7;
    lines.push(JSON.stringify({ timestamp: new Date(clock).toISOString(), type, payload }));
  };
  const base = "You are a coding agent working in the user's repository. ".repeat(60);
  add("session_meta", {
    id: THREAD_ID, timestamp: new Date(clock).toISOString(), cwd, originator: "codex_exec", cli_version: "0.1.0",
    source: "exec", model_provider: "openai", base_instructions: { text: base },
  });
  const sandbox = { type: "danger-full-access" };
  add("response_item", { type: "message", role: "developer", content: [{ type: "input_text", text: "<permissions instructions>\nSandbox mode is `danger-full-access`.\n</permissions instructions>" }] });
  add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: `<environment_context>\n  <cwd>${cwd}</cwd>\n  <approval_policy>never</approval_policy>\n  <sandbox_mode>danger-full-access</sandbox_mode>\n  <network_access>enabled</network_access>\n  <shell>bash</shell>\n</environment_context>` }] });
  let total = 0;
  const turns = Math.floor((items - 2) / 4);
  for (let t = 0; t < turns; t++) {
    const turnId = `01a20039-${String(t).padStart(4, "0")}-7000-8000-000000000000`;
    add("event_msg", { type: "task_started", model_context_window: 258400, turn_id: turnId });
    add("turn_context", { turn_id: turnId, cwd, approval_policy: "never", sandbox_policy: sandbox, model: "gpt-5.5", summary: "auto" });
    const prompt = `Step ${t}: look at src/module_${t % 97}.ts and tell me what the exported function does.`;
    add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: prompt }] });
    add("event_msg", { type: "user_message", message: prompt, images: null });
    add("response_item", { type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd: `sed -n 1,40p src/module_${t % 97}.ts` }), call_id: `call_${t}` });
    const output = `Chunk ID: ${(t * 7919).toString(16).padStart(6, "0").slice(-6)}\nWall time: 0.0021 seconds\nProcess exited with code 0\nOriginal token count: 90\nOutput:\n${`export function f${t}(x: number): number {\n  return x * ${t};\n}\n`.repeat(4)}`;
    add("response_item", { type: "function_call_output", call_id: `call_${t}`, output });
    const answer = `The exported function f${t} multiplies its argument by ${t} and returns the product; it has no side effects.`;
    add("event_msg", { type: "agent_message", message: answer });
    add("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: answer }] });
    total += 1200;
    const usage = { input_tokens: 1200, cached_input_tokens: 0, output_tokens: 40, reasoning_output_tokens: 0, total_tokens: 1240 };
    add("event_msg", { type: "token_count", info: { total_token_usage: { ...usage, input_tokens: total }, last_token_usage: usage, model_context_window: 258400 }, rate_limits: null });
    add("event_msg", { type: "task_complete", last_agent_message: answer, turn_id: turnId });
  }
  // Whatever does not fill a whole turn is made up with short exchanges.
  for (let i = 2 + turns * 4; i < items; i += 2) {
    add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: `One more question (${i}).` }] });
    if (i + 1 < items) add("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "One more answer." }] });
  }
  writeFileSync(path, `${lines.join("\n")}\n`);
  return { path, items, lines: lines.length };
}

/** One CLI run; resolves with the time to the first model request, wall time and peak RSS. */
async function runOnce(m, timePath, ctx, args) {
  const server = await m.startModelServer([m.turn(m.text("Resumed fine."))]);
  const rssFile = join(ctx.root, "rss.txt");
  rmSync(rssFile, { force: true });
  // The generated history (about 600,000 tokens) is more than any real window holds, so a resume
  // would compact it first; a huge configured window keeps compaction out of what this measures
  // (bench/long-session.mjs measures that).
  const cliArgs = [CLI, "exec", "--json", "-s", "danger-full-access", "-c", `openai_base_url="${server.url}"`, "-c", "model_context_window=4000000", ...args];
  const [cmd, argv] = timePath ? [timePath, ["-o", rssFile, "-f", "%M", process.execPath, ...cliArgs]] : [process.execPath, cliArgs];
  const startWall = Date.now();
  const start = performance.now();
  let stderr = "";
  let stdout = "";
  const child = spawn(cmd, argv, { cwd: ctx.work, env: ctx.env, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.end();
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  const wall = performance.now() - start;
  await server.close();
  const problems = [];
  if (code !== 0) problems.push(`exit code ${code}: ${stderr.trim().slice(0, 300)}`);
  if (server.requests.length !== 1) problems.push(`${server.requests.length} model requests, expected 1`);
  problems.push(...server.violations);
  if (!stdout.includes('"turn.completed"')) problems.push("no turn.completed");
  const firstRequest = server.requests[0] ? server.requests[0].receivedAt - startWall : undefined;
  const inputItems = server.requests[0]?.body.input?.length ?? 0;
  const rss = timePath && existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1)) / 1024 : undefined;
  return { wall, firstRequest, rss, inputItems, problems };
}

function summarize(label, results) {
  const ok = results.filter((r) => r.problems.length === 0);
  for (const r of results.filter((r) => r.problems.length > 0)) console.log(`FAILED (${label}): ${r.problems.join("; ")}`);
  if (ok.length === 0) return null;
  const pick = (f) => {
    const v = ok.map(f).filter((x) => typeof x === "number" && Number.isFinite(x));
    return v.length ? median(v) : undefined;
  };
  return { label, n: ok.length, total: results.length, first: pick((r) => r.firstRequest), wall: pick((r) => r.wall), rss: pick((r) => r.rss), input: pick((r) => r.inputItems) };
}

async function main() {
  const argv = process.argv.slice(2);
  const runs = parseRuns(argv, 7);
  const items = parseItems(argv);
  requireBuilt(CLI, SERVER);
  const m = await import(SERVER);
  const timePath = gnuTimePath();
  const root = mkdtempSync(join(tmpdir(), "codex-ts-bench-resume-"));
  const work = join(root, "work");
  const codexHome = join(root, "codex-home");
  const home = join(root, "home");
  for (const d of [work, codexHome, home]) mkdirSync(d);
  mkdirSync(join(work, ".git"));
  const env = { ...process.env, CODEX_HOME: codexHome, HOME: home, OPENAI_API_KEY: "sk-bench", NO_COLOR: "1" };
  delete env.CODEX_API_KEY;
  delete env.OPENAI_BASE_URL;
  const ctx = { root, work, env };

  const generated = generateRollout(codexHome, work, items);
  const sizeBefore = statSync(generated.path).size;
  console.log(`resume of a ${generated.items.toLocaleString("en-US")}-item session (${generated.lines.toLocaleString("en-US")} lines, ${(sizeBefore / 2 ** 20).toFixed(1)} MiB): ${runs} runs after ${WARMUP} warm-up, Node ${process.version}`);

  const resumeRuns = [];
  const sizes = [sizeBefore];
  for (let i = 0; i < WARMUP + runs; i++) {
    const r = await runOnce(m, timePath, ctx, ["resume", THREAD_ID, `resume number ${i}`]);
    sizes.push(statSync(generated.path).size);
    if (i >= WARMUP) resumeRuns.push(r);
  }
  const freshRuns = [];
  for (let i = 0; i < WARMUP + runs; i++) {
    const r = await runOnce(m, timePath, ctx, ["--ephemeral", "a new session"]);
    if (i >= WARMUP) freshRuns.push(r);
  }
  if (argv.includes("--keep")) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });

  const rows = [summarize(`resume, ${generated.items.toLocaleString("en-US")} items`, resumeRuns), summarize("new session (baseline)", freshRuns)].filter(Boolean);
  const fmt = (v, unit, digits = 0) => (v === undefined ? "n/a" : `${v.toFixed(digits)} ${unit}`);
  const table = [
    ["", "spawn -> 1st request", "wall", "peak RSS", "request items"],
    ...rows.map((r) => [`${r.label} (${r.n}/${r.total} ok)`, fmt(r.first, "ms"), fmt(r.wall, "ms"), fmt(r.rss, "MiB"), r.input === undefined ? "n/a" : String(r.input)]),
    ["target (resume)", `<= ${TARGET_MS} ms`, "", "flat across resumes", ""],
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  console.log("");
  for (const row of table) console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("   "));

  const appended = sizes.slice(1).map((s, i) => s - (sizes[i] ?? 0));
  const rssSeries = resumeRuns.map((r) => r.rss).filter((v) => v !== undefined);
  console.log(`\nbytes appended per resume: ${appended.map((b) => b.toLocaleString("en-US")).join(", ")} (file ${(sizes.at(-1) / 2 ** 20).toFixed(2)} MiB after ${sizes.length - 1} resumes)`);
  if (rssSeries.length) console.log(`peak RSS per measured resume, in order: ${rssSeries.map((v) => v.toFixed(0)).join(", ")} MiB`);
  else console.log("Peak RSS unavailable: GNU time (/usr/bin/time, Debian package `time`) is not installed.");
  const resume = rows[0];
  if (resume && resume.first !== undefined) console.log(`spawn -> first request: ${resume.first <= TARGET_MS ? "within" : "over"} the ${TARGET_MS} ms target`);
  if (rows.length < 2 || resumeRuns.some((r) => r.problems.length) || freshRuns.some((r) => r.problems.length)) process.exitCode = 1;
}

await main();
