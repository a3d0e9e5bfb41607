/**
 * The interactive UI end to end: the real CLI in a pseudo-terminal, read through a headless
 * terminal emulator, against the scripted model server.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseUrlArgs, makeWorkspace, tuiArgs, type Workspace } from "../support/cli.js";
import { READY, quit, send, userTexts, withTui as runTui, type Run } from "../support/tui.js";
import { startModelServer, fnCall, text, turn, webSearch, type ScriptedTurn } from "../support/model-server.js";
import { KEY, PtySession, sleep } from "../support/pty.js";
import { DEFAULT_ACCOUNT, startIssuer } from "../support/issuer.js";
import { startOAuthFixture } from "../support/oauth-server.js";

/** The suite's runs: no arguments of their own, 100x30 unless a size is given. */
function withTui(turns: ScriptedTurn[], args: string[], body: (run: Run) => Promise<void>, ws?: Workspace, size = { cols: 100, rows: 30 }): Promise<void> {
  return runTui(turns, { args, ...(ws ? { ws } : {}), ...size }, body);
}

void test("a streamed answer is drawn as markdown, and quitting restores the terminal and keeps the transcript", async () => {
  await withTui([turn(text("Here is **the answer**.\n\n- first point\n- second point"))], [], async ({ ui }) => {
    await ui.waitFor("codex-ts v");
    await send(ui, "explain it");
    await ui.waitFor("second point");
    const screen = (await ui.screen()).join("\n");
    assert.match(screen, /› explain it/);
    assert.match(screen, /Here is the answer\./);
    assert.equal(await quit(ui), 0);
    // Every mode switched on is switched off again, and the cursor comes back.
    for (const reset of ["\x1b[?2004l", "\x1b[?25h", "\x1b[?1004l"]) assert.ok(ui.output.includes(reset), `missing ${JSON.stringify(reset)}`);
    const transcript = await ui.transcript();
    assert.match(transcript, /› explain it[\s\S]*Here is the answer[\s\S]*second point/);
    assert.match(transcript, /To continue this session, run codex-ts resume [0-9a-f-]{36}/);
    // The live region is gone: no composer left behind under the summary.
    assert.doesNotMatch(transcript.split("To continue this session")[1] ?? "", /Enter to send/);
  });
});

void test("a command approved with y runs and the decision stays in the conversation; n stops the turn as its label says", async () => {
  // Not a login shell: a user's profile scripts (slow ones included) have no part in this test.
  const ask = (cmd: string, id: string) => fnCall("exec_command", { cmd, login: false, sandbox_permissions: "require_escalated", justification: `need ${id}`, yield_time_ms: 5000 }, id);
  await withTui([turn(ask("echo approved-run", "c1")), turn(ask("touch denied.txt", "c2")), turn(text("never asked for"))], [], async ({ ui, server, ws }) => {
    await send(ui, "do both");
    await ui.waitFor("Run this command?");
    const screen = (await ui.screen()).join("\n");
    assert.match(screen, /echo approved-run/);
    assert.match(screen, /reason: need c1/);
    assert.match(screen, new RegExp(`in ${ws.dir.replace(/[/.]/g, "\\$&")}`));
    ui.write("y");
    await ui.waitFor(/✔ You approved running `echo approved-run` this time[\s\S]*Ran echo approved-run[\s\S]*approved-run/);
    await ui.waitFor("touch denied.txt");
    ui.write("n");
    await ui.waitFor(/✗ You canceled the request to run `touch denied\.txt`[\s\S]*Interrupted\. Tell the agent what to do differently/);
    await ui.waitFor(READY);
    await sleep(300);
    // Stopped: the model was not asked again, nothing ran.
    assert.equal(server.requests.length, 2);
    assert.doesNotMatch((await ui.screen()).join("\n"), /Ran touch denied/);
  });
});

void test("Esc interrupts the running turn", async () => {
  await withTui([{ outputs: [text("never finished")], hangAfterEvents: 2 }, turn(text("after"))], [], async ({ ui }) => {
    await send(ui, "take long");
    await ui.waitFor("Esc to interrupt");
    ui.write(KEY.escape);
    await ui.waitFor("Interrupted");
    const screen = (await ui.screen()).join("\n");
    assert.doesNotMatch(screen, /Esc to interrupt\)/);
    await send(ui, "next");
    await ui.waitFor("after");
  });
});

