#!/usr/bin/env node
// The interactive UI's three figures (issue 13). Nothing here asserts; it prints.
//  1. start to a ready composer: the real CLI in a pseudo-terminal until the composer is drawn
//     (median and p90 over --runs, default 10; target <= 200 ms), then a key typed at that
//     moment until the emulated screen shows it; the main thread's CPU time and its wait for a
//     CPU until the composer was drawn (from /proc, so the machine's load can be told apart);
//     `codex-ts --version` in the same pseudo-terminal (Node's own start); and the reference
//     (/work/ref/node_modules/.bin/codex --no-daemon, when installed) the same way, in turns
//     with codex-ts, on the same scripted model server (it took 340 ms here);
//  2. keystroke to paint with 1,000 cells of history: the app in-process on a recording screen
//     (handleInput + the frame it writes), p50/p95 over 500 keystrokes (target p95 <= 16 ms),
//     and the same with 10 cells, to show the cost does not grow with the conversation;
//  3. memory over a 200-turn scripted session: the CLI's resident set size every 50 turns
//     (target <= 120 MiB and flat);
//     then that session resumed in the pseudo-terminal: keystroke to echo on the emulated screen;
//  4. the measurement behind the renderer choice (docs/tui.md): pi-tui's full-screen TUI class
//     holding the same 1,000 cells as components, per keystroke, and what a width change costs it.
// Usage: node bench/tui.mjs [--runs N] [--turns N] [--scratch DIR] [--startup-only]
//   --scratch: where the reference's CODEX_HOME goes (default: the system temporary folder)
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseRuns, percentile, median } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";
import { fsType, loadAverage } from "./machine.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
requireBuilt(join(DIST, "src/tui/app.js"), join(DIST, "test/support/pty.js"));

const { startModelServer, turn, text } = await import(join(DIST, "test/support/model-server.js"));
const { makeWorkspace, tuiArgs } = await import(join(DIST, "test/support/cli.js"));
const { PtySession, KEY, sleep } = await import(join(DIST, "test/support/pty.js"));
const { App } = await import(join(DIST, "src/tui/app.js"));
const { InlineRenderer } = await import(join(DIST, "src/tui/inline-renderer.js"));
const { createTheme } = await import(join(DIST, "src/tui/parts/theme.js"));
const { markdownTheme } = await import(join(DIST, "src/tui/cells.js"));
const { loadMarkdown } = await import(join(DIST, "src/tui/pi-tui.js"));

const READY = "Enter to send";
const argv = process.argv.slice(2);
const runs = parseRuns(argv, 10);
const turnsArg = argv.indexOf("--turns");
const turns = turnsArg >= 0 ? Number(argv[turnsArg + 1]) : 200;
const scratchAt = argv.indexOf("--scratch");
const scratchArg = resolve(scratchAt >= 0 ? argv[scratchAt + 1] : tmpdir());
const startupOnly = argv.includes("--startup-only");
const REFERENCE = "/work/ref/node_modules/.bin/codex";

/** Resolves once the program has written `text` (checked every millisecond, not every poll of the screen). */
async function written(ui, text, timeoutMs = 10_000) {
  const deadline = performance.now() + timeoutMs;
  while (!ui.output.includes(text)) {
    if (performance.now() > deadline) throw new Error(`no ${text} within ${timeoutMs} ms`);
    await sleep(1);
  }
}

/** The main thread's time on a CPU and waiting for one, in ms, from /proc (null elsewhere). */
function schedstat(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return { run: run / 1e6, wait: wait / 1e6 };
  } catch {
    return null;
  }
}

/** Resolves once the emulated screen shows `text`; the time from `t0`. */
async function onScreen(ui, text, t0, timeoutMs = 10_000) {
  for (;;) {
    if ((await ui.screen()).join("\n").includes(text)) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs) throw new Error(`no ${text} on screen within ${timeoutMs} ms`);
    await sleep(1);
  }
}

