#!/usr/bin/env node
// The reference's 3-request `exec` scenario (see /work/shared/spec/wire/README.md), end to end:
// a scripted model asks for `echo hello > a.txt && cat a.txt`, then for an apply_patch edit, then
// answers. Each run is a fresh `exec --json` process in a fresh temporary directory against an
// in-process scripted server. codex-ts (the bundle, without and with NODE_EXTRA_CA_CERTS, and the
// tsc build from before the bundle) and the reference's native binary take turns run by run, so
// load on the machine affects them alike. Prints median wall time, CPU time and peak RSS of each,
// the ratios to the reference, and a median breakdown of where the time went. No timing is
// asserted. Usage: node bench/exec-3-turn.mjs [--runs N] [--real-home] [--otel] [--hooks]
// --otel: the codex-ts runs export OpenTelemetry (OTLP/HTTP protobuf) to a collector the bench runs.
// --hooks: every program gets the same hooks.json (a hook that logs its stdin on SessionStart,
// UserPromptSubmit, PreToolUse, PostToolUse and Stop: 7 runs per task) and runs it untrusted
// (--dangerously-bypass-hook-trust); a run whose log does not hold the 7 events fails.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { requireBuilt } from "./built.mjs";
import { loadAverage } from "./machine.mjs";
import { readRusage, rusageAvailable, withRusage } from "./rusage.mjs";
import { median, parseRuns } from "./stats.mjs";
import { benchNodeVersion, BUNDLE_BIN, childEnv, codexTsVariants, referenceBinary, referenceConfig, reportRow, TSC_CLI } from "./subjects.mjs";
import { printTable } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER = join(ROOT, "dist/test/support/model-server.js");
const WARMUP = 1;
const TARGET = { ratio: 0.5, mib: 64 };
const MODEL = "gpt-5.5";
const PROMPT = "Create a.txt containing hello, then change it to hello world.";

function script(m) {
  return [
    m.turn(m.fnCall("exec_command", { cmd: "echo hello > a.txt && cat a.txt", workdir: "." }, "call_0002")),
    m.turn(m.customCall("apply_patch", "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello world\n*** End Patch\n", "call_0005")),
    m.turn(m.text("Done: created a.txt and changed it to 'hello world'.")),
  ];
}

/** The `--hooks` hooks.json: each event's stdin appended to $CODEX_HOME/hooks.log, one line per run. */
const HOOKED_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"];
const HOOK_RUNS = 7;
const HOOKS_JSON = JSON.stringify({
  hooks: Object.fromEntries(HOOKED_EVENTS.map((e) => [e, [{ hooks: [{ type: "command", command: 'cat >> "$CODEX_HOME/hooks.log"; echo >> "$CODEX_HOME/hooks.log"' }] }]])),
});

/** What each program runs: codex-ts variants with `-c openai_base_url`, the reference with a config.toml. */
function subjects(collector, hooks) {
  const hookArgs = hooks ? ["--dangerously-bypass-hook-trust"] : [];
  const installHooks = (codexHome) => {
    if (hooks) writeFileSync(join(codexHome, "hooks.json"), HOOKS_JSON);
  };
  const list = codexTsVariants().map((v) => ({
    key: v.key,
    label: v.label,
    env: v.env,
    setup: (codexHome) => {
      installHooks(codexHome);
      if (collector) writeFileSync(join(codexHome, "config.toml"), `[otel]\nexporter = { otlp-http = { endpoint = "${collector}", protocol = "binary" } }\n`);
    },
    argv: (url) => [...v.argv, "exec", "--json", ...hookArgs, "-m", MODEL, "-s", "danger-full-access", "--skip-git-repo-check", "-c", `openai_base_url="${url}"`, PROMPT],
  }));
  const ref = referenceBinary();
  if (ref) {
    list.push({
      key: "ref",
      label: "reference (native)",
      env: {},
      setup: (codexHome, url) => {
        installHooks(codexHome);
        writeFileSync(join(codexHome, "config.toml"), referenceConfig(url));
      },
      argv: () => [ref, "exec", "--json", ...hookArgs, "-s", "danger-full-access", "--skip-git-repo-check", PROMPT],
    });
  }
  return list;
}