void test("Enter during a turn steers it: the message joins the running turn", async () => {
  await withTui([{ ...turn(text("first answer")), delayMs: 1200 }, turn(text("steered answer"))], [], async ({ ui, server }) => {
    await send(ui, "start");
    await ui.waitFor("Esc to interrupt");
    await send(ui, "also consider this");
    await ui.waitFor("steered answer");
    assert.equal(server.requests.length, 2);
    assert.match(userTexts(server, 1), /also consider this/);
    const transcript = await ui.transcript();
    assert.match(transcript, /› also consider this/);
  });
});

void test("typing / opens the command popup, filtered as you type", async () => {
  await withTui([], [], async ({ ui }) => {
    await ui.type("/");
    await ui.waitFor("/permissions");
    const screen = (await ui.screen()).join("\n");
    for (const name of ["/model", "/new", "/status", "/review"]) assert.ok(screen.includes(name), `popup lacks ${name}`);
    await ui.type("sta");
    await ui.waitFor(/^ \/sta\s*$/m);
    await ui.waitFor(/\/status\s+show the session/);
    assert.doesNotMatch((await ui.screen()).join("\n"), /\/approvals/);
    ui.write(KEY.enter);
    await ui.waitFor(/session:\s+[0-9a-f-]{36}/);
  });
});

void test("@ searches the repository's files and inserts the pick", async () => {
  const ws = makeWorkspace();
  mkdirSync(join(ws.dir, "src", "deep"), { recursive: true });
  writeFileSync(join(ws.dir, "src", "deep", "needle-file.ts"), "x");
  writeFileSync(join(ws.dir, "other.txt"), "y");
  await withTui([turn(text("seen"))], [], async ({ ui, server }) => {
    await ui.type("look at @needle");
    await ui.waitFor("src/deep/needle-file.ts");
    ui.write(KEY.tab);
    // The completion is in the composer before the message is sent.
    await ui.waitFor("look at src/deep/needle-file.ts");
    ui.write(KEY.enter);
    await ui.waitFor("seen");
    assert.match(userTexts(server, 0), /look at src\/deep\/needle-file\.ts/);
  }, ws);
});

void test("a large paste is folded into a placeholder and sent whole", async () => {
  const pasted = Array.from({ length: 30 }, (_, i) => `pasted line ${i + 1}`).join("\n");
  await withTui([turn(text("got it"))], [], async ({ ui, server }) => {
    ui.paste(pasted);
    await ui.waitFor(/\[Pasted Content \d+ chars\]/);
    ui.write(KEY.enter);
    await ui.waitFor("got it");
    assert.match(userTexts(server, 0), /pasted line 1\\npasted line 2[\s\S]*pasted line 30/);
  });
});

void test("a resize reflows the live region without leaving copies behind", async () => {
  await withTui([turn(text("before the resize")), turn(text("after the resize"))], [], async ({ ui }) => {
    await send(ui, "hello");
    await ui.waitFor("before the resize");
    /** Redrawn for `cols`: one composer, and its rule spans the new width. */
    const redrawnAt = (cols: number) => async (): Promise<boolean> => {
      const rows = await ui.screen();
      return rows.filter((l) => l.includes(READY)).length === 1 && rows.some((l) => l === "─".repeat(cols));
    };
    ui.resize(60, 20);
    await ui.until(redrawnAt(60), "the live region is redrawn at 60 columns");
    ui.resize(90, 24);
    await ui.until(redrawnAt(90), "the live region is redrawn at 90 columns");
    const screen = await ui.screen();
    assert.equal(screen.filter((l) => l.includes(READY)).length, 1, screen.join("\n"));
    assert.ok(screen.every((l) => l.length <= 90));
    await send(ui, "still alive");
    await ui.waitFor("after the resize");
  });
});

