#!/usr/bin/env node
// What a ChatGPT login costs a run: one-turn `codex-ts exec` runs against the scripted model
// server, with an API key, with a fresh ChatGPT login (read auth.json, no refresh), and with a
// login whose token is about to expire (a refresh under the lock file, written back, first).
// The issuer is the one the tests use, in this process. Prints median and p90 wall times per
// mode; nothing is asserted. Usage: node bench/chatgpt-auth.mjs [--runs N] (default 9)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, parseRuns, percentile } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/src/cli/main.js");
requireBuilt(CLI);
const models = await import(join(ROOT, "dist/test/support/model-server.js"));
const { startIssuer } = await import(join(ROOT, "dist/test/support/issuer.js"));

const runs = parseRuns(process.argv, 9);
const issuer = await startIssuer();
const server = await models.startModelServer([]);

function run(mode) {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-bench-auth-"));
  const work = join(root, "work");
  const home = join(root, "home");
  mkdirSync(work);
  mkdirSync(home);
  const env = { ...process.env, CODEX_HOME: home, NO_COLOR: "1", CODEX_REFRESH_TOKEN_URL_OVERRIDE: `${issuer.url}/oauth/token` };
  delete env.OPENAI_API_KEY;
  delete env.CODEX_API_KEY;
  const args = [CLI, "exec", "--skip-git-repo-check", "--ephemeral"];
  if (mode === "api key") {
    env.OPENAI_API_KEY = "sk-bench";
    args.push("-c", `openai_base_url="${server.url}"`);
  } else {
    const tokens = issuer.issue(mode === "chatgpt + refresh" ? 30 : 3600);
    const auth = { auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { ...tokens, account_id: "acct-test-123" }, last_refresh: new Date().toISOString() };
    writeFileSync(join(home, "auth.json"), JSON.stringify(auth), { mode: 0o600 });
    args.push("-c", `chatgpt_base_url="${server.chatgptBaseUrl}"`);
  }
  args.push("hi");
  server.push(models.turn(models.text("ok")));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: work, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => {
      const ms = performance.now() - started;
      rmSync(root, { recursive: true, force: true });
      if (code !== 0) reject(new Error(`${mode}: exit ${code}\n${stderr}`));
      else resolve(ms);
    });
  });
}

const modes = ["api key", "chatgpt", "chatgpt + refresh"];
const times = Object.fromEntries(modes.map((m) => [m, []]));
for (const mode of modes) await run(mode); // Warm-up.
for (let i = 0; i < runs; i++) for (const mode of modes) times[mode].push(await run(mode));
console.log(`exec, one turn, ${runs} runs each (interleaved)`);
for (const mode of modes) {
  console.log(`  ${mode.padEnd(18)} median ${median(times[mode]).toFixed(0)} ms   p90 ${percentile(times[mode], 90).toFixed(0)} ms`);
}
console.log(`  refreshes seen by the issuer: ${issuer.refreshCalls().length} (expected ${runs + 1})`);
await server.close();
await issuer.close();
