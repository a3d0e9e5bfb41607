#!/usr/bin/env node
// Resuming a long session, codex-ts beside the reference in one run: a generated rollout file
// with 10,000 response items (2,500 turns of prompt, exec_command call, its output and an
// answer, with the event lines a session writes), resumed with
// `exec --json resume <id> <prompt>` against an in-process scripted model server. The variants
// take turns round by round (the order rotates), so load on the machine affects them alike, and
// the load average is printed before and after. codex-ts (the bundle as shipped, the tsc build)
// is a Node program, which reads NODE_EXTRA_CA_CERTS before running any code: it runs without
// it, and with it as a row of its own (see subjects.mjs). Each tool resumes its own copy of the
// file, again and again, so the figures also show that a resume appends only its new lines and
// that memory follows the file's size, not the number of earlier resumes.
// Prints medians of: spawn -> first model request, wall time, CPU time (user + system) and peak
// RSS (rusage.mjs). On a busy machine the wall time also counts waiting for a core; the CPU time
// does not, so compare the two tools' CPU times when the load average is high.
// Nothing is asserted on timings.
// Usage: node bench/resume.mjs [--runs N] [--items N] [--keep]
//   CODEX_REF_BIN=path   the reference (its npm launcher or native binary); see subjects.mjs
//   CODEX_TS_BEFORE=dir  another codex-ts build (its dist/ folder), measured in the same rounds:
//                        before and after a change, beside the reference, under the same load
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { loadAverage } from "./machine.mjs";
import { median, parseRuns } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";
import { readRusage, rusageAvailable, withRusage } from "./rusage.mjs";
import { benchNodeVersion, BUNDLE_BIN, childEnv, codexTsVariants, referenceBinary, referenceConfig, reportRow, TSC_CLI } from "./subjects.mjs";
import { printTable } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER = join(ROOT, "dist/test/support/model-server.js");
const WARMUP = 1;
/** Issue 32's target: a resume in at most this share of the reference's wall time. */
const TARGET_RATIO = 0.6;
const THREAD_ID = "01a20039-0605-7f82-bb57-0384ad2af383";
const MODEL = "gpt-5.5";
/**
 * The generated history (about 600,000 tokens) is more than any real window holds, so a resume
 * would compact it first; a huge window keeps compaction out of what this measures
 * (bench/long-session.mjs measures that), for both tools.
 */
const WINDOW = 4_000_000;

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

