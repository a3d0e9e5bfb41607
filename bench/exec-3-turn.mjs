#!/usr/bin/env node
// The reference's 3-request `exec` scenario (see /work/shared/spec/wire/README.md), end to end:
// a scripted model asks for `echo hello > a.txt && cat a.txt`, then for a second edit, then
// answers. Each run is a fresh `codex-ts exec --json` process in a fresh temporary directory
// against an in-process scripted server. Prints median wall time and peak RSS, the reference
// figures, and a median breakdown of where the time went. No timing is asserted.
// Usage: node bench/exec-3-turn.mjs [--runs N] [--real-home] [--otel]
// --otel: the runs export OpenTelemetry (OTLP/HTTP protobuf) to a collector the bench runs.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { gnuTimePath } from "./gnu-time.mjs";
import { median } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const SERVER = join(ROOT, "dist/test/support/model-server.js");
const WARMUP = 1;
const TARGET = { ms: 400, mib: 100 };
const REFERENCE = [
  ["Codex CLI 0.169 (native)", 409, 150],
  ["gemini-cli 0.61", 1948, 267],
  ["opencode 1.18", 2695, 645],
];

function parseArgs(argv) {
  let runs = 7;
  const i = argv.indexOf("--runs");
  if (i !== -1) {
    runs = Number(argv[i + 1]);
    if (!Number.isInteger(runs) || runs < 1) {
      console.error("--runs needs a positive integer");
      process.exit(2);
    }
  }
  return { runs, realHome: argv.includes("--real-home"), otel: argv.includes("--otel") };
}

function script(m) {
  return [
    m.turn(m.fnCall("exec_command", { cmd: "echo hello > a.txt && cat a.txt", workdir: "." }, "call_0002")),
    m.turn(m.customCall("apply_patch", "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello world\n*** End Patch\n", "call_0005")),
    m.turn(m.text("Done: created a.txt and changed it to 'hello world'.")),
  ];
}