/**
 * One start of a program in the pseudo-terminal: from spawning it until `ready` is written
 * (the composer drawn), then a key typed at that moment until the screen shows it (the
 * composer really takes input). `echo` is what the screen shows once the key is in.
 */
async function startOnce(args, opts, ready, echo) {
  const t0 = performance.now();
  const ui = new PtySession(args, { cols: 100, rows: 30, ...opts });
  await written(ui, ready);
  const paint = performance.now() - t0;
  const cpu = schedstat(ui.pid);
  ui.write("z");
  ui.write("q");
  const typed = await onScreen(ui, echo, t0);
  return { ui, paint, typed, cpu };
}

/** The reference's config for the scripted server, with the workspace trusted (no question). */
function referenceHome(root, serverUrl, work) {
  const home = mkdtempSync(join(root, "ref-home-"));
  const config = ['model = "gpt-5.1-codex"', 'model_provider = "bench"', "[analytics]", "enabled = false", "[features]", "plugins = false"];
  config.push("[model_providers.bench]", 'name = "bench"', `base_url = "${serverUrl}/v1"`, 'wire_api = "responses"', 'env_key = "OPENAI_API_KEY"');
  config.push(`[projects.${JSON.stringify(work)}]`, 'trust_level = "trusted"', "");
  writeFileSync(join(home, "config.toml"), config.join("\n"));
  return home;
}

async function startup() {
  const server = await startModelServer([]);
  const root = mkdtempSync(join(scratchArg, "codex-ts-tui-bench-"));
  const haveReference = existsSync(REFERENCE);
  const ours = { paint: [], typed: [], run: [], wait: [], floor: [] };
  const ref = { paint: [], typed: [] };
  const loads = [loadAverage()];
  // The first round warms the disk cache and is left out; the programs take turns after it.
  for (let i = 0; i < runs + 1; i++) {
    const ws = makeWorkspace();
    const r = await startOnce(tuiArgs(server.url), { cwd: ws.dir, home: ws.home }, READY, "zq");
    r.ui.write(KEY.ctrlC); // clears the composer
    r.ui.write(KEY.ctrlD);
    await r.ui.exit();
    // Node's own start in the same pseudo-terminal, the floor of any Node program.
    const n0 = performance.now();
    const bare = new PtySession(["--version"], { cwd: ws.dir, home: ws.home });
    await bare.exit();
    if (i > 0) {
      ours.paint.push(r.paint);
      ours.typed.push(r.typed);
      if (r.cpu) {
        ours.run.push(r.cpu.run);
        ours.wait.push(r.cpu.wait);
      }
      ours.floor.push(performance.now() - n0);
    }
    if (haveReference) {
      const home = referenceHome(root, server.url, ws.dir);
      const env = { HOME: home };
      const t = await startOnce(["--no-daemon"], { cwd: ws.dir, home, env, command: REFERENCE }, "Ask Codex to do anything", "› zq");
      t.ui.kill("SIGTERM");
      await t.ui.exit();
      if (i > 0) {
        ref.paint.push(t.paint);
        ref.typed.push(t.typed);
      }
    }
  }
  loads.push(loadAverage());
  await server.close();
  rmSync(root, { recursive: true, force: true });
  return { ours, ref: haveReference ? ref : null, loads, fs: fsType(tmpdir()) };
}