/**
 * Writes a rollout file as codex-ts records a session (response items, the turn_context of each
 * turn, and the events it keeps: task_started, user_message, the command's item_completed,
 * agent_message, token_count, task_complete); returns its path.
 */
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
    source: "exec", model_provider: "bench", base_instructions: { text: base },
  });
  const sandbox = { type: "danger-full-access" };
  add("response_item", { type: "message", role: "developer", content: [{ type: "input_text", text: "<permissions instructions>\nSandbox mode is `danger-full-access`.\n</permissions instructions>" }] });
  add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: `<environment_context>\n  <cwd>${cwd}</cwd>\n  <approval_policy>never</approval_policy>\n  <sandbox_mode>danger-full-access</sandbox_mode>\n  <network_access>enabled</network_access>\n  <shell>bash</shell>\n</environment_context>` }] });
  let total = 0;
  const turns = Math.floor((items - 2) / 4);
  for (let t = 0; t < turns; t++) {
    const turnId = `01a20039-${String(t).padStart(4, "0")}-7000-8000-000000000000`;
    add("event_msg", { type: "task_started", turn_id: turnId, model_context_window: 258400 });
    add("turn_context", { turn_id: turnId, cwd, approval_policy: "never", sandbox_policy: sandbox, model: MODEL, summary: "auto" });
    const prompt = `Step ${t}: look at src/module_${t % 97}.ts and tell me what the exported function does.`;
    add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: prompt }] });
    add("event_msg", { type: "user_message", message: prompt, images: null });
    const script = `sed -n 1,40p src/module_${t % 97}.ts`;
    add("response_item", { type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd: script }), call_id: `call_${t}` });
    const source = `export function f${t}(x: number): number {\n  return x * ${t};\n}\n`.repeat(4);
    add("event_msg", {
      type: "item_completed", thread_id: THREAD_ID, turn_id: turnId,
      item: { type: "CommandExecution", id: `call_${t}`, command: ["/bin/bash", "-lc", script], cwd, parsed_cmd: [{ type: "unknown", cmd: script }], source: "agent", status: "completed", aggregated_output: source, exit_code: 0, duration: { secs: 0, nanos: 2_100_000 } },
    });
    const output = `Chunk ID: ${(t * 7919).toString(16).padStart(6, "0").slice(-6)}\nWall time: 0.0021 seconds\nProcess exited with code 0\nOriginal token count: 90\nOutput:\n${source}`;
    add("response_item", { type: "function_call_output", call_id: `call_${t}`, output });
    const answer = `The exported function f${t} multiplies its argument by ${t} and returns the product; it has no side effects.`;
    add("event_msg", { type: "agent_message", message: answer });
    add("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: answer }] });
    total += 1200;
    const usage = { input_tokens: 1200, cached_input_tokens: 0, output_tokens: 40, reasoning_output_tokens: 0, total_tokens: 1240 };
    add("event_msg", { type: "token_count", info: { total_token_usage: { ...usage, input_tokens: total }, last_token_usage: usage, model_context_window: 258400 }, rate_limits: null });
    add("event_msg", { type: "task_complete", turn_id: turnId, last_agent_message: answer, duration_ms: 840 });
  }
  // Whatever does not fill a whole turn is made up with short exchanges.
  for (let i = 2 + turns * 4; i < items; i += 2) {
    add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: `One more question (${i}).` }] });
    if (i + 1 < items) add("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "One more answer." }] });
  }
  writeFileSync(path, `${lines.join("\n")}\n`);
  return { path, items, lines: lines.length };
}

/**
 * What each variant runs (subjects.mjs: the bundle without and with NODE_EXTRA_CA_CERTS, the tsc
 * build; CODEX_TS_BEFORE's build; the reference), each tool in its own CODEX_HOME with its own
 * copy of the file (the codex-ts variants share one).
 */
function variants(root, work, generated, reference) {
  const homeWithFile = (name) => {
    const home = join(root, name);
    const copy = join(home, generated.path.slice(generated.path.indexOf("sessions")));
    mkdirSync(dirname(copy), { recursive: true });
    copyFileSync(generated.path, copy);
    return { home, file: copy };
  };
  const base = { HOME: join(root, "home"), OPENAI_API_KEY: "sk-bench", NO_COLOR: "1", CODEX_API_KEY: undefined, OPENAI_BASE_URL: undefined };
  const execArgs = (url) => ["exec", "--json", "-s", "danger-full-access", "-m", MODEL, "-c", `openai_base_url="${url}"`, "-c", `model_context_window=${WINDOW}`];
  const tsHome = homeWithFile("codex-ts-home");
  const list = codexTsVariants().map((v) => ({ name: v.label, key: v.key, ...tsHome, command: (url) => [...v.argv, ...execArgs(url)], env: childEnv({ ...base, ...v.env }), expectRequests: 1 }));
  const before = process.env.CODEX_TS_BEFORE;
  if (before) {
    const cli = join(before, "src/cli/main.js");
    list.push({ name: "codex-ts, CODEX_TS_BEFORE build", key: "before", ...homeWithFile("before-home"), command: (url) => [process.execPath, cli, ...execArgs(url)], env: childEnv(base), expectRequests: 1 });
  }
  if (reference) {
    const refHome = homeWithFile("reference-home");
    // The same window (-c) keeps the reference from compacting the generated history.
    const command = (url) => {
      writeFileSync(join(refHome.home, "config.toml"), referenceConfig(url));
      return [reference, "exec", "--json", "--skip-git-repo-check", "-s", "danger-full-access", "-c", `model_context_window=${WINDOW}`];
    };
    list.push({ name: "reference (native)", key: "ref", ...refHome, command, env: childEnv(base), expectRequests: null });
  }
  for (const v of list) v.cwd = work;
  return list;
}