/** One CLI run; resolves with timings (ms since spawn), RSS and any problems seen. */
async function runOnce(m, timePath, realHome, collector) {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-bench-"));
  const work = join(root, "work");
  const codexHome = join(root, "codex-home");
  const home = join(root, "home");
  for (const d of [work, codexHome, home]) mkdirSync(d);
  if (collector) {
    writeFileSync(join(codexHome, "config.toml"), `[otel]\nexporter = { otlp-http = { endpoint = "${collector}", protocol = "binary" } }\n`);
  }
  const rssFile = join(root, "rss.txt");
  const server = await m.startModelServer(script(m));
  const env = { ...process.env, CODEX_HOME: codexHome, OPENAI_API_KEY: "sk-bench", NO_COLOR: "1" };
  delete env.CODEX_API_KEY;
  delete env.OPENAI_BASE_URL;
  if (!realHome) env.HOME = home;
  const cliArgs = [CLI, "exec", "--json", "-s", "danger-full-access", "--skip-git-repo-check",
    "-c", `openai_base_url="${server.url}"`, "Create a.txt containing hello, then change it to hello world."];
  const [cmd, args] = timePath
    ? [timePath, ["-o", rssFile, "-f", "%M", process.execPath, ...cliArgs]]
    : [process.execPath, cliArgs];

  const startWall = Date.now();
  const start = performance.now();
  const events = [];
  let stdout = "";
  let stderr = "";
  let pending = "";
  const child = spawn(cmd, args, { cwd: work, env, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.end();
  child.stdout.on("data", (chunk) => {
    const at = performance.now() - start;
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
  const wall = performance.now() - start;
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
  if (problems.length > 0 && stderr.trim()) problems.push(`stderr: ${stderr.trim().slice(0, 500)}`);
  if (problems.length > 0 && !stdout.trim()) problems.push("stdout was empty");

  let rss;
  if (timePath && existsSync(rssFile)) rss = Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1)) / 1024;
  rmSync(root, { recursive: true, force: true });

  // Phase boundaries, all in ms since spawn (request arrival uses the server's Date.now()).
  const reqAt = server.requests.map((r) => r.receivedAt - startWall);
  const firstOf = (pred) => events.find((e) => pred(e.event))?.at;
  const commands = new Map();
  for (const { at, event } of events) {
    if (event.item?.type !== "command_execution" && event.item?.type !== "file_change") continue;
    const entry = commands.get(event.item.id) ?? {};
    if (event.type === "item.started") entry.start = at;
    if (event.type === "item.completed") entry.end = at;
    commands.set(event.item.id, entry);
  }
  const commandMs = [...commands.values()].filter((c) => c.start !== undefined && c.end !== undefined).map((c) => c.end - c.start);
  return {
    wall, rss, problems,
    phases: {
      threadStarted: firstOf((e) => e.type === "thread.started"),
      requests: reqAt,
      turnCompleted: firstOf((e) => e.type === "turn.completed"),
      commandMs,
    },
  };
}

function printBreakdown(ok) {
  const med = (pick) => {
    const values = ok.map(pick).filter((v) => typeof v === "number" && Number.isFinite(v));
    return values.length ? median(values) : undefined;
  };
  const rows = [
    ["spawn -> thread.started on stdout", med((r) => r.phases.threadStarted)],
    ["spawn -> model request 1 received", med((r) => r.phases.requests[0])],
    ["request 1 -> request 2 (stream + command 1)", med((r) => r.phases.requests[1] - r.phases.requests[0])],
    ["request 2 -> request 3 (stream + patch)", med((r) => r.phases.requests[2] - r.phases.requests[1])],
    ["request 3 -> turn.completed on stdout", med((r) => r.phases.turnCompleted - r.phases.requests[2])],
    ["turn.completed -> process exit", med((r) => r.wall - r.phases.turnCompleted)],
    ["  command, item.started -> item.completed", med((r) => r.phases.commandMs[0])],
    ["  patch, item.started -> item.completed", med((r) => r.phases.commandMs[1])],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log("\nWhere the time goes (medians, ms; request times are the server's, 1 ms resolution):");
  for (const [label, v] of rows) console.log(`  ${label.padEnd(width)}  ${v === undefined ? "n/a" : v.toFixed(0).padStart(5)}`);
}

async function main() {
  const { runs, realHome, otel } = parseArgs(process.argv.slice(2));
  requireBuilt(CLI, SERVER);
  const m = await import(SERVER);
  const timePath = gnuTimePath();

  console.log(`exec, 3 model requests: ${runs} runs after ${WARMUP} warm-up run, Node ${process.version}`);
  console.log("Script: exec_command `echo hello > a.txt && cat a.txt` -> apply_patch (freeform) -> message, as the reference's.");
  console.log(`HOME: ${realHome ? "the real one (login-shell profile is sourced by `bash -lc`)" : "an empty temporary directory (use --real-home to keep yours)"}`);

  const collector = otel ? await startCollector() : null;
  if (collector) console.log(`OpenTelemetry: exported to a local OTLP/HTTP collector (${collector.received()} requests so far)`);
  for (let i = 0; i < WARMUP; i++) await runOnce(m, timePath, realHome, collector?.endpoint);
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await runOnce(m, timePath, realHome, collector?.endpoint));
  if (collector) {
    console.log(`OpenTelemetry: the collector received ${collector.received()} export requests`);
    collector.close();
  }

  const failed = results.filter((r) => r.problems.length > 0);
  failed.forEach((r, i) => console.log(`FAILED run ${i + 1}: ${r.problems.join("; ")}`));
  const ok = results.filter((r) => r.problems.length === 0);
  if (ok.length === 0) {
    console.log("No successful run; nothing to report.");
    process.exitCode = 1;
    return;
  }
  const wall = median(ok.map((r) => r.wall));
  const rssValues = ok.map((r) => r.rss).filter((v) => v !== undefined);
  const rss = rssValues.length ? median(rssValues) : undefined;
  const minWall = Math.min(...ok.map((r) => r.wall));
  const maxWall = Math.max(...ok.map((r) => r.wall));

  const rows = [
    ["", "median wall", "peak RSS"],
    [`codex-ts (${ok.length}/${results.length} runs ok)`, `${wall.toFixed(0)} ms`, rss === undefined ? "n/a" : `${rss.toFixed(0)} MiB`],
    ["target", `<= ${TARGET.ms} ms`, `<= ${TARGET.mib} MiB`],
    ...REFERENCE.map(([name, ms, mib]) => [`${name}`, `${ms.toLocaleString("en-US")} ms`, `${mib} MiB`]),
  ];
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
  console.log("");
  for (const row of rows) console.log(row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join("   "));
  console.log(`(codex-ts wall range ${minWall.toFixed(0)}-${maxWall.toFixed(0)} ms; reference figures are medians of 5 under /usr/bin/time -v on this machine)`);
  if (rss === undefined) console.log("Peak RSS unavailable: GNU time (/usr/bin/time, Debian package `time`) is not installed.");
  const verdict = (v, limit) => (v === undefined ? "n/a" : v <= limit ? "within target" : "over target");
  console.log(`wall: ${verdict(wall, TARGET.ms)}; RSS: ${verdict(rss, TARGET.mib)}`);
  printBreakdown(ok);
  if (failed.length > 0) process.exitCode = 1;
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
