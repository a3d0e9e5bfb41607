#!/usr/bin/env node
// The interactive UI's three figures (issue 13). Nothing here asserts; it prints.
//  1. start to a ready composer: the CLI in a pseudo-terminal until the composer is drawn
//     (median and p90 over --runs, default 10), then a key typed at that moment until the
//     emulated screen shows it; the CPU time (all threads) and the main thread's wait for a CPU
//     until the composer was drawn (from /proc, so the machine's load can be told apart); `codex-ts
//     --version` in the same pseudo-terminal (Node's own start). In turns on the same scripted
//     model server: the bundle (as installed) without and with NODE_EXTRA_CA_CERTS, the tsc build
//     (before the bundle), and the reference's native binary (--no-daemon) when installed
//     (bench/subjects.mjs); target: codex-ts within 0.6x the reference;
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
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseRuns, percentile, median } from "./stats.mjs";
import { requireBuilt } from "./built.mjs";
import { fsType, loadAverage } from "./machine.mjs";
import { BENCH_NODE, benchNodeVersion, BUNDLE_BIN, codexTsVariants, referenceBinary, referenceConfig, reportRow } from "./subjects.mjs";
import { printTable } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
requireBuilt(BUNDLE_BIN, join(DIST, "src/tui/app.js"), join(DIST, "test/support/pty.js"));

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
const TUI_TARGET = 0.6;

/** Resolves once the program has written `text` (checked every millisecond, not every poll of the screen). */
async function written(ui, text, timeoutMs = 10_000) {
  const deadline = performance.now() + timeoutMs;
  while (!ui.output.includes(text)) {
    if (performance.now() > deadline) throw new Error(`no ${text} within ${timeoutMs} ms`);
    await sleep(1);
  }
}

/**
 * The process's time on a CPU (all its threads: the reference runs several) and its main
 * thread's time waiting for one, in ms, from /proc (null elsewhere).
 */
function schedstat(pid) {
  try {
    let run = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) run += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    const wait = Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[1]);
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
  writeFileSync(join(home, "config.toml"), referenceConfig(`${serverUrl}/v1`, [`[projects.${JSON.stringify(work)}]`, 'trust_level = "trusted"']));
  return home;
}

/** What is started: codex-ts's variants (bench/subjects.mjs), then the reference's native binary. */
function startupSubjects(serverUrl, root) {
  const list = codexTsVariants().map((v) => ({
    key: v.key,
    label: v.label,
    start: (ws) => ({ args: [...v.argv.slice(1), ...tuiArgs(serverUrl)], opts: { cwd: ws.dir, home: ws.home, command: v.argv[0], env: { NODE_EXTRA_CA_CERTS: undefined, ...v.env } }, ready: READY, echo: "zq" }),
  }));
  const ref = referenceBinary();
  if (ref) {
    list.push({
      key: "ref",
      label: "reference (native)",
      start: (ws) => {
        const home = referenceHome(root, serverUrl, ws.dir);
        return { args: ["--no-daemon"], opts: { cwd: ws.dir, home, command: ref, env: { NODE_EXTRA_CA_CERTS: undefined, HOME: home } }, ready: "Ask Codex to do anything", echo: "› zq" };
      },
    });
  }
  return list;
}

async function startup() {
  const server = await startModelServer([]);
  const root = mkdtempSync(join(scratchArg, "codex-ts-tui-bench-"));
  const subjects = startupSubjects(server.url, root);
  const samples = new Map(subjects.map((s) => [s.key, { paint: [], typed: [], run: [], wait: [] }]));
  const floor = [];
  const loads = [loadAverage()];
  // The first round warms the disk cache and is left out; the programs take turns after it.
  for (let i = 0; i < runs + 1; i++) {
    const ws = makeWorkspace();
    for (const s of subjects) {
      const { args, opts, ready, echo } = s.start(ws);
      const r = await startOnce(args, opts, ready, echo);
      if (s.key === "ref") r.ui.kill("SIGTERM");
      else {
        r.ui.write(KEY.ctrlC); // clears the composer
        r.ui.write(KEY.ctrlD);
      }
      await r.ui.exit();
      if (i === 0) continue;
      const mine = samples.get(s.key);
      mine.paint.push(r.paint);
      mine.typed.push(r.typed);
      if (r.cpu) {
        mine.run.push(r.cpu.run);
        mine.wait.push(r.cpu.wait);
      }
    }
    // Node's own start in the same pseudo-terminal, the floor of any Node program.
    const n0 = performance.now();
    const bare = new PtySession([BUNDLE_BIN, "--version"], { cwd: ws.dir, home: ws.home, command: BENCH_NODE, env: { NODE_EXTRA_CA_CERTS: undefined } });
    await bare.exit();
    if (i > 0) floor.push(performance.now() - n0);
  }
  loads.push(loadAverage());
  await server.close();
  rmSync(root, { recursive: true, force: true });
  return { subjects, samples, floor, loads, fs: fsType(tmpdir()) };
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
console.log(`start-up to a ready composer, ${runs} runs after a warm-up, in turns, Node ${benchNodeVersion()}, workspaces on ${s.fs}, load average ${s.loads.join(" before, ")} after:`);
const refPaint = s.samples.get("ref")?.paint;
const startupTable = [["", "composer drawn (median)", "p90", "÷ reference", "key shown (median)", "CPU until drawn", "main thread waiting for a CPU"]];
for (const subject of s.subjects) {
  const m = s.samples.get(subject.key);
  startupTable.push([
    subject.label,
    `${fmt(median(m.paint))} ms`,
    `${fmt(percentile(m.paint, 90))} ms`,
    refPaint && subject.key !== "ref" ? `${(median(m.paint) / median(refPaint)).toFixed(2)}x` : "",
    `${fmt(median(m.typed))} ms`,
    m.run.length ? `${fmt(median(m.run))} ms` : "",
    m.wait.length ? `${fmt(median(m.wait))} ms` : "",
  ]);
}
printTable(startupTable);
console.log(`  codex-ts --version in the same pseudo-terminal (Node's own start): ${mid(s.floor)}`);
console.log("  the reference spends most of its time before the composer waiting, not on a CPU: compare CPU time only between codex-ts rows");
console.log(`  target: codex-ts within ${TUI_TARGET}x the reference's time to a drawn composer (the reference is its native binary, --no-daemon)`);
if (!refPaint) console.log("  reference: not found; left out");
else {
  for (const key of ["bundle", "bundle-ca"]) {
    const m = s.samples.get(key);
    if (!m) continue;
    const r = median(m.paint) / median(refPaint);
    // No CPU ratio: the reference spends most of the time before its composer waiting, not computing.
    reportRow({ work: `TUI launch to a ready composer${key === "bundle-ca" ? ", NODE_EXTRA_CA_CERTS set" : ""}`, ours: `${fmt(median(m.paint))} ms`, reference: `${fmt(median(refPaint))} ms`, ratio: r, target: `≤ ${TUI_TARGET}`, met: r <= TUI_TARGET });
  }
}
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