/** One run; resolves with timings (ms since spawn), CPU, RSS and any problems seen. */
async function runOnce(m, subject, realHome, hooks) {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-bench-"));
  const work = join(root, "work");
  const codexHome = join(root, "codex-home");
  const home = join(root, "home");
  for (const d of [work, codexHome, home]) mkdirSync(d);
  const usageFile = join(root, "rusage.json");
  const server = await m.startModelServer(script(m));
  subject.setup(codexHome, server.url);
  const env = childEnv({ ...subject.env, CODEX_HOME: codexHome, OPENAI_API_KEY: "sk-bench", NO_COLOR: "1", CODEX_API_KEY: undefined, OPENAI_BASE_URL: undefined });
  if (!realHome) env.HOME = home;
  const argv = withRusage(subject.argv(server.url), usageFile);

  const startWall = Date.now();
  const start = performance.now();
  // Event times are taken on the Date.now() scale, the server's and the fork's (bench/rusage.py).
  const events = [];
  let stdout = "";
  let stderr = "";
  let pending = "";
  const child = spawn(argv[0], argv.slice(1), { cwd: work, env, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.end();
  child.stdout.on("data", (chunk) => {
    const at = Date.now();
    stdout += chunk;
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        events.push({ at, event: JSON.parse(line) });
      } catch {
        events.push({ at, event: { type: "unparsable", line } });
      }
    }
  });
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (c) => resolve(c));
  });
  const usage = readRusage(usageFile, performance.now() - start);
  await server.close();

  const problems = [];
  if (code !== 0) problems.push(`exit code ${code}`);
  if (!events.some((e) => e.event.type === "turn.completed")) problems.push("no turn.completed event");
  if (server.requests.length !== 3) problems.push(`${server.requests.length} model requests, expected 3`);
  problems.push(...server.violations);
  let content = "";
  try {
    content = readFileSync(join(work, "a.txt"), "utf8");
  } catch {
    content = "(missing)";
  }
  if (content !== "hello world\n") problems.push(`a.txt is ${JSON.stringify(content)}`);
  if (hooks) {
    let logged = 0;
    try {
      logged = readFileSync(join(codexHome, "hooks.log"), "utf8").split("\n").filter((l) => l.trim()).length;
    } catch {
      logged = 0;
    }
    if (logged !== HOOK_RUNS) problems.push(`${logged} hook runs logged, expected ${HOOK_RUNS}`);
  }
  if (problems.length > 0 && stderr.trim()) problems.push(`stderr: ${stderr.trim().slice(0, 500)}`);
  if (problems.length > 0 && !stdout.trim()) problems.push("stdout was empty");
  rmSync(root, { recursive: true, force: true });

  // Phase boundaries, all in ms since the fork (or the spawn without python3).
  const origin = usage.forkedAtMs ?? startWall;
  const reqAt = server.requests.map((r) => r.receivedAt - origin);
  const firstOf = (pred) => {
    const at = events.find((e) => pred(e.event))?.at;
    return at === undefined ? undefined : at - origin;
  };
  const items = new Map();
  for (const { at, event } of events) {
    if (event.item?.type !== "command_execution" && event.item?.type !== "file_change") continue;
    const entry = items.get(event.item.id) ?? {};
    if (event.type === "item.started") entry.start = at;
    if (event.type === "item.completed") entry.end = at;
    items.set(event.item.id, entry);
  }
  const itemMs = [...items.values()].filter((c) => c.start !== undefined && c.end !== undefined).map((c) => c.end - c.start);
  return {
    ...usage,
    problems,
    phases: {
      threadStarted: firstOf((e) => e.type === "thread.started"),
      requests: reqAt,
      turnCompleted: firstOf((e) => e.type === "turn.completed"),
      itemMs,
    },
  };
}

function printBreakdown(list, results) {
  const med = (key, pick) => {
    const values = results.get(key).map(pick).filter((v) => typeof v === "number" && Number.isFinite(v));
    return values.length ? median(values).toFixed(0) : "n/a";
  };
  const rows = [
    ["spawn -> thread.started on stdout", (r) => r.phases.threadStarted],
    ["spawn -> model request 1 received", (r) => r.phases.requests[0]],
    ["request 1 -> request 2 (stream + command)", (r) => r.phases.requests[1] - r.phases.requests[0]],
    ["request 2 -> request 3 (stream + patch)", (r) => r.phases.requests[2] - r.phases.requests[1]],
    ["request 3 -> turn.completed on stdout", (r) => r.phases.turnCompleted - r.phases.requests[2]],
    ["turn.completed -> process exit", (r) => r.wallMs - r.phases.turnCompleted],
    ["  command, item.started -> item.completed", (r) => r.phases.itemMs[0]],
    ["  patch, item.started -> item.completed", (r) => r.phases.itemMs[1]],
  ];
  console.log("\nWhere the time goes (medians, ms from the fork; all times on a 1 ms clock):");
  printTable([["", ...list.map((s) => s.label)], ...rows.map(([label, pick]) => [label, ...list.map((s) => med(s.key, pick))])]);
}

