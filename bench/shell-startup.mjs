#!/usr/bin/env node
// What slow shell start-up files cost a session: a scratch HOME whose ~/.bashrc sleeps 150 ms
// (what pyenv, nvm or conda set-ups take) and exports a variable, ~/.bash_profile sourcing it,
// and a scripted model that runs 30 one-line commands one after another, then answers. Prints
// the median wall time of the whole `exec` run for codex-ts with the shell snapshot on, with it
// off (every command a login shell), and for the reference CLI against the same script when it
// is installed. Every run checks that each command saw the variable. No timing is asserted.
// Usage: node bench/shell-startup.mjs [--runs N] [--steps N] [--scratch DIR]
//   --scratch: where the HOME, CODEX_HOMEs and workspace go (default: the system temp folder;
//   keep it on a real disk, not tmpfs, as a user's home is).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { requireBuilt } from "./built.mjs";
import { fsType } from "./machine.mjs";
import { median, parseRuns } from "./stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
const SERVER_CLI = join(ROOT, "dist/test/support/model-server-cli.js");
const SERVER = join(ROOT, "dist/test/support/model-server.js");
const REFERENCE = "/work/ref/node_modules/.bin/codex";
const RC_SLEEP_S = 0.15;
const MARK = "bench-shell-startup-ok";

function option(argv, name, fallback) {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : argv[i + 1];
}

function parseSteps(argv) {
  const steps = Number(option(argv, "--steps", "30"));
  if (!Number.isInteger(steps) || steps < 1) {
    console.error("--steps needs a positive integer");
    process.exit(2);
  }
  return steps;
}

function makeHome(root) {
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, ".bashrc"), `sleep ${RC_SLEEP_S}\nexport BENCH_RC_VAR=${MARK}\n`);
  writeFileSync(join(home, ".bash_profile"), '[ -r "$HOME/.bashrc" ] && . "$HOME/.bashrc"\n');
  return home;
}

/** The scripted session: `steps` exec_command calls, each echoing the start-up files' variable. */
function writeTurns(m, file, steps) {
  const turns = [];
  for (let i = 0; i < steps; i++) turns.push(m.turn(m.fnCall("exec_command", { cmd: `echo step-${i} $BENCH_RC_VAR` }, `call_${i}`)));
  turns.push(m.turn(m.text("All steps ran.")));
  writeFileSync(file, JSON.stringify(turns));
}

/** Starts model-server-cli on `turnsFile`; resolves with its URL and a stop() giving its report. */
function startServer(turnsFile) {
  return new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, [SERVER_CLI, turnsFile], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n")[0];
      if (!out.includes("\n")) return;
      resolveStart({
        url: line.trim(),
        stop: () =>
          new Promise((done) => {
            child.on("close", (code) => done({ code, report: err.trim() }));
            child.kill("SIGTERM");
          }),
      });
    });
    child.on("close", (code) => {
      if (!out.includes("\n")) reject(new Error(`model server exited (${code}): ${err}`));
    });
  });
}

function run(cmd, args, opts) {
  return new Promise((done, reject) => {
    const start = performance.now();
    const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => done({ code, stdout, stderr, wall: performance.now() - start }));
  });
}

/** One run of one variant; resolves with its wall time and whatever went wrong. */
async function runOnce(variant, ctx) {
  const root = mkdtempSync(join(ctx.scratch, `run-${variant.key}-`));
  const work = join(root, "work");
  const codexHome = join(root, "codex-home");
  mkdirSync(work);
  mkdirSync(codexHome);
  const server = await startServer(ctx.turnsFile);
  const env = { ...process.env, HOME: ctx.home, SHELL: "/bin/bash", CODEX_HOME: codexHome, OPENAI_API_KEY: "sk-bench", NO_COLOR: "1" };
  delete env.CODEX_API_KEY;
  delete env.OPENAI_BASE_URL;
  delete env.BENCH_RC_VAR;
  const [cmd, args] = variant.command(server.url, codexHome);
  const r = await run(cmd, args, { cwd: work, env });
  const { code: serverCode, report } = await server.stop();
  rmSync(root, { recursive: true, force: true });

  const problems = [];
  if (r.code !== 0) problems.push(`exit code ${r.code}: ${r.stderr.trim().split("\n").slice(-3).join(" | ")}`);
  const expected = ctx.steps + 1;
  const requests = Number(/(\d+) model requests/.exec(report)?.[1] ?? NaN);
  if (requests !== expected) problems.push(`${requests} model requests, expected ${expected}`);
  if (serverCode !== 0) problems.push(`model server: ${report}`);
  const seen = (`${r.stdout}\n${r.stderr}`.match(new RegExp(`step-\\d+ ${MARK}`, "g")) ?? []).length;
  if (seen < ctx.steps) problems.push(`${seen} of ${ctx.steps} commands saw the start-up files' variable`);
  return { wall: r.wall, problems };
}