void test("resume redraws the recorded conversation and continues it", async () => {
  const ws = makeWorkspace();
  await withTui([turn(text("the first answer"))], [], async ({ ui }) => {
    await send(ui, "remember this");
    await ui.waitFor("the first answer");
    assert.equal(await quit(ui), 0);
  }, ws);
  await withTui([turn(text("resumed answer"))], ["resume", "--last"], async ({ ui, server }) => {
    await ui.waitFor("› remember this");
    await ui.waitFor("the first answer");
    await send(ui, "and now?");
    await ui.waitFor("resumed answer");
    assert.match(userTexts(server, 0), /remember this[\s\S]*the first answer[\s\S]*and now\?/);
  }, ws);
  // Without an id: the picker lists the directory's sessions, newest first.
  const server = await startModelServer([]);
  const ui = new PtySession([...tuiArgs(server.url), "resume"], { cwd: ws.dir, home: ws.home, cols: 100, rows: 30 });
  try {
    await ui.waitFor("Resume a session");
    await ui.waitFor("remember this");
    ui.write(KEY.enter);
    await ui.waitFor(/› remember this[\s\S]*the first answer[\s\S]*› and now\?[\s\S]*resumed answer/);
    assert.equal(await quit(ui), 0);
  } finally {
    ui.kill();
    await server.close();
  }
});

void test("Esc Esc backtracks: pick an earlier message, edit it, and the later turns are dropped", async () => {
  await withTui([turn(text("answer one")), turn(text("answer two")), turn(text("answer redo"))], [], async ({ ui, server }) => {
    await send(ui, "message one");
    await ui.waitFor("answer one");
    await send(ui, "message two");
    await ui.waitFor("answer two");
    ui.write(KEY.escape);
    await ui.waitFor("Press Esc again to edit an earlier message");
    ui.write(KEY.escape);
    await ui.waitFor("Go back to an earlier message");
    // Newest first: move down to the first message.
    ui.write(KEY.down);
    ui.write(KEY.enter);
    // The first choice, the conversation only, is what Enter takes (the files stay).
    await ui.waitFor("Restore what to how it was before this message?");
    ui.write(KEY.enter);
    // Both turns go: the first message comes back to be edited and sent in their place.
    const screen = await ui.waitFor(/Rolled back 2 turns/);
    assert.match(screen, /^\s*message one\s*$/m);
    await ui.type(" edited");
    ui.write(KEY.enter);
    await ui.waitFor("answer redo");
    const third = userTexts(server, 2);
    assert.match(third, /message one edited/);
    assert.doesNotMatch(third, /message two|answer two/);
  });
});

void test("without a terminal the UI says so and points to exec", async () => {
  const { runCli } = await import("../support/cli.js");
  const ws = makeWorkspace();
  const result = await runCli([], { cwd: ws.dir, home: ws.home });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /needs a terminal[\s\S]*codex-ts exec/);
});

void test("SIGTERM restores the terminal before the process ends", async () => {
  await withTui([], [], async ({ ui }) => {
    const before = ui.output.length;
    ui.kill("SIGTERM");
    assert.equal(await ui.exit(), 143);
    const after = ui.output.slice(before);
    for (const reset of ["\x1b[?2004l", "\x1b[?25h", "\x1b[?1004l"]) assert.ok(after.includes(reset), `missing ${JSON.stringify(reset)}`);
  });
});

void test("--alt-screen draws on the alternate screen and leaves it on exit", async () => {
  await withTui([turn(text("full screen answer"))], ["--alt-screen"], async ({ ui }) => {
    assert.ok(ui.output.includes("\x1b[?1049h"));
    await send(ui, "hi");
    await ui.waitFor("full screen answer");
    assert.equal(await quit(ui), 0);
    assert.ok(ui.output.lastIndexOf("\x1b[?1049l") > ui.output.lastIndexOf("\x1b[?1049h"));
  });
});

void test("Ctrl+G edits the message in $EDITOR and brings the result back", async () => {
  const ws = makeWorkspace();
  const editor = join(ws.home, "fake-editor.sh");
  writeFileSync(editor, '#!/bin/sh\nprintf "written in the editor" > "$1"\n', { mode: 0o755 });
  const server = await startModelServer([turn(text("edited answer"))]);
  const ui = new PtySession(tuiArgs(server.url), { cwd: ws.dir, home: ws.home, env: { EDITOR: editor, VISUAL: undefined } });
  try {
    await ui.waitFor(READY);
    await ui.type("draft");
    ui.write("\x07");
    await ui.waitFor("written in the editor");
    ui.write(KEY.enter);
    await ui.waitFor("edited answer");
    assert.match(userTexts(server, 0), /written in the editor/);
  } finally {
    ui.kill();
    await server.close();
  }
});