async function main() {
  const argv = process.argv.slice(2);
  const runs = parseRuns(argv, 7);
  const realHome = argv.includes("--real-home");
  requireBuilt(BUNDLE_BIN, TSC_CLI, SERVER);
  const m = await import(SERVER);
  const collector = argv.includes("--otel") ? await startCollector() : null;
  const hooks = argv.includes("--hooks");
  const list = subjects(collector?.endpoint, hooks);
  const loads = [loadAverage()];

  console.log(`exec, 3 model requests (${MODEL}): ${runs} runs of each after ${WARMUP} warm-up, in turns, Node ${benchNodeVersion()}`);
  console.log("Script: exec_command `echo hello > a.txt && cat a.txt` -> apply_patch (freeform) -> message, as the reference's.");
  console.log(`HOME: ${realHome ? "the real one (login-shell profile is sourced by `bash -lc`)" : "an empty temporary directory (use --real-home to keep yours)"}`);
  if (collector) console.log("OpenTelemetry: the codex-ts runs export to a local OTLP/HTTP collector");
  if (hooks) console.log(`Hooks: the same hooks.json for every program, ${HOOK_RUNS} hook runs per task (${HOOKED_EVENTS.join(", ")})`);
  if (!list.some((s) => s.key === "ref")) console.log("Reference: not found (CODEX_REF_BIN, /work/ref/node_modules/.bin/codex or `codex` on PATH); its rows are left out.");

  const results = new Map(list.map((s) => [s.key, []]));
  for (let i = 0; i < WARMUP; i++) for (const s of list) await runOnce(m, s, realHome, hooks);
  for (let i = 0; i < runs; i++) for (const s of list) results.get(s.key).push(await runOnce(m, s, realHome, hooks));
  loads.push(loadAverage());
  if (collector) {
    console.log(`OpenTelemetry: the collector received ${collector.received()} export requests`);
    collector.close();
  }

  let failed = false;
  for (const s of list) {
    const bad = results.get(s.key).filter((r) => r.problems.length > 0);
    bad.forEach((r) => console.log(`FAILED ${s.label}: ${r.problems.join("; ")}`));
    if (bad.length > 0) failed = true;
    results.set(s.key, results.get(s.key).filter((r) => r.problems.length === 0));
  }
  const med = (key, field) => {
    const values = results.get(key).map((r) => r[field]).filter((v) => v !== undefined);
    return values.length ? median(values) : undefined;
  };
  const hasRef = list.some((s) => s.key === "ref") && results.get("ref").length > 0;
  const ratio = (key, field) => (hasRef && key !== "ref" && med(key, field) !== undefined ? `${(med(key, field) / med("ref", field)).toFixed(2)}x` : "");
  const measured = rusageAvailable();
  const fmt = (v, unit) => (v === undefined ? "n/a" : `${v.toFixed(0)} ${unit}`);
  const table = [["", "runs ok", "median wall", "÷ reference", ...(measured ? ["median CPU", "÷ reference", "peak RSS"] : [])]];
  for (const s of list) {
    const ok = results.get(s.key);
    const walls = ok.map((r) => r.wallMs);
    table.push([
      s.label,
      `${ok.length}/${runs}`,
      ok.length ? `${fmt(med(s.key, "wallMs"), "ms")} (${Math.min(...walls).toFixed(0)}-${Math.max(...walls).toFixed(0)})` : "n/a",
      ratio(s.key, "wallMs"),
      ...(measured ? [fmt(med(s.key, "cpuMs"), "ms"), ratio(s.key, "cpuMs"), fmt(med(s.key, "rssMiB"), "MiB")] : []),
    ]);
  }
  console.log(`\nload average ${loads.join(" before, ")} after`);
  printTable(table);
  console.log(`Targets: codex-ts wall within ${TARGET.ratio}x the reference's, peak RSS within ${TARGET.mib} MiB. Wall is fork to exit, CPU is user + system of the whole process tree (bash included).`);
  printBreakdown(list, results);

  if (hasRef) {
    for (const key of ["bundle", "bundle-ca"]) {
      if (!results.get(key)?.length) continue;
      const r = med(key, "wallMs") / med("ref", "wallMs");
      const rss = med(key, "rssMiB");
      reportRow({
        work: `3-turn scripted exec${hooks ? " with 7 hook runs" : ""}${key === "bundle-ca" ? ", NODE_EXTRA_CA_CERTS set" : ""}`,
        ours: `${fmt(med(key, "wallMs"), "ms")} / ${fmt(rss, "MiB")}`,
        reference: `${fmt(med("ref", "wallMs"), "ms")} / ${fmt(med("ref", "rssMiB"), "MiB")}`,
        ratio: r,
        cpuRatio: measured ? med(key, "cpuMs") / med("ref", "cpuMs") : undefined,
        target: `≤ ${TARGET.ratio} and ≤ ${TARGET.mib} MiB`,
        met: r <= TARGET.ratio && (rss === undefined || rss <= TARGET.mib),
      });
    }
  }
  if (failed) process.exitCode = 1;
}

/** A collector that accepts every OTLP/HTTP export and counts them. */
async function startCollector() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}/v1/logs`,
    received: () => received,
    close: () => server.close(),
  };
}

await main();