function keystrokes(cells) {
  const theme = createTheme(2);
  let frames = 0;
  const renderer = new InlineRenderer({ write: () => void frames++, columns: 120, rows: 40 });
  const host = {
    submit: () => "1",
    gitDiff: async () => [],
    newThread: async () => {},
    resumePicker: async () => {},
    forkThread: async () => {},
    externalEdit: async (t) => t,
    notify: () => {},
    quit: () => {},
  };
  const app = new App(host, { theme, style: { theme, markdown: markdownTheme(theme), diff: (p) => [p] }, renderer, rows: () => 40, version: "0", hideReasoning: false, mcpServers: [] });
  const ev = (msg) => app.onEvent({ id: "1", msg });
  ev({ type: "session_configured", session_id: "s", model: "gpt-5.5", model_provider_id: "openai", approval_policy: "on-request", sandbox_policy: { type: "read-only" }, cwd: ROOT, reasoning_effort: null, history_log_id: 0, history_entry_count: 0, rollout_path: null });
  for (let i = 0; i < cells / 2; i++) {
    ev({ type: "user_message", message: `question ${i}: what does module ${i} do?`, images: null });
    ev({ type: "agent_message", message: `Module ${i} **parses** input.\n\n- reads \`file${i}.ts\`\n- returns a tree\n\n\`\`\`ts\nconst x${i} = parse(input);\n\`\`\`` });
  }
  app.renderNow();
  const samples = [];
  const keys = "the quick brown fox jumps over the lazy dog ".repeat(12).slice(0, 500);
  for (const ch of keys) {
    const t0 = performance.now();
    app.handleInput(ch);
    app.renderNow();
    samples.push(performance.now() - t0);
  }
  return samples;
}

/** pi-tui's TUI class with `cells` history components and an Editor, on a counting terminal. */
async function piTuiClass(cells) {
  const { TUI, Text, Editor } = await import("@mariozechner/pi-tui");
  const term = {
    columns: 120, rows: 40, bytes: 0, clears: 0,
    start() {}, stop() {}, drainInput: async () => {}, moveBy() {}, hideCursor() {}, showCursor() {},
    clearLine() {}, clearFromCursor() {}, clearScreen() {}, setTitle() {}, setProgress() {},
    get kittyProtocolActive() { return false; },
    write(d) { this.bytes += d.length; if (d.includes("\x1b[3J")) this.clears++; },
  };
  const tui = new TUI(term);
  for (let i = 0; i < cells; i++) tui.addChild(new Text(i % 2 ? `Module ${i} parses input and returns a tree.` : `> question ${i}`, 1, 0));
  const id = (x) => x;
  const editor = new Editor(tui, { borderColor: id, selectList: { selectedPrefix: id, selectedText: id, description: id, scrollInfo: id, noMatch: id } });
  tui.addChild(editor);
  tui.setFocus(editor);
  tui.doRender(); // a private method at the type level; called directly to time one frame
  const samples = [];
  for (const ch of "the quick brown fox jumps over the lazy dog ".repeat(12).slice(0, 500)) {
    const t0 = performance.now();
    editor.handleInput(ch);
    tui.doRender();
    samples.push(performance.now() - t0);
  }
  term.bytes = 0;
  term.columns = 100;
  tui.doRender();
  return { samples, resizeBytes: term.bytes, scrollbackCleared: term.clears > 0 };
}

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function memory() {
  const script = [];
  for (let i = 0; i < turns; i++) script.push(turn(text(`Answer ${i}: here is a paragraph about the code.\n\n- point one\n- point two\n\n\`\`\`js\nconsole.log(${i});\n\`\`\``)));
  const server = await startModelServer(script);
  const ws = makeWorkspace();
  const ui = new PtySession(tuiArgs(server.url), { cwd: ws.dir, home: ws.home, cols: 100, rows: 30 });
  await ui.waitFor(READY, { timeoutMs: 10_000 });
  const readings = [[0, rssMiB(ui.pid)]];
  for (let i = 0; i < turns; i++) {
    await ui.type(`question ${i}`, 0);
    ui.write(KEY.enter);
    await ui.waitFor(`Answer ${i}:`, { timeoutMs: 10_000 });
    await ui.waitFor(READY, { timeoutMs: 10_000 });
    if ((i + 1) % 50 === 0) readings.push([i + 1, rssMiB(ui.pid)]);
  }
  await sleep(100);
  ui.write(KEY.ctrlD);
  await ui.exit();
  await server.close();
  return { readings, ws };
}