/** A project with its own `.codex/config.toml` (naming another model), opened and the trust question answered with `key`. */
async function answerTrust(key: string, body: (ui: PtySession, ws: Workspace) => Promise<void>): Promise<void> {
  const ws = makeWorkspace();
  mkdirSync(join(ws.dir, ".codex"));
  writeFileSync(join(ws.dir, ".codex", "config.toml"), 'model = "gpt-5.1-codex"\n');
  const server = await startModelServer([]);
  const ui = new PtySession(baseUrlArgs(server.url), { cwd: ws.dir, home: ws.home });
  try {
    await ui.waitFor(/Trust .*\?/);
    ui.write(key);
    await body(ui, ws);
    assert.equal(await quit(ui), 0);
  } finally {
    ui.kill();
    await server.close();
  }
}

void test("a project with its own .codex/ settings is asked about once, and the answer is saved", async () => {
  await answerTrust("y", async (ui, ws) => {
    // Trusted: the project's own model setting now applies.
    await ui.waitFor("gpt-5.1-codex");
    const { readFileSync } = await import("node:fs");
    assert.match(readFileSync(join(ws.home, "config.toml"), "utf8"), /trust_level = "trusted"/);
  });
});

void test("refusing to trust the project: no warning that its settings were not loaded (the question said so)", async () => {
  await answerTrust("n", async (ui) => {
    await ui.waitFor("directory:");
    await ui.waitFor(READY);
    // A round trip through the session: its answer comes after any start-up warning would have.
    await send(ui, "/skills");
    await ui.waitFor("no skills found");
    const screen = (await ui.screen()).join("\n");
    assert.doesNotMatch(screen, /not loaded|not trusted/);
    assert.doesNotMatch(screen, /gpt-5\.1-codex/);
  });
});

void test("Up recalls earlier prompts from history.jsonl; an unfocused terminal gets an OSC 9 notification", async () => {
  // xterm is not known to show OSC 9, so `auto` would ring the bell: ask for OSC 9 explicitly.
  const ws = makeWorkspace({ config: '[tui]\nnotification_method = "osc9"\n' });
  writeFileSync(join(ws.home, "history.jsonl"), '{"session_id":"old","ts":1700000000,"text":"a prompt from yesterday"}\n');
  await withTui([turn(text("noted"))], [], async ({ ui }) => {
    await ui.waitFor("directory:"); // the session announced how many entries the history holds
    ui.write(KEY.up);
    await ui.waitFor("a prompt from yesterday");
    ui.write("\x1b[O"); // the terminal reports it lost focus
    ui.write(KEY.enter);
    await ui.waitFor("noted");
    await ui.waitFor(/Enter to send/);
    await ui.until(() => ui.output.includes("\x1b]9;Turn complete: noted\x07"), "the OSC 9 notification is written");
  }, ws);
});

