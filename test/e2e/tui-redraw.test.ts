/**
 * A resumed session looks as it did live: the real CLI in a pseudo-terminal, read through a
 * headless terminal emulator, runs a session with an edit, a command the user refuses, one the
 * user interrupts, a call to a tool the model was not offered, a `!cmd`, a compaction and a last
 * exchange; then `resume --last` redraws it, and the two screens' conversations must match line
 * for line. The scripted model answers by what it was last sent, so a step that ends early (a
 * refusal that stops the turn) does not shift the steps after it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseUrlArgs, makeWorkspace, type Workspace } from "../support/cli.js";
import { customCall, fnCall, startModelServer, text, turn, type ModelServer, type RecordedRequest, type ScriptedOutput } from "../support/model-server.js";
import { KEY, PtySession, sleep } from "../support/pty.js";

const READY = "Enter to send";
/** The permissions chosen on the command line, so the folder's trust is not asked about. */
const PERMISSIONS = ["-a", "on-request", "-s", "workspace-write"];
const PATCH = "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello world\n*** End Patch\n";

/** Each prompt's steps: the first answers the prompt, each next one the previous call's output. */
const SCRIPTS: Record<string, ScriptedOutput[]> = {
  "edit a.txt": [customCall("apply_patch", PATCH, "call_patch"), text("I changed **a.txt**.")],
  "touch a system file": [fnCall("exec_command", { cmd: "touch /etc/codex-ts-refused", sandbox_permissions: "require_escalated", justification: "to show a refusal" }, "call_refused"), text("Understood, I left it alone.")],
  "count slowly": [fnCall("exec_command", { cmd: "echo counting; sleep 30" }, "call_slow"), text("never shown")],
  "make a plan": [fnCall("update_plan", { plan: [{ step: "not offered", status: "pending" }] }, "call_plan"), text("That tool is not available here; carrying on without it.")],
  "run it": [fnCall("exec_command", { cmd: "printf 'one\\ntwo\\nthree\\n'; exit 4" }, "call_failing"), text("It exited with 4.")],
};

function respond(request: RecordedRequest): ReturnType<typeof turn> {
  const input = request.body.input ?? [];
  const last = input[input.length - 1] ?? {};
  if (last.type === "function_call_output" || last.type === "custom_tool_call_output") {
    for (const steps of Object.values(SCRIPTS)) {
      const i = steps.findIndex((s) => "callId" in s && s.callId === last.call_id);
      const next = steps[i + 1];
      if (i >= 0 && next) return turn(next);
    }
    return turn(text("(nothing more)"));
  }
  const said = Array.isArray(last.content) ? (last.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("") : "";
  const steps = SCRIPTS[said.trim()];
  if (steps?.[0]) return turn(steps[0]);
  // The compaction's summary request, and the last exchange.
  return turn(text(said.startsWith("and finally") ? "All of it is in the file now." : "A short summary of the work so far."));
}

async function send(ui: PtySession, message: string): Promise<void> {
  await ui.type(message);
  ui.write(KEY.enter);
}

/** Waits for the composer's idle hint (a running turn shows another; a question hides it). */
async function idle(ui: PtySession): Promise<void> {
  await ui.waitFor(READY);
  await sleep(150);
}

/** Sends a message and waits until `shown` is on screen and the turn is over. */
async function exchange(ui: PtySession, message: string, shown: string | RegExp): Promise<void> {
  await send(ui, message);
  await ui.waitFor(shown);
  await idle(ui);
}

/** The conversation as the terminal holds it: from the first prompt to the last answer, trailing blanks dropped. */
function conversation(transcript: string): string[] {
  const lines = transcript.split("\n").map((l) => l.trimEnd());
  const first = lines.findIndex((l) => l.includes("› edit a.txt"));
  const last = lines.findLastIndex((l) => l.includes("All of it is in the file now."));
  assert.ok(first >= 0 && last > first, `conversation not found in:\n${transcript}`);
  return lines.slice(first, last + 1);
}

/** The conversation on screen, then a clean quit. */
async function conversationAtQuit(ui: PtySession): Promise<string[]> {
  const shown = conversation(await ui.transcript());
  ui.write(KEY.ctrlD);
  assert.equal(await ui.exit(), 0);
  return shown;
}

async function liveSession(ws: Workspace, server: ModelServer, size: { cols: number; rows: number }): Promise<string[]> {
  const ui = new PtySession([...baseUrlArgs(server.url), ...PERMISSIONS], { cwd: ws.dir, home: ws.home, ...size });
  try {
    await ui.waitFor(READY);
    await exchange(ui, "edit a.txt", "I changed");

    await send(ui, "touch a system file");
    await ui.waitFor(/touch \/etc\/codex-ts-refused/);
    await sleep(200);
    ui.write("n");
    await idle(ui);

    await send(ui, "count slowly");
    await ui.waitFor(/echo counting; sleep 30/);
    await sleep(800);
    ui.write(KEY.escape);
    await idle(ui);

    await exchange(ui, "make a plan", "carrying on without it");
    await exchange(ui, "run it", "It exited with 4.");
    await exchange(ui, "!echo from the user shell", /from the user shell[\s\S]*from the user shell/);
    // A slash command: once it is in the composer, Enter runs it.
    await ui.type("/compact");
    await ui.waitFor(/^\s*\/compact\s*$/m);
    ui.write(KEY.enter);
    await ui.waitFor(/compacted/i);
    await idle(ui);
    await exchange(ui, "and finally?", "All of it is in the file now.");
    return await conversationAtQuit(ui);
  } finally {
    ui.kill();
  }
}

async function resumedSession(ws: Workspace, server: ModelServer, size: { cols: number; rows: number }): Promise<string[]> {
  const ui = new PtySession([...baseUrlArgs(server.url), ...PERMISSIONS, "resume", "--last"], { cwd: ws.dir, home: ws.home, ...size });
  try {
    // The composer is drawn before the thread is open: wait for the redraw's last line.
    await ui.waitFor("All of it is in the file now.", { inTranscript: true });
    await ui.waitFor(READY);
    await sleep(300);
    return await conversationAtQuit(ui);
  } finally {
    ui.kill();
  }
}

for (const size of [{ cols: 120, rows: 40 }, { cols: 60, rows: 20 }]) {
  void test(`at ${size.cols}x${size.rows}, a resumed session redraws the conversation exactly as it was shown live`, async () => {
    const ws = makeWorkspace();
    writeFileSync(join(ws.dir, "a.txt"), "hello\n");
    const server = await startModelServer([], { respond });
    try {
      const live = await liveSession(ws, server, size);
      assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "hello world\n");
      const text = live.join("\n");
      // What happened is all on screen (so the comparison below compares something).
      assert.match(text, /Edited[\s\S]*a\.txt[\s\S]*hello world/);
      assert.match(text, /echo counting; sleep 30[\s\S]*Interrupted/);
      assert.match(text, /exit 4/);
      assert.match(text, /You ran[\s\S]*from the user shell/);
      assert.match(text, /compacted/i);
      assert.doesNotMatch(text, /not offered|Updated plan/);

      const resumed = await resumedSession(ws, server, size);
      assert.deepEqual(resumed, live);
      assert.deepEqual(server.violations, []);
    } finally {
      await server.close();
    }
  });
}

