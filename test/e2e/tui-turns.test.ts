/**
 * A turn as a user watches it in a real terminal (pty + headless xterm): a command printing
 * while it runs, a silent one, steering while an answer streams, answering approvals, a patch
 * question on a 60x20 terminal, and resizing with a question open.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fnCall, customCall, text, turn, type ScriptedTurn } from "../support/model-server.js";
import { KEY, sleep } from "../support/pty.js";
import { READY, send, withTui } from "../support/tui.js";

const exec = (cmd: string, id: string, extra: Record<string, unknown> = {}) => fnCall("exec_command", { cmd, login: false, yield_time_ms: 10_000, ...extra }, id);
const escalated = (cmd: string, id: string) => exec(cmd, id, { sandbox_permissions: "require_escalated", justification: `need ${id}` });

void test("a command printing slowly shows its output decoded while it runs, the last lines in view, also once interrupted", async () => {
  const slow = "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo tick-$i; sleep 0.3; done";
  await withTui([turn(exec(slow, "c1")), turn(text("never reached"))], {}, async ({ ui }) => {
    await send(ui, "count");
    const running = await ui.waitFor(/Running for i in[\s\S]*tick-6/);
    assert.doesNotMatch(running, /dGljay/, "base64 on screen");
    // The newest lines are the ones shown, under a count of the earlier ones.
    assert.match(running, /… \d+ earlier lines?\n(\s+│ tick-\d+\n){4}\s+│ tick-\d+/);
    ui.write(KEY.escape);
    const stopped = await ui.waitFor(/└ ■ interrupted/);
    assert.match(stopped, /│ tick-\d+\n\s+└ ■ interrupted/);
    assert.doesNotMatch(await ui.transcript(), /dGljay/);
  });
});

void test("a command that prints nothing shows (no output), not what the model is told", async () => {
  await withTui([turn(exec("true", "c1")), turn(text("silent indeed"))], {}, async ({ ui }) => {
    await send(ui, "run true");
    const screen = await ui.waitFor(/Ran true\n\s+│ \(no output\)\n\s+└ ✓/);
    assert.doesNotMatch(screen, /Chunk ID|Wall time|Process exited|Original token count/);
  });
});

void test("steering while an answer streams: the answer is shown once, whole, and the message after it", async () => {
  const paragraphs = Array.from({ length: 8 }, (_, p) => Array.from({ length: 6 }, (_, l) => `Paragraph ${p + 1} line ${l + 1}: the quick brown fox jumps over the lazy dog.`).join("\n"));
  const answer = paragraphs.join("\n\n");
  const streaming: ScriptedTurn = { outputs: [{ type: "message", text: answer, pieces: 160 }], eventDelayMs: 25 };
  await withTui([streaming, turn(text("steered answer"))], { rows: 40, cols: 120 }, async ({ ui, server }) => {
    await send(ui, "write a lot");
    await ui.waitFor("Paragraph 2 line 1");
    await send(ui, "also this");
    // It waits under the answer while the answer streams.
    await ui.waitFor(/› also this\n\s+↳ the agent reads this when the answer above ends/);
    await ui.waitFor("steered answer", { timeoutMs: 20_000 });
    const transcript = await ui.transcript();
    for (let p = 1; p <= 8; p++) {
      for (let l = 1; l <= 6; l++) {
        const line = `Paragraph ${p} line ${l}: the quick brown fox jumps over the lazy dog.`;
        assert.equal(transcript.split(line).length - 1, 1, `${line} is not shown exactly once`);
      }
    }
    // The message comes after the whole answer, as the model reads it.
    assert.ok(transcript.indexOf("› also this") > transcript.indexOf("Paragraph 8 line 6"));
    assert.match(server.requests[1]?.rawBody ?? "", /also this/);
  });
});

void test("an interrupted answer is cut at a clean point, once", async () => {
  const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
  const slow: ScriptedTurn = { outputs: [{ type: "message", text: words, pieces: 400 }], eventDelayMs: 15 };
  await withTui([slow], {}, async ({ ui }) => {
    await send(ui, "go");
    await ui.waitFor("word40");
    ui.write(KEY.escape);
    await ui.waitFor("Interrupted");
    const flat = (await ui.transcript()).replace(/\n\s*/g, " ");
    const shown = /• (word0 .*?) …/.exec(flat)?.[1] ?? "";
    // Whole words, in order, each once, the cut marked with …
    const expected = Array.from({ length: shown.split(" ").length }, (_, i) => `word${i}`).join(" ");
    assert.equal(shown, expected);
    assert.ok(shown.split(" ").length > 40);
  });
});

void test("each approval answer is kept in the conversation; Esc stops the turn like n", async () => {
  const prefixed = fnCall("exec_command", { cmd: "echo third", login: false, sandbox_permissions: "require_escalated", justification: "need c3", prefix_rule: ["echo", "third"] }, "c3");
  const turns = [turn(escalated("echo first", "c1")), turn(escalated("echo second", "c2")), turn(prefixed), turn(escalated("touch nope", "c4")), turn(text("unreached"))];
  await withTui(turns, {}, async ({ ui, server }) => {
    await send(ui, "go");
    await ui.waitFor("echo first");
    ui.write("y");
    await ui.waitFor(/✔ You approved running `echo first` this time/);
    await ui.waitFor(/Run this command\?[\s\S]*echo second/);
    ui.write("a");
    await ui.waitFor(/✔ You approved running `echo second` for the rest of this session/);
    await ui.waitFor(/Run this command\?[\s\S]*echo third/);
    const offer = (await ui.screen()).join("\n");
    if (/always allow `echo third` commands \(p\)/.test(offer)) {
      ui.write("p");
      await ui.waitFor(/✔ You allowed commands that start with `echo third` from now on/);
    } else {
      ui.write("y");
      await ui.waitFor(/✔ You approved running `echo third` this time/);
    }
    await ui.waitFor(/Run this command\?[\s\S]*touch nope/);
    ui.write(KEY.escape);
    await ui.waitFor(/✗ You canceled the request to run `touch nope`/);
    await ui.waitFor(READY);
    await sleep(300);
    assert.equal(server.requests.length, 4, "the turn stopped at the refusal");
  });
});

