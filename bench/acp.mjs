#!/usr/bin/env node
// `codex-ts acp` as an editor drives it, over stdio against the scripted model server: the time
// from spawn to the `initialize` answer, `session/new`, one prompt (a one-message answer, to its
// `end_turn`), the resident memory after it, and then, in a fresh process, reopening the recorded
// session (spawn to the `session/load` answer, the conversation replayed before it). The
// reference has no ACP server of its own (editors reach it through a separate adapter), so the
// same steps run on its IDE protocol in the same rounds: `codex app-server` with initialize,
// thread/start, turn/start → turn/completed, and thread/resume in a fresh process. codex-ts runs
// as the bundle without and with NODE_EXTRA_CA_CERTS; the reference without. Each run has a fresh
// CODEX_HOME; the programs alternate. Prints medians and the load average; asserts nothing.
// Usage: node bench/acp.mjs [--runs N]
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, parseRuns } from "./stats.mjs";
import { loadAverage } from "./machine.mjs";
import { requireBuilt } from "./built.mjs";
import { StdioRpc, rssMib } from "./stdio-rpc.mjs";
import { BUNDLE_BIN, benchNodeVersion, childEnv, codexTsVariants, referenceBinary, referenceConfig } from "./subjects.mjs";

const SERVER = fileURLToPath(new URL("../dist/test/support/model-server.js", import.meta.url));

/** The steps of one protocol: start a session and run a turn; reopen it in a new process. */
const PROTOCOLS = {
  acp: {
    args: ["acp"],
    rpc: { jsonrpc: true, answer: () => ({ outcome: { outcome: "cancelled" } }) },
    async initialize(client) {
      await client.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    },
    async start(client, cwd) {
      return (await client.request("session/new", { cwd, mcpServers: [] })).result.sessionId;
    },
    async turn(client, id) {
      const { result } = await client.request("session/prompt", { sessionId: id, prompt: [{ type: "text", text: "hi" }] });
      if (result?.stopReason !== "end_turn") throw new Error(`the prompt stopped with ${JSON.stringify(result)}`);
    },
    async reopen(client, id, cwd) {
      const reply = await client.request("session/load", { sessionId: id, cwd, mcpServers: [] });
      if (reply.error) throw new Error(`session/load: ${reply.error.message}`);
    },
  },
  appServer: {
    args: ["app-server"],
    rpc: {},
    async initialize(client) {
      await client.request("initialize", { clientInfo: { name: "bench", title: null, version: "1" }, capabilities: { experimentalApi: false } });
      client.notify("initialized");
    },
    async start(client, cwd) {
      return (await client.request("thread/start", { cwd, approvalPolicy: "never", sandbox: "read-only" })).result.thread.id;
    },
    async turn(client, id) {
      const done = client.wait("turn/completed");
      await client.request("turn/start", { threadId: id, input: [{ type: "text", text: "hi", text_elements: [] }] });
      await done;
    },
    async reopen(client, id, cwd) {
      const reply = await client.request("thread/resume", { threadId: id, cwd });
      if (reply.error) throw new Error(`thread/resume: ${reply.error.message}`);
    },
  },
};

function launch(subject, cwd, env) {
  const child = spawn(subject.argv[0], [...subject.argv.slice(1), ...subject.protocol.args], { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
  return new StdioRpc(child, subject.protocol.rpc);
}

async function runOnce(subject, modelUrl) {
  const root = mkdtempSync(join(tmpdir(), "bench-acp-"));
  const home = join(root, "home");
  const work = join(root, "work");
  mkdirSync(home);
  mkdirSync(join(work, ".git"), { recursive: true });
  writeFileSync(join(home, "config.toml"), referenceConfig(modelUrl, [`[projects."${work}"]`, 'trust_level = "trusted"']));
  const env = childEnv({ CODEX_HOME: home, OPENAI_API_KEY: "x", ...subject.env });
  const p = subject.protocol;

  const t0 = performance.now();
  const first = launch(subject, work, env);
  await p.initialize(first);
  const init = performance.now() - t0;
  const t1 = performance.now();
  const id = await p.start(first, work);
  const start = performance.now() - t1;
  const t2 = performance.now();
  await p.turn(first, id);
  const turn = performance.now() - t2;
  const rss = rssMib(first.child.pid);
  await first.close();

  const t3 = performance.now();
  const second = launch(subject, work, env);
  await p.initialize(second);
  const t4 = performance.now();
  await p.reopen(second, id, work);
  const reload = performance.now() - t4;
  const reopen = performance.now() - t3;
  await second.close();
  rmSync(root, { recursive: true, force: true });
  return { init, start, turn, rss, reopen, reload };
}

async function main() {
  const runs = parseRuns(process.argv.slice(2), 5);
  requireBuilt(BUNDLE_BIN, SERVER);
  const { startModelServer, turn, text } = await import(SERVER);
  const subjects = codexTsVariants({ tsc: false }).map((v) => ({ ...v, label: v.label.replace("codex-ts", "codex-ts acp"), protocol: PROTOCOLS.acp }));
  const reference = referenceBinary();
  if (reference) subjects.push({ label: "codex 0.169 app-server", argv: [reference], env: {}, protocol: PROTOCOLS.appServer });
  const results = new Map(subjects.map((s) => [s.label, []]));
  const load = [loadAverage()];
  for (let i = 0; i < runs + 1; i++) {
    for (const subject of subjects) {
      const server = await startModelServer(Array.from({ length: 2 }, () => turn(text("hello"))));
      const r = await runOnce(subject, server.url);
      await server.close();
      if (i > 0) results.get(subject.label).push(r); // the first round warms the disk cache
    }
    load.push(loadAverage());
  }
  console.log(`ACP over stdio (the reference: its app-server, the same steps), ${runs} runs each, alternating; node ${benchNodeVersion()}; load average ${load.join(" → ")}`);
  console.log("server                                   initialize  new session   turn   RSS after turn   reopen in a new process (of which the load)");
  for (const [label, rs] of results) {
    const m = (k) => median(rs.map((r) => r[k]));
    console.log(`${label.padEnd(40)} ${m("init").toFixed(0).padStart(7)} ms ${m("start").toFixed(0).padStart(8)} ms ${m("turn").toFixed(0).padStart(4)} ms ${m("rss").toFixed(0).padStart(10)} MiB ${m("reopen").toFixed(0).padStart(14)} ms (${m("reload").toFixed(0)} ms)`);
  }
  if (!reference) console.log("(the reference was not found: set CODEX_REF_BIN to compare)");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