void test("Up on a 300 KB one-line history entry shows a placeholder at once and sends the entry whole", async () => {
  // A pasted blob is stored raw in history.jsonl; recalled as text it used to freeze the editor
  // (60 KB: 14 s) or exhaust the heap (300 KB).
  const ws = makeWorkspace();
  const blob = "lorem ipsum ".repeat(25_000);
  writeFileSync(join(ws.home, "history.jsonl"), `${JSON.stringify({ session_id: "old", ts: 1700000000, text: blob })}\n`);
  await withTui([turn(text("read it all"))], [], async ({ ui, server }) => {
    await ui.waitFor("directory:");
    ui.write(KEY.up);
    await ui.waitFor(`[Pasted Content ${blob.length} chars]`);
    ui.write(KEY.down);
    await ui.until(async () => !(await ui.screen()).join("\n").includes("[Pasted Content"), "Down empties the composer");
    ui.write(KEY.up); // back and forth: still one placeholder, not a second numbered one
    await ui.waitFor(`[Pasted Content ${blob.length} chars]`);
    assert.doesNotMatch((await ui.screen()).join("\n"), /#2\]/);
    ui.write(KEY.enter);
    await ui.waitFor("read it all");
    assert.ok(userTexts(server, 0).includes(JSON.stringify(blob.trim()).slice(1, -1)), "the whole entry reached the model");
  }, ws, { cols: 120, rows: 40 });
});

void test("tui.notification_method = auto rings the bell in a terminal not known to show OSC 9", async () => {
  await withTui([turn(text("rung"))], [], async ({ ui }) => {
    ui.write("\x1b[O");
    await send(ui, "ring when done");
    await ui.waitFor("rung");
    await ui.waitFor(/Enter to send/);
    // A lone BEL, not the end of some OSC sequence.
    // eslint-disable-next-line no-control-regex
    await ui.until(() => ui.output.replace(/\x1b\][^\x07]*\x07/g, "").includes("\x07"), "a BEL is rung");
    assert.ok(!ui.output.includes("\x1b]9;"), "OSC 9 sent to a plain xterm");
  });
});

void test("without an API key the UI offers to sign in; Esc gives the terminal back and says what is missing", async () => {
  const ws = makeWorkspace();
  const ui = new PtySession(["-s", "read-only"], { cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: undefined } });
  try {
    await ui.waitFor(/1\. Sign in with ChatGPT[\s\S]*2\. Provide your own API key/);
    ui.write("k");
    await ui.waitFor(/export OPENAI_API_KEY=sk-\.\.\.[\s\S]*codex-ts login --with-api-key/);
    ui.write(KEY.escape);
    await ui.waitFor("1. Sign in with ChatGPT");
    ui.write(KEY.escape);
    assert.equal(await ui.exit(), 1);
    assert.match(await ui.transcript(), /No API key/i);
    assert.ok(ui.output.includes("\x1b[?25h"));
  } finally {
    ui.kill();
  }
});

void test("--search: a web search is shown live, then what it searched; resume redraws it", async () => {
  const ws = makeWorkspace();
  const searching: ScriptedTurn = { ...turn(webSearch({ type: "search", query: "pty resize semantics" }), text("found it")), eventDelayMs: 150 };
  await withTui([searching], ["--search"], async ({ ui, server }) => {
    await send(ui, "look it up");
    await ui.waitFor("Searching the web…");
    await ui.waitFor(/Searched pty resize semantics[\s\S]*found it/);
    await ui.waitFor(READY);
    assert.ok((server.requests[0]?.body.tools ?? []).some((t) => t.type === "web_search" && t.external_web_access === true), "--search did not offer the live web");
    assert.equal(await quit(ui), 0);
  }, ws);
  await withTui([], ["resume", "--last"], async ({ ui }) => {
    await ui.waitFor(/› look it up[\s\S]*Searched pty resize semantics[\s\S]*found it/);
  }, ws);
});

void test("/compact shows its progress and result; /status shows the rate-limit windows", async () => {
  const limits = { "x-codex-primary-used-percent": "25", "x-codex-primary-window-minutes": "300", "x-codex-primary-reset-after-seconds": "7200" };
  const summary: ScriptedTurn = { ...turn(text("SUMMARY: the user asked for a status")), delayMs: 400 };
  // The local summary (not the server's endpoint): a request to the scripted model, slow enough to watch.
  await withTui([{ ...turn(text("first answer")), headers: limits }, summary], ["--disable", "remote_compaction"], async ({ ui, server }) => {
    await send(ui, "hello");
    await ui.waitFor("first answer");
    // The turn has ended (the composer says Enter sends) before a command is typed.
    await ui.waitFor(READY);
    await send(ui, "/status");
    await ui.waitFor(/5h limit: +\[███░░░░░░░\] 25% used, resets in (1h 59m|2h 0m)/);
    await send(ui, "/compact");
    await ui.waitFor("Compacting");
    // It reports what the status line showed before.
    await ui.waitFor(/Context compacted \(before: 100% context left · 19 tokens used\)[\s\S]*now a\s+summary/);
    assert.equal(server.requests.length, 2);
  });
});