void test("Esc Esc backtracks: the terminal then holds the kept turns exactly as they were shown, and nothing of the dropped ones", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "a.txt"), "hello\n");
  const server = await startModelServer([], { respond });
  const ui = new PtySession([...baseUrlArgs(server.url), ...PERMISSIONS], { cwd: ws.dir, home: ws.home, cols: 100, rows: 30 });
  try {
    await ui.waitFor(READY);
    await exchange(ui, "edit a.txt", "I changed");
    await exchange(ui, "run it", "It exited with 4.");
    await exchange(ui, "make a plan", "carrying on without it");
    const before = (await ui.transcript()).split("\n").map((l) => l.trimEnd());
    const from = before.findIndex((l) => l.includes("› edit a.txt"));
    const upTo = before.findIndex((l) => l.includes("› run it"));
    const kept = before.slice(from, upTo);
    assert.ok(from >= 0 && upTo > from && kept.join("\n").includes("hello world"), before.join("\n"));

    ui.write(KEY.escape);
    await sleep(100);
    ui.write(KEY.escape);
    await ui.waitFor("Go back to an earlier message");
    ui.write(KEY.down); // newest first: the second message
    ui.write(KEY.enter);
    await ui.waitFor("Restore what to how it was before this message?");
    ui.write("c"); // the conversation only
    await ui.waitFor("Rolled back 2 turns");
    await sleep(200);
    const after = (await ui.transcript()).split("\n").map((l) => l.trimEnd());
    const start = after.findIndex((l) => l.includes("› edit a.txt"));
    const notice = after.findIndex((l) => l.includes("Rolled back 2 turns"));
    assert.deepEqual(after.slice(start, notice), kept);
    const text = after.join("\n");
    assert.doesNotMatch(text, /It exited with 4|carrying on without it|› make a plan/, "the dropped turns are gone from the terminal");
    assert.match((await ui.screen()).join("\n"), /^\s*run it\s*$/m, "the picked message is back in the composer");
    assert.deepEqual(server.violations, []);
  } finally {
    ui.kill();
    await server.close();
  }
});
