/**
 * The interactive UI's start-up: the composer is drawn before the core is loaded and takes
 * input at once, and what loads before the first frame stays small (the core, pi-tui's index
 * and the markdown parser come after it; `--version` and `exec` load none of the UI).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { baseUrlArgs, makeWorkspace, NEEDS_TSC_BUILD, runCli, tuiArgs } from "../support/cli.js";
import { loadOrderEnv, readLoadOrder } from "../support/load-order.js";
import { startModelServer, text, turn } from "../support/model-server.js";
import { KEY, PtySession, sleep } from "../support/pty.js";

const READY = "Enter to send";

/** Resolves as soon as the program has written `text` (the raw output, polled every millisecond). */
async function written(ui: PtySession, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ui.output.includes(text)) {
    if (ui.exitCode !== null || Date.now() > deadline) throw new Error(`no ${text}; output: ${JSON.stringify(ui.output.slice(-500))}`);
    await sleep(1);
  }
}

const logFile = (): string => join(mkdtempSync(join(tmpdir(), "codex-ts-load-order-")), "modules.log");
const named = (urls: string[], part: string): string[] => urls.filter((u) => u.includes(part));

void test("a message typed the moment the composer appears, before the session has started, is sent once it has", async () => {
  const server = await startModelServer([turn(text("early answer"))]);
  const ws = makeWorkspace();
  const ui = new PtySession(tuiArgs(server.url), { cwd: ws.dir, home: ws.home });
  try {
    await written(ui, READY);
    ui.write("typed before the start");
    ui.write(KEY.enter);
    // The header comes with the session, which starts after the core has loaded (tens of ms).
    assert.doesNotMatch(ui.output, /codex-ts v\d/, "the session had already started: the keys did not arrive early");
    await ui.waitFor("early answer");
    const screen = (await ui.screen()).join("\n");
    assert.match(screen, /codex-ts v\d[\s\S]*› typed before the start[\s\S]*early answer/);
    assert.equal(server.requests.length, 1);
    assert.match(JSON.stringify(server.requests[0]?.body.input), /typed before the start/);
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
    assert.deepEqual(server.violations, []);
  } finally {
    ui.kill();
    await server.close();
  }
});

void test("the first frame loads neither the core nor pi-tui's index nor the markdown parser; they load after it", { skip: NEEDS_TSC_BUILD }, async () => {
  const server = await startModelServer([]);
  const ws = makeWorkspace();
  const log = logFile();
  const ui = new PtySession(tuiArgs(server.url), { cwd: ws.dir, home: ws.home, env: loadOrderEnv(log, READY) });
  try {
    await written(ui, READY);
    await ui.waitFor("codex-ts v");
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
  } finally {
    ui.kill();
    await server.close();
  }
  const { before, after, marked } = readLoadOrder(log);
  assert.ok(marked, "the composer was never written");
  assert.ok(named(before, "/src/tui/composer.js").length === 1, "the composer's module is not in the log: the hooks did not run");
  for (const heavy of ["/src/core/thread-manager.js", "/src/core/session.js", "/src/model/responses-client.js", "/src/tools/", "/pi-tui/dist/index.js", "/pi-tui/dist/components/markdown.js", "/node_modules/marked/"]) {
    assert.deepEqual(named(before, heavy), [], `${heavy} loads before the first frame`);
  }
  assert.ok(named(after, "/src/core/thread-manager.js").length === 1, "the core loads after the first frame");
  assert.ok(named(after, "/node_modules/marked/").length === 1, "the markdown parser loads after the first frame");
});

void test("--version and exec load none of the interactive UI", { skip: NEEDS_TSC_BUILD }, async () => {
  const server = await startModelServer([turn(text("done"))]);
  try {
    const ws = makeWorkspace();
    for (const args of [["--version"], ["exec", ...baseUrlArgs(server.url), "hello"]]) {
      const log = logFile();
      const r = await runCli(args, { cwd: ws.dir, home: ws.home, env: loadOrderEnv(log) });
      assert.equal(r.code, 0, r.stderr);
      const { before } = readLoadOrder(log);
      assert.ok(named(before, "/src/cli/main.js").length === 1, "the CLI's entry is not in the log: the hooks did not run");
      assert.deepEqual(named(before, "/src/tui/"), [], `${args[0]} loads the UI`);
      assert.deepEqual(named(before, "/pi-tui/"), [], `${args[0]} loads pi-tui`);
    }
  } finally {
    await server.close();
  }
});