/**
 * Keystroke to echo through the real pseudo-terminal, on the session just recorded, resumed
 * with its whole conversation redrawn: from writing a key to the emulator showing it.
 */
async function echoLatency(ws) {
  const server = await startModelServer([]);
  const ui = new PtySession([...tuiArgs(server.url), "resume", "--last"], { cwd: ws.dir, home: ws.home, cols: 100, rows: 30 });
  await ui.waitFor(`Answer ${turns - 1}:`, { timeoutMs: 30_000 });
  await ui.waitFor(READY);
  const samples = [];
  let typed = "";
  for (let i = 0; i < 100; i++) {
    const ch = "abcdefghij"[i % 10];
    typed += ch;
    const t0 = performance.now();
    ui.write(ch);
    for (;;) {
      const screen = (await ui.screen()).join("\n");
      if (screen.includes(typed.slice(-60))) break;
      await new Promise((r) => setTimeout(r, 0));
    }
    samples.push(performance.now() - t0);
    if (typed.length >= 60) {
      ui.write("\x15"); // Ctrl+U: clear the line, keep the composer one row
      typed = "";
      await sleep(20);
    }
  }
  ui.write(KEY.ctrlC);
  ui.write(KEY.ctrlD);
  await ui.exit();
  await server.close();
  return samples;
}

const fmt = (n) => n.toFixed(1);
const mid = (xs) => `median ${fmt(median(xs))} ms, p90 ${fmt(percentile(xs, 90))} ms`;
const s = await startup();
console.log(`start-up, ${runs} runs after a warm-up, Node ${process.version}, workspaces on ${s.fs}, load average ${s.loads.join(" before, ")} after:`);
console.log(`  codex-ts: composer drawn ${mid(s.ours.paint)} (target <= 200 ms); a key typed then shown ${mid(s.ours.typed)}`);
if (s.ours.run.length) console.log(`  codex-ts main thread until drawn: ${fmt(median(s.ours.run))} ms on a CPU, ${fmt(median(s.ours.wait))} ms waiting for one (medians)`);
console.log(`  codex-ts --version in the same pseudo-terminal: ${mid(s.ours.floor)}`);
if (s.ref) console.log(`  reference (${REFERENCE} --no-daemon): composer drawn ${mid(s.ref.paint)}; a key typed then shown ${mid(s.ref.typed)}`);
else console.log(`  reference: ${REFERENCE} is not installed; left out`);
if (startupOnly) process.exit(0);
await loadMarkdown(); // as the UI does before a thread starts
keystrokes(1000); // warm the JIT
for (const cells of [10, 1000]) {
  const k = keystrokes(cells);
  console.log(`keystroke to paint with ${cells} cells of history: p50 ${k.length ? percentile(k, 50).toFixed(3) : "-"} ms, p95 ${percentile(k, 95).toFixed(3)} ms, max ${fmt(Math.max(...k))} ms (target p95 <= 16 ms)`);
}
for (const cells of [10, 1000]) {
  const pi = await piTuiClass(cells);
  console.log(
    `pi-tui TUI class, keystroke with ${cells} cells: p50 ${percentile(pi.samples, 50).toFixed(3)} ms, p95 ${percentile(pi.samples, 95).toFixed(3)} ms; a width change rewrites ${(pi.resizeBytes / 1024).toFixed(0)} KiB${pi.scrollbackCleared ? " and clears the scrollback (CSI 3J)" : ""}`,
  );
}
const { readings, ws } = await memory();
console.log(`memory over a ${turns}-turn session (RSS, MiB): ${readings.map(([t, m]) => `turn ${t}: ${fmt(m)}`).join(", ")} (target <= 120 MiB and flat)`);
const echo = await echoLatency(ws);
console.log(`keystroke to echo through the pseudo-terminal, that session resumed (${2 * turns} cells redrawn): p50 ${fmt(percentile(echo, 50))} ms, p95 ${fmt(percentile(echo, 95))} ms`);