const LONG_PATCH = [
  "*** Begin Patch",
  "*** Add File: src/components/a-rather-long-directory-name/new-module-file.ts",
  ...Array.from({ length: 40 }, (_, i) => `+line ${i + 1}: some content for the new file that is fairly long`),
  "*** End Patch",
].join("\n");

void test("on a 60x20 terminal a 40-line patch question keeps its title, file and answers in view; the diff scrolls inside it", async () => {
  await withTui([turn(customCall("apply_patch", LONG_PATCH, "p1")), turn(text("patched"))], { cols: 60, rows: 20 }, async ({ ui, ws }) => {
    await send(ui, "add the file");
    // The whole question, from its scroll hint down to its last answer: a screen read while it
    // is still being drawn would have the title only.
    const screen = await ui.waitFor(/Apply these changes to 1 file\?[\s\S]*lines 1–\d+ of \d+[\s\S]*3\. No, and tell the agent/);
    const rows = screen.split("\n");
    assert.match(screen, /src\/components\/a-rather-long-directory-name\/new-module-fil\n\s+e\.ts/, "the whole file name");
    for (const answer of [/1\. Yes, apply them \(y\)/, /2\. Yes, and allow edits to these files this session \(a\)/, /3\. No, and tell the agent what to do differently \(n\)/]) assert.match(screen, answer);
    assert.ok(rows.every((r) => r.length <= 60));
    assert.match(screen, /lines 1–\d+ of \d+ \(PgUp\/PgDn\)/);
    assert.doesNotMatch(screen, /line 12:/);
    // Page down: further lines of the diff, the question still there.
    ui.write("\x1b[6~");
    const scrolled = await ui.waitFor(/lines [2-9]\d*–\d+ of/);
    assert.match(scrolled, /Apply these changes to 1 file\?[\s\S]*1\. Yes, apply them/);
    ui.write("y");
    await ui.waitFor("patched");
    // The question was drawn full screen: the conversation is back, the answer recorded.
    await ui.waitFor(/✔ You approved the edits to[\s\S]*new-module-fi[\s\S]*le\.ts` this time/, { inTranscript: true });
    const { readFileSync } = await import("node:fs");
    assert.match(readFileSync(`${ws.dir}/src/components/a-rather-long-directory-name/new-module-file.ts`, "utf8"), /line 40:/);
  });
});

void test("cut text ends with …: a long answer to a question, a row wider than the terminal", async () => {
  const longPrefix = fnCall("exec_command", { cmd: "npm run build-all-the-packages-in-the-workspace", login: false, sandbox_permissions: "require_escalated", justification: "build", prefix_rule: ["npm", "run", "build-all-the-packages-in-the-workspace"] }, "c1");
  await withTui([turn(longPrefix), turn(text("built"))], { cols: 60, rows: 20 }, async ({ ui }) => {
    await send(ui, "build");
    const screen = await ui.waitFor("Run this command?");
    // Rows as wide as the screen, but not the header box's: its borders close every row, and a
    // long working directory (a long temporary folder) makes the box as wide as the screen.
    const cut = screen.split("\n").filter((r) => r.trimEnd().length >= 59 && !/^[╭│╰]/.test(r));
    for (const row of cut) assert.ok(row.trimEnd().endsWith("…") || /^─+$/.test(row.trim()), `cut without …: ${row}`);
    ui.write("y");
    await ui.waitFor("built");
  });
});

void test("resizing with a question open: no padded rows, no stale copies in the scrollback, blank lines stay single", async () => {
  const turns = [turn(text("First paragraph.\n\nSecond paragraph.")), turn(escalated("echo resized", "c1")), turn(text("done"))];
  await withTui(turns, { cols: 120, rows: 40 }, async ({ ui }) => {
    await send(ui, "a message long enough to wrap once the terminal gets narrower than it is now, for sure");
    await ui.waitFor("Second paragraph.");
    await send(ui, "now run it");
    await ui.waitFor("Run this command?");
    // No row is padded with spaces to the width.
    const { buffer } = ui.term;
    for (let i = 0; i < buffer.active.length; i++) {
      const line = buffer.active.getLine(i)?.translateToString(false) ?? "";
      assert.ok(line.length <= 120);
    }
    // eslint-disable-next-line no-control-regex
    assert.ok(!/ {20}\r?\n/.test(ui.output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")), "a row was padded");
    for (const [cols, rows] of [[70, 30], [100, 30], [60, 20]] as const) {
      ui.resize(cols, rows);
      await sleep(400);
    }
    ui.write("y");
    await ui.waitFor("done");
    const transcript = await ui.transcript();
    assert.equal(transcript.split("Run this command?").length - 1, 0, "a copy of the question stayed behind");
    assert.equal(transcript.split("Enter to send").length - 1, 1, "a copy of the composer stayed behind");
    // The blank line between the answer's paragraphs is still one line.
    assert.match(transcript, /First paragraph\.\n\n\s+Second paragraph\./);
  });
});