/** One resume; resolves with the time to the first model request, wall and CPU time and peak RSS. */
async function runOnce(m, root, variant, args, itemCount) {
  const server = await m.startModelServer([], { respond: () => m.turn(m.text("Resumed fine.")) });
  const costFile = join(root, "rusage.json");
  const [program, ...argv] = withRusage([...variant.command(server.url), ...args], costFile);
  const startWall = Date.now();
  const start = performance.now();
  let stderr = "";
  let stdout = "";
  const child = spawn(program, argv, { cwd: variant.cwd, env: { ...variant.env, CODEX_HOME: variant.home }, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.end();
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  const cost = readRusage(costFile, performance.now() - start);
  await server.close();
  const problems = [];
  if (code !== 0) problems.push(`exit code ${code}: ${stderr.trim().slice(-300)}`);
  const turns = server.requests.filter((r) => (r.body.input?.length ?? 0) > itemCount / 2);
  if (turns.length !== 1) problems.push(`${turns.length} model requests carried the resumed history, expected 1`);
  if (variant.expectRequests !== null && server.requests.length !== variant.expectRequests) problems.push(`${server.requests.length} model requests, expected ${variant.expectRequests}`);
  problems.push(...server.violations);
  if (!stdout.includes('"turn.completed"')) problems.push("no turn.completed");
  const firstRequest = turns[0] ? turns[0].receivedAt - (cost.forkedAtMs ?? startWall) : undefined;
  const inputItems = turns[0]?.body.input?.length ?? 0;
  return { wall: cost.wallMs, firstRequest, rss: cost.rssMiB, cpu: cost.cpuMs, inputItems, problems };
}

function summarize(label, results) {
  const ok = results.filter((r) => r.problems.length === 0);
  for (const r of results.filter((r) => r.problems.length > 0)) console.log(`FAILED (${label}): ${r.problems.join("; ")}`);
  if (ok.length === 0) return null;
  const pick = (f) => {
    const v = ok.map(f).filter((x) => typeof x === "number" && Number.isFinite(x));
    return v.length ? median(v) : undefined;
  };
  const walls = ok.map((r) => r.wall);
  return { label, n: ok.length, total: results.length, first: pick((r) => r.firstRequest), wall: pick((r) => r.wall), min: Math.min(...walls), max: Math.max(...walls), cpu: pick((r) => r.cpu), rss: pick((r) => r.rss), input: pick((r) => r.inputItems) };
}

async function main() {
  const argv = process.argv.slice(2);
  const runs = parseRuns(argv, 7);
  const itemCount = parseItems(argv);
  requireBuilt(BUNDLE_BIN, TSC_CLI, SERVER);
  const m = await import(SERVER);
  const reference = referenceBinary();
  const root = mkdtempSync(join(tmpdir(), "codex-ts-bench-resume-"));
  const work = join(root, "work");
  for (const d of [work, join(root, "home"), join(root, "template")]) mkdirSync(d);
  mkdirSync(join(work, ".git"));

  const generated = generateRollout(join(root, "template"), work, itemCount);
  const list = variants(root, work, generated, reference);
  const sizeBefore = statSync(generated.path).size;
  console.log(`resume of a ${generated.items.toLocaleString("en-US")}-item session (${generated.lines.toLocaleString("en-US")} lines, ${(sizeBefore / 2 ** 20).toFixed(1)} MiB): ${runs} rounds after ${WARMUP} warm-up, Node ${benchNodeVersion()}`);
  console.log(`reference: ${reference ?? "not found (set CODEX_REF_BIN); its row and the ratio are left out"}`);
  const loadBefore = loadAverage();

  const results = new Map(list.map((v) => [v, []]));
  const sizes = new Map(list.map((v) => [v, [statSync(v.file).size]]));
  for (let round = 0; round < WARMUP + runs; round++) {
    const order = list.map((_, i) => list[(i + round) % list.length]);
    for (const v of order) {
      const r = await runOnce(m, root, v, ["resume", THREAD_ID, `resume number ${round}`], generated.items);
      sizes.get(v).push(statSync(v.file).size);
      if (round >= WARMUP) results.get(v).push(r);
    }
  }
  const loadAfter = loadAverage();
  if (argv.includes("--keep")) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });

  const rows = list.map((v) => ({ v, s: summarize(v.name, results.get(v)) })).filter((r) => r.s !== null);
  const refRow = rows.find((r) => r.v.name.startsWith("reference"));
  const fmt = (v, unit, digits = 0) => (v === undefined ? "n/a" : `${v.toFixed(digits)} ${unit}`);
  console.log("");
  printTable([
    ["", "spawn -> 1st request", "wall (median)", "wall range", "ratio", "CPU (median)", "CPU ratio", "peak RSS", "request items"],
    ...rows.map(({ s }) => [
      `${s.label} (${s.n}/${s.total} ok)`,
      fmt(s.first, "ms"),
      fmt(s.wall, "ms"),
      `${s.min.toFixed(0)}-${s.max.toFixed(0)} ms`,
      refRow ? `${(s.wall / refRow.s.wall).toFixed(2)}x` : "n/a",
      fmt(s.cpu, "ms"),
      refRow && s.cpu !== undefined && refRow.s.cpu ? `${(s.cpu / refRow.s.cpu).toFixed(2)}x` : "n/a",
      fmt(s.rss, "MiB"),
      s.input === undefined ? "n/a" : String(s.input),
    ]),
    ["target (codex-ts)", "", "", "", `<= ${TARGET_RATIO}x`, "", "", "flat across resumes", ""],
  ]);
  console.log(`\nload average (1 min): ${loadBefore} before, ${loadAfter} after`);
  for (const v of list.filter((x, i) => list.findIndex((y) => y.file === x.file) === i)) {
    const series = sizes.get(v);
    const appended = series.slice(1).map((s, i) => s - series[i]);
    console.log(`${basename(v.home)}: bytes appended per resume ${appended.map((b) => b.toLocaleString("en-US")).join(", ")}`);
  }
  const ts = rows.find((r) => r.v.key === "bundle");
  if (ts && results.get(ts.v).some((r) => r.rss !== undefined)) {
    console.log(`codex-ts peak RSS per measured resume, in order: ${results.get(ts.v).map((r) => (r.rss ?? 0).toFixed(0)).join(", ")} MiB`);
  } else if (!rusageAvailable()) console.log("CPU time and peak RSS unavailable: they need python3 (bench/rusage.py).");
  if (ts && refRow) console.log(`codex-ts / reference wall: ${(ts.s.wall / refRow.s.wall).toFixed(2)}x (${ts.s.wall / refRow.s.wall <= TARGET_RATIO ? "within" : "over"} the ${TARGET_RATIO}x target)`);
  if (ts?.s.cpu !== undefined && refRow?.s.cpu) console.log(`codex-ts / reference CPU: ${(ts.s.cpu / refRow.s.cpu).toFixed(2)}x`);
  // The rows `npm run bench` sums up (bench/all.mjs).
  for (const row of rows.filter((r) => r.v.key === "bundle" || r.v.key === "bundle-ca")) {
    if (!refRow) break;
    const ratio = row.s.wall / refRow.s.wall;
    reportRow({
      work: `resume a ${generated.items.toLocaleString("en-US")}-item session + one turn${row.v.key === "bundle-ca" ? ", NODE_EXTRA_CA_CERTS set" : ""}`,
      ours: `${row.s.wall.toFixed(0)} ms`,
      reference: `${refRow.s.wall.toFixed(0)} ms`,
      ratio,
      cpuRatio: row.s.cpu !== undefined && refRow.s.cpu ? row.s.cpu / refRow.s.cpu : undefined,
      target: `≤ ${TARGET_RATIO}`,
      met: ratio <= TARGET_RATIO,
    });
  }
  if (rows.length < list.length || [...results.values()].some((rs) => rs.some((r) => r.problems.length))) process.exitCode = 1;
}

await main();
