/**
 * What a user reaches for in the interactive UI, in a real terminal: the first-run trust
 * question, the resume hint on exit, Markdown answers, Ctrl+T, `?`, "Worked for", /permissions,
 * /model (saved or for the session), /copy, /fork, /status, retries and the prompt history.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseUrlArgs, makeWorkspace } from "../support/cli.js";
import { customCall, errorTurn, fnCall, text, turn } from "../support/model-server.js";
import { KEY, sleep } from "../support/pty.js";
import { READY, quit, send, withTui } from "../support/tui.js";

void test("the first run in a repository asks whether to trust it; trusted, the header says so and edits inside run without asking", async () => {
  const patch = "*** Begin Patch\n*** Add File: notes.txt\n+written without a question\n*** End Patch";
  await withTui([turn(customCall("apply_patch", patch, "p1")), turn(text("wrote it"))], { serverArgs: baseUrlArgs, waitReady: false }, async ({ ui, ws }) => {
    await ui.waitFor(/Trust .*work\?[\s\S]*1\. Yes, trust this folder/);
    ui.write("1");
    const header = await ui.waitFor(/directory:[\s\S]*Enter to send/);
    assert.match(header, /sandbox: workspace-write/);
    assert.match(header, /trusted folder: works inside it without asking/);
    assert.match(readFileSync(join(ws.home, "config.toml"), "utf8"), new RegExp(`\\[projects\\."${ws.dir.replace(/[/.]/g, "\\$&")}"\\]\\ntrust_level = "trusted"`));
    await send(ui, "write notes");
    await ui.waitFor("wrote it");
    assert.doesNotMatch(await ui.transcript(), /Apply these changes/);
    assert.equal(readFileSync(join(ws.dir, "notes.txt"), "utf8"), "written without a question\n");
    assert.equal(await quit(ui), 0);
  });
  // Asked once: the next start goes straight to the composer.
});

void test("quitting before sending anything prints no resume command; after a turn it does", async () => {
  await withTui([], {}, async ({ ui }) => {
    assert.equal(await quit(ui), 0);
    assert.doesNotMatch(await ui.transcript(), /codex-ts resume/);
  });
  await withTui([turn(text("hello back"))], {}, async ({ ui }) => {
    await send(ui, "hello");
    await ui.waitFor("hello back");
    assert.equal(await quit(ui), 0);
    assert.match(await ui.transcript(), /To continue this session, run codex-ts resume [0-9a-f-]{36}/);
  });
});

void test("Markdown answers: task lists show boxes, code fences are not printed", async () => {
  const answer = "Plan:\n\n- [ ] write the test\n- [x] read the code\n\n```ts\nconst x = 1;\n```\n\nDone.";
  await withTui([turn(text(answer))], {}, async ({ ui }) => {
    await send(ui, "plan it");
    const screen = await ui.waitFor("Done.");
    assert.match(screen, /☐ write the test/);
    assert.match(screen, /☑ read the code/);
    assert.match(screen, /const x = 1;/);
    assert.doesNotMatch(screen, /```|\[ \]|\[x\]/);
  });
});

void test("Ctrl+T shows the whole conversation with every line of output; ? lists the keys; a turn ends with Worked for", async () => {
  const many = "for i in $(seq 1 30); do echo out-$i; done";
  await withTui([turn(fnCall("exec_command", { cmd: many, login: false }, "c1")), turn(text("all printed"))], { rows: 40 }, async ({ ui }) => {
    ui.write("?");
    await ui.waitFor(/Keys[\s\S]*Ctrl\+T\s+transcript/);
    ui.write("x");
    await ui.waitFor(READY);
    await send(ui, "print");
    await ui.waitFor(/all printed[\s\S]*─ Worked for (<1s|\d+s)/);
    assert.doesNotMatch((await ui.screen()).join("\n"), /out-3\n/, "the cell shows only the tail");
    ui.write("\x14");
    const pager = await ui.waitFor(/Transcript · lines/);
    assert.match(pager, /q or Esc to close/);
    ui.write("\x1b[H"); // Home: the start of the conversation
    await ui.waitFor(/out-1\n[\s\S]*out-2\n/);
    ui.write("q");
    await ui.waitFor(READY);
    assert.doesNotMatch((await ui.screen()).join("\n"), /Transcript ·/);
  });
});

void test("/permissions (also /approvals) changes what the agent may do; /status names the provider, effort and AGENTS.md files", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "AGENTS.md"), "Be brief.\n");
  await withTui([], { ws }, async ({ ui }) => {
    await ui.waitFor("directory:");
    await send(ui, "/approvals");
    await ui.waitFor(/Permissions[\s\S]*Read Only[\s\S]*Auto[\s\S]*Full Access/);
    ui.write(KEY.down);
    ui.write(KEY.enter);
    await ui.waitFor("Permissions changed");
    await send(ui, "/status");
    const status = await ui.waitFor(/provider: +OpenAI \(openai\)/);
    assert.match(status, /sandbox: +workspace-write/);
    assert.match(status, /model: +gpt-5\.5 \(effort the model's default\)/);
    assert.match(status, new RegExp(`AGENTS\\.md: +${join(ws.dir, "AGENTS.md").replace(/[/.]/g, "\\$&")}`));
  });
});

void test("/model saves the choice as the default in config.toml, or with s for this session only", async () => {
  const ws = makeWorkspace({ config: "# my settings\nmodel_reasoning_effort = \"low\"\n" });
  await withTui([], { ws }, async ({ ui }) => {
    await ui.waitFor("directory:");
    await send(ui, "/model");
    await ui.waitFor(/▌ Model\n[\s\S]*gpt-5\.5/);
    ui.write(KEY.enter);
    await ui.waitFor("Reasoning effort for gpt-5.5");
    await ui.type("high");
    ui.write(KEY.enter);
    await ui.waitFor(/Use gpt-5\.5 \(high\) from the next turn on[\s\S]*\(s\)/);
    ui.write(KEY.enter);
    await ui.waitFor(/the default from now on \(saved in/);
    const saved = readFileSync(join(ws.home, "config.toml"), "utf8");
    assert.match(saved, /^# my settings$/m);
    assert.match(saved, /^model = "gpt-5\.5"$/m);
    assert.match(saved, /^model_reasoning_effort = "high"$/m);
    await send(ui, "/model");
    await ui.waitFor(/▌ Model\n[\s\S]*gpt-5\.5/);
    ui.write(KEY.enter);
    await ui.waitFor("Reasoning effort for gpt-5.5");
    await ui.type("medium");
    ui.write(KEY.enter);
    await ui.waitFor(/Use gpt-5\.5 \(medium\)/);
    ui.write("s");
    await ui.waitFor(/gpt-5\.5 \(medium\) from the next turn on, for this session/);
    assert.equal(readFileSync(join(ws.home, "config.toml"), "utf8"), saved);
  });
});

void test("/copy puts the last answer on the clipboard (OSC 52); /fork names the new session's id under its header", async () => {
  await withTui([turn(text("copy **me** please"))], {}, async ({ ui }) => {
    await send(ui, "say something");
    await ui.waitFor("copy me please");
    await send(ui, "/copy");
    await ui.waitFor("Copied the last answer");
    assert.ok(ui.output.includes(`\x1b]52;c;${Buffer.from("copy **me** please").toString("base64")}\x07`), "no OSC 52 with the answer");
    const before = /session:\s+([0-9a-f-]{36})/.exec((await send(ui, "/status"), await ui.waitFor(/session:\s+[0-9a-f-]{36}/)))?.[1] ?? "";
    await send(ui, "/fork");
    const forked = await ui.waitFor(/codex-ts v[\s\S]*• Forked session [0-9a-f-]{36} into [0-9a-f-]{36}/);
    const [, from, to] = /Forked session ([0-9a-f-]{36}) into ([0-9a-f-]{36})/.exec(forked) ?? [];
    assert.equal(from, before);
    assert.notEqual(to, before);
  });
});

void test("retries update one line; the same prompt twice in a row is stored once in the history", async () => {
  const turns = [errorTurn(500), errorTurn(500), { ...turn(text("made it")), delayMs: 200 }, turn(text("again"))];
  await withTui(turns, {}, async ({ ui, ws }) => {
    await send(ui, "try hard");
    await ui.waitFor("made it", { timeoutMs: 20_000 });
    // Each retry was drawn in the status line, in place of the one before; none is left behind.
    assert.ok(ui.output.includes("Reconnecting... 2/"), "the second retry was never shown");
    assert.doesNotMatch(await ui.transcript(), /Reconnecting/);
    await send(ui, "try hard");
    await ui.waitFor("again");
    await sleep(200);
    const history = readFileSync(join(ws.home, "history.jsonl"), "utf8").trim().split("\n");
    assert.equal(history.filter((l) => l.includes('"try hard"')).length, 1);
  });
});

void test("codex-ts exce \"…\" suggests exec", async () => {
  const { runCli } = await import("../support/cli.js");
  const ws = makeWorkspace();
  const r = await runCli(["exce", "fix the bug"], { cwd: ws.dir, home: ws.home });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^error: unknown subcommand 'exce' \(did you mean exec\?\)/);
});

void test("a project whose trust was refused is not asked again, and its folders are not listed as trusted", async () => {
  const ws = makeWorkspace();
  mkdirSync(join(ws.dir, "sub"));
  writeFileSync(join(ws.home, "config.toml"), `[projects."${ws.dir}"]\ntrust_level = "untrusted"\n`);
  await withTui([], { ws, serverArgs: baseUrlArgs }, async ({ ui }) => {
    const screen = await ui.waitFor("directory:");
    assert.doesNotMatch(screen, /Trust .*\?/);
    assert.match(screen, /approval: +untrusted/);
    assert.ok(existsSync(join(ws.home, "config.toml")));
  });
});