const codexTs = (key, label, extra) => ({
  key,
  label,
  command: (url) => [process.execPath, [CLI, "exec", "--skip-git-repo-check", "-s", "danger-full-access", "-m", "gpt-5.5", "-c", `openai_base_url="${url}"`, ...extra, "Run the steps."]],
});

const reference = {
  key: "ref",
  label: "reference (codex 0.169)",
  command: (url, codexHome) => {
    writeFileSync(
      join(codexHome, "config.toml"),
      [
        'model = "gpt-5.1-codex"',
        'model_provider = "bench"',
        "[analytics]",
        "enabled = false",
        "[features]",
        "plugins = false",
        "[model_providers.bench]",
        'name = "bench"',
        `base_url = "${url}"`,
        'wire_api = "responses"',
        'env_key = "OPENAI_API_KEY"',
        "",
      ].join("\n"),
    );
    return [REFERENCE, ["exec", "--skip-git-repo-check", "-s", "danger-full-access", "Run the steps."]];
  },
};

async function main() {
  const argv = process.argv.slice(2);
  const runs = parseRuns(argv, 3);
  const steps = parseSteps(argv);
  const scratchBase = resolve(option(argv, "--scratch", tmpdir()));
  requireBuilt(CLI, SERVER_CLI, SERVER);
  mkdirSync(scratchBase, { recursive: true });
  const scratch = mkdtempSync(join(scratchBase, "codex-ts-shell-bench-"));
  const m = await import(SERVER);
  const turnsFile = join(scratch, "turns.json");
  writeTurns(m, turnsFile, steps);
  const ctx = { scratch, home: makeHome(scratch), turnsFile, steps };

  const variants = [codexTs("on", "codex-ts, shell_snapshot on", []), codexTs("off", "codex-ts, shell_snapshot off", ["--disable", "shell_snapshot"])];
  const haveReference = existsSync(REFERENCE);
  if (haveReference) variants.push(reference);

  console.log(`Shell start-up: ${steps} one-line exec_command steps per session, ${runs} runs per variant after 1 warm-up, Node ${process.version}`);
  console.log(`HOME: ${ctx.home} (${fsType(scratch)}); ~/.bashrc sleeps ${RC_SLEEP_S * 1000} ms and exports a variable, ~/.bash_profile sources it`);
  if (!haveReference) console.log(`Reference: ${REFERENCE} is not installed; its column is left out.`);

  const results = new Map(variants.map((v) => [v.key, []]));
  for (const v of variants) await runOnce(v, ctx);
  // Interleaved, so load on the machine affects every variant alike.
  for (let i = 0; i < runs; i++) for (const v of variants) results.get(v.key).push(await runOnce(v, ctx));
  rmSync(scratch, { recursive: true, force: true });

  const rows = [];
  let failed = false;
  for (const v of variants) {
    const all = results.get(v.key);
    all.filter((r) => r.problems.length > 0).forEach((r) => console.log(`FAILED ${v.label}: ${r.problems.join("; ")}`));
    const ok = all.filter((r) => r.problems.length === 0).map((r) => r.wall);
    if (ok.length < all.length) failed = true;
    rows.push([v.label, ok.length ? median(ok) : undefined, ok.length ? Math.min(...ok) : undefined, ok.length ? Math.max(...ok) : undefined, ok.length]);
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  const fmt = (v) => (v === undefined ? "n/a" : `${(v / 1000).toFixed(2)} s`).padStart(9);
  console.log(`\n${"variant".padEnd(width)}  ${"median".padStart(9)}  ${"min".padStart(9)}  ${"max".padStart(9)}  per step (median)`);
  for (const [label, med, min, max, n] of rows) {
    console.log(`${label.padEnd(width)}  ${fmt(med)}  ${fmt(min)}  ${fmt(max)}  ${med === undefined ? "n/a" : `${(med / steps).toFixed(0)} ms`}${n < runs ? `  (${n}/${runs} runs ok)` : ""}`);
  }
  const on = rows[0][1];
  const ref = rows.find((r) => r[0].startsWith("reference"))?.[1];
  if (on !== undefined && ref !== undefined) console.log(`\ncodex-ts (snapshot on) / reference: ${(on / ref).toFixed(2)}x`);
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
