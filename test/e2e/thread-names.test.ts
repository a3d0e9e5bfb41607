/**
 * Thread names and the session commands around them, as the reference has them: `/rename` in the
 * UI writes `$CODEX_HOME/session_index.jsonl` (the reference's file and line shape), `resume NAME
 * PROMPT` opens the thread and sends the prompt, `archive` / `unarchive` / `delete` move or remove
 * the file by id or name, and `--last` and names skip exec runs unless `--include-non-interactive`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { exec, jsonLines, makeWorkspace, runCli, tuiArgs, withServer, type Workspace } from "../support/cli.js";
import { startModelServer, text, turn, type ScriptedTurn } from "../support/model-server.js";
import { KEY, PtySession } from "../support/pty.js";
import { rolloutFileOf, rolloutFiles } from "../support/rollout.js";

async function tui(ws: Workspace, turns: ScriptedTurn[], args: string[], body: (ui: PtySession, requests: () => string[]) => Promise<void>): Promise<void> {
  const server = await startModelServer(turns);
  const ui = new PtySession([...tuiArgs(server.url), ...args], { cwd: ws.dir, home: ws.home, cols: 100, rows: 30 });
  try {
    await body(ui, () => server.requests.map((r) => JSON.stringify(r.body.input)));
    assert.deepEqual(server.violations, []);
  } finally {
    ui.kill();
    await server.close();
  }
}

const indexLines = (ws: Workspace): Array<Record<string, unknown>> =>
  readFileSync(join(ws.home, "session_index.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Writes a session_index.jsonl line exactly as the reference 0.169 does. */
const referenceNames = (ws: Workspace, id: string, name: string): void =>
  appendFileSync(join(ws.home, "session_index.jsonl"), `${JSON.stringify({ id, thread_name: name, updated_at: "2026-11-26T10:04:11.191026139Z" })}\n`);

void test("/rename names the conversation in session_index.jsonl; resume NAME PROMPT opens it and sends the prompt", async () => {
  const ws = makeWorkspace();
  let id = "";
  await tui(ws, [turn(text("first answer"))], [], async (ui) => {
    await ui.waitFor("Enter to send");
    await ui.type("remember the number 42");
    ui.write(KEY.enter);
    await ui.waitFor("first answer");
    await ui.type("/rename release notes");
    ui.write(KEY.enter);
    await ui.waitFor("codex-ts resume 'release notes'");
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
  });
  const entries = indexLines(ws);
  assert.equal(entries.length, 1);
  id = String(entries[0]?.id);
  assert.deepEqual(Object.keys(entries[0] ?? {}), ["id", "thread_name", "updated_at"]);
  assert.equal(entries[0]?.thread_name, "release notes");
  assert.ok(existsSync(rolloutFileOf(ws.home, id)));

  await tui(ws, [turn(text("it was 42"))], ["resume", "release notes", "what was the number?"], async (ui, requests) => {
    await ui.waitFor("it was 42");
    assert.match(requests()[0] ?? "", /remember the number 42[\s\S]*first answer[\s\S]*what was the number\?/);
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
  });
  assert.equal(rolloutFiles(ws.home).length, 1, "the same thread continued, no new file");
});

void test("archive, unarchive and delete by name or id move the file where the reference keeps it", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("one")), turn(text("two"))], async (server) => {
    const first = await exec(server, ["--json", "hello"], { cwd: ws.dir, home: ws.home });
    const id = String(jsonLines(first.stdout).find((e) => e.type === "thread.started")?.thread_id);
    const file = rolloutFileOf(ws.home, id);
    referenceNames(ws, id, "exec run");

    // A name only finds threads a person drove; this one came from exec.
    const byName = await runCli(["archive", "exec run"], { cwd: ws.dir, home: ws.home });
    assert.equal(byName.code, 1);
    assert.match(byName.stderr, /no active session matching 'exec run'/);
    // exec's own resume finds every thread by name.
    const resumed = await exec(server, ["--json", "resume", "exec run", "again"], { cwd: ws.dir, home: ws.home });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(jsonLines(resumed.stdout).find((e) => e.type === "thread.started")?.thread_id, id);

    const archived = await runCli(["archive", id], { cwd: ws.dir, home: ws.home });
    assert.equal(archived.code, 0, archived.stderr);
    assert.equal(archived.stdout, `Archived session ${id}.\n`);
    assert.equal(existsSync(file), false);
    assert.deepEqual(readdirSync(join(ws.home, "archived_sessions")), [basename(file)]);
    const listed = await runCli(["sessions", "--json"], { cwd: ws.dir, home: ws.home });
    assert.deepEqual(JSON.parse(listed.stdout), [], "an archived thread is out of listings");
    const resumeArchived = await exec(server, ["resume", id, "x"], { cwd: ws.dir, home: ws.home });
    assert.match(resumeArchived.stderr, /is archived; `codex-ts unarchive/);

    const back = await runCli(["unarchive", id], { cwd: ws.dir, home: ws.home });
    assert.equal(back.code, 0, back.stderr);
    assert.ok(existsSync(file), "back in its dated folder");

    const noTty = await runCli(["delete", id], { cwd: ws.dir, home: ws.home });
    assert.equal(noTty.code, 1);
    assert.match(noTty.stderr, /pass --force and the session's id/);
    const forcedName = await runCli(["delete", "--force", "exec run"], { cwd: ws.dir, home: ws.home });
    assert.match(forcedName.stderr, /--force takes a session id/);
    assert.ok(existsSync(file));
    const deleted = await runCli(["delete", "--force", id], { cwd: ws.dir, home: ws.home });
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(existsSync(file), false);
  });
});

void test("delete asks at a terminal, by name, and n keeps the thread", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("one"))], async (server) => {
    const first = await exec(server, ["--json", "hello"], { cwd: ws.dir, home: ws.home });
    const id = String(jsonLines(first.stdout).find((e) => e.type === "thread.started")?.thread_id);
    // The reference's IDE front end ("vscode") counts as interactive.
    const file = rolloutFileOf(ws.home, id);
    const text0 = readFileSync(file, "utf8").replace('"source":"exec"', '"source":"vscode"');
    (await import("node:fs")).writeFileSync(file, text0);
    referenceNames(ws, id, "ide thread");
    const ask = async (answer: string): Promise<string> => {
      const ui = new PtySession(["delete", "ide thread"], { cwd: ws.dir, home: ws.home });
      try {
        await ui.waitFor("[y/N]");
        ui.write(`${answer}\r`);
        await ui.exit();
        return ui.output;
      } finally {
        ui.kill();
      }
    };
    assert.match(await ask("n"), /Nothing deleted/);
    assert.ok(existsSync(file));
    assert.match(await ask("y"), new RegExp(`Deleted session ide thread \\(${id}\\)`));
    assert.equal(existsSync(file), false);
  });
});

void test("resume --last skips exec runs unless --include-non-interactive", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("exec answer"))], async (server) => {
    assert.equal((await exec(server, ["hello from exec"], { cwd: ws.dir, home: ws.home })).code, 0);
  });
  await tui(ws, [], ["resume", "--last"], async (ui) => {
    await ui.waitFor("Enter to send");
    // The notice names the folder, so it wraps where the temporary folder is long.
    await ui.waitFor(/No recorded session in [\s\S]*?to\s+resume;\s+starting\s+a\s+new\s+one/);
    ui.write(KEY.ctrlD);
    await ui.exit();
  });
  await tui(ws, [], ["resume", "--last", "--include-non-interactive"], async (ui) => {
    await ui.waitFor("exec answer");
    ui.write(KEY.ctrlD);
    await ui.exit();
  });
});