/** The browser's part of a sign-in: the issuer's redirect to the callback, then the callback's to its page. */
async function playBrowser(authorize: string): Promise<void> {
  let url = authorize;
  for (let hop = 0; hop < 3; hop++) {
    const res = await fetch(url, { redirect: "manual" });
    const next = res.headers.get("location");
    if (next === null) {
      assert.equal(res.status, 200, `the sign-in ended on ${url} with ${res.status}`);
      return;
    }
    // The callback server listens on 127.0.0.1; "localhost" could resolve elsewhere.
    url = new URL(next, url).toString().replace("//localhost:", "//127.0.0.1:");
  }
}

void test("without credentials: sign in with ChatGPT in the UI, then the session runs on that login", async () => {
  const issuer = await startIssuer();
  const server = await startModelServer([turn(text("answered with the ChatGPT login"))]);
  server.requireAuth({ bearer: () => issuer.validAccessToken ?? "none", accountId: DEFAULT_ACCOUNT.accountId });
  const ws = makeWorkspace();
  const env = { OPENAI_API_KEY: undefined, CODEX_TS_LOGIN_ISSUER: issuer.url, CODEX_TS_LOGIN_PORT: "0", BROWSER: "true" };
  const ui = new PtySession(["-s", "read-only", "-c", `chatgpt_base_url="${server.chatgptBaseUrl}"`], { cwd: ws.dir, home: ws.home, env });
  try {
    await ui.waitFor("1. Sign in with ChatGPT");
    ui.write(KEY.enter);
    const screen = await ui.waitFor(/Esc to cancel/);
    // The address is drawn whole, cut into rows at the width.
    const rows = screen.split("\n");
    const first = rows.findIndex((r) => r.startsWith(`${issuer.url}/oauth/authorize?`));
    assert.ok(first >= 0, screen);
    const end = rows.findIndex((r, i) => i > first && r.trim() === "");
    await playBrowser(rows.slice(first, end).join(""));
    await ui.waitFor(/Signed in with ChatGPT[\s\S]*dev@example\.com/);
    await ui.waitFor(READY);
    await send(ui, "hello");
    await ui.waitFor("answered with the ChatGPT login");
    assert.equal(await quit(ui), 0);
    const { readFileSync } = await import("node:fs");
    assert.equal((JSON.parse(readFileSync(join(ws.home, "auth.json"), "utf8")) as { auth_mode: string }).auth_mode, "chatgpt");
  } finally {
    ui.kill();
    await server.close();
    await issuer.close();
  }
});

void test("an MCP server that needs a login: the UI offers it, /mcp login signs in and restarts it, and /mcp lists its tools", async () => {
  const oauth = await startOAuthFixture();
  const ws = makeWorkspace({ config: `[mcp_servers.remote]\nurl = ${JSON.stringify(oauth.url)}\n` });
  // The browser: fetches the authorization URL, following the redirect back to the callback.
  const browser = join(ws.home, "..", "browser.sh");
  writeFileSync(browser, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} -e 'fetch(process.argv[1]).then((r) => r.text())' "$1"\n`);
  chmodSync(browser, 0o755);
  const server = await startModelServer([]);
  const ui = new PtySession(tuiArgs(server.url), { cwd: ws.dir, home: ws.home, cols: 120, env: { BROWSER: browser } });
  try {
    await ui.waitFor(/MCP server remote did not start[\s\S]*Type \/mcp login remote to sign in from here/);
    await send(ui, "/mcp login remote");
    await ui.waitFor(/Signed in to remote[\s\S]*starting the server again in this session/);
    // No /new: the same session restarts the server with the new tokens. /mcp shows a snapshot,
    // so ask again until the restart has finished.
    let listed = false;
    for (let attempt = 0; attempt < 20 && !listed; attempt++) {
      await send(ui, "/mcp");
      listed = await ui.waitFor(/remote: ready · auth: OAuth\s+tools: [^\n]*echo/, { timeoutMs: 1_000 }).then(() => true, () => false);
    }
    assert.ok(listed, "after the sign-in, /mcp lists the restarted server's tools");
    assert.equal(await quit(ui), 0);
  } finally {
    ui.kill();
    await server.close();
    await oauth.close();
  }
});
