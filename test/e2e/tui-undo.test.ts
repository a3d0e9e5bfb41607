/**
 * Undo as a user meets it, in a real terminal: a turn patches, creates and deletes files in a
 * git repository holding the user's own uncommitted and staged work; `/undo` puts the working
 * tree back exactly, names the paths, and leaves the user's index and refs as they were;
 * `/redo` puts the turn's changes back; Esc Esc offers to restore the files with the message.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseUrlArgs, makeWorkspace } from "../support/cli.js";
import { customCall, fnCall, text, turn } from "../support/model-server.js";
import { KEY } from "../support/pty.js";
import { READY, send, withTui } from "../support/tui.js";

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8" });
}

/** A repository with a commit, a staged change on top of it and an untracked file of the user's. */
function userRepo(): { dir: string; home: string } {
  const ws = makeWorkspace({ git: false });
  git(ws.dir, "init", "-q", "-b", "main");
  writeFileSync(join(ws.dir, "keep.txt"), "alpha\nbeta\n");
  writeFileSync(join(ws.dir, "gone.txt"), "will be deleted\n");
  writeFileSync(join(ws.dir, "staged.txt"), "v1\n");
  git(ws.dir, "add", "-A");
  git(ws.dir, "commit", "-q", "-m", "init");
  writeFileSync(join(ws.dir, "staged.txt"), "v2, staged\n");
  git(ws.dir, "add", "staged.txt");
  writeFileSync(join(ws.dir, "notes.txt"), "mine\n");
  return ws;
}

/** The user's repository state that undo must not touch. */
const repoState = (dir: string): string[] => [git(dir, "ls-files", "-s"), git(dir, "diff", "--cached"), git(dir, "rev-parse", "HEAD"), git(dir, "for-each-ref"), git(dir, "stash", "list")];

const PATCH = "*** Begin Patch\n*** Update File: keep.txt\n@@\n alpha\n-beta\n+BETA\n*** Add File: made/new.txt\n+new file\n*** Delete File: gone.txt\n*** End Patch\n";
const serverArgs = (url: string): string[] => [...baseUrlArgs(url), "-s", "workspace-write", "-a", "never"];

void test("/undo puts back a turn that patched, created and deleted files, exactly, with the user's index and refs unchanged; /redo reverses it", async () => {
  const ws = userRepo();
  const before = repoState(ws.dir);
  const turns = [turn(customCall("apply_patch", PATCH, "p1"), fnCall("exec_command", { cmd: "echo from-command > cmd.txt", login: false, yield_time_ms: 10_000 }, "c1")), turn(text("Changed the files."))];
  await withTui(turns, { ws, serverArgs, cols: 120, rows: 40 }, async ({ ui }) => {
    await send(ui, "change the files");
    await ui.waitFor("Changed the files.", { timeoutMs: 20_000 });
    await ui.waitFor(READY);
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "alpha\nBETA\n");
    assert.ok(!existsSync(join(ws.dir, "gone.txt")));

    await send(ui, "/undo");
    const undone = await ui.waitFor(/Undo[\s\S]*Restored 4 files\.[\s\S]*cmd\.txt[\s\S]*gone\.txt[\s\S]*keep\.txt[\s\S]*made\/new\.txt/, { timeoutMs: 15_000 });
    assert.doesNotMatch(undone, /notes\.txt|staged\.txt/, "the user's own files are not named");
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "alpha\nbeta\n");
    assert.equal(readFileSync(join(ws.dir, "gone.txt"), "utf8"), "will be deleted\n");
    assert.ok(!existsSync(join(ws.dir, "made")), "the folder the turn made is gone");
    assert.ok(!existsSync(join(ws.dir, "cmd.txt")));
    assert.equal(readFileSync(join(ws.dir, "staged.txt"), "utf8"), "v2, staged\n");
    assert.equal(readFileSync(join(ws.dir, "notes.txt"), "utf8"), "mine\n");
    assert.deepEqual(repoState(ws.dir), before, "index, staged change, HEAD, refs and stash as they were");

    await send(ui, "/redo");
    await ui.waitFor(/Redo[\s\S]*Put back 4 files\./, { timeoutMs: 15_000 });
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "alpha\nBETA\n");
    assert.equal(readFileSync(join(ws.dir, "made", "new.txt"), "utf8"), "new file\n");
    assert.deepEqual(repoState(ws.dir), before);
  });
});

void test("a file edited by hand after the turn is named; it is overwritten only after a yes", async () => {
  const ws = userRepo();
  const turns = [turn(customCall("apply_patch", PATCH, "p1")), turn(text("Patched."))];
  await withTui(turns, { ws, serverArgs, cols: 60, rows: 20 }, async ({ ui }) => {
    await send(ui, "patch");
    await ui.waitFor("Patched.", { timeoutMs: 20_000 });
    await ui.waitFor(READY);
    writeFileSync(join(ws.dir, "keep.txt"), "edited by hand\n");
    await send(ui, "/undo");
    await ui.waitFor(/Changed since the turn: keep\.txt\.[\s\S]*Yes, overwrite/, { timeoutMs: 15_000 });
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "edited by hand\n");
    ui.write("y");
    await ui.waitFor(/Restored 3 files\./, { timeoutMs: 15_000 });
    assert.equal(readFileSync(join(ws.dir, "keep.txt"), "utf8"), "alpha\nbeta\n");
  });
});

void test("Esc Esc with both: the files and the conversation go back to before the picked message", async () => {
  const ws = userRepo();
  const turns = [turn(fnCall("exec_command", { cmd: "echo one > one.txt", login: false }, "c1")), turn(text("First done.")), turn(fnCall("exec_command", { cmd: "echo two > two.txt", login: false }, "c2")), turn(text("Second done.")), turn(text("Fresh start."))];
  await withTui(turns, { ws, serverArgs, cols: 120, rows: 40 }, async ({ ui, server }) => {
    await send(ui, "first");
    await ui.waitFor("First done.", { timeoutMs: 20_000 });
    await ui.waitFor(READY);
    await send(ui, "second");
    await ui.waitFor("Second done.", { timeoutMs: 20_000 });
    await ui.waitFor(READY);
    // Two presses, as a person makes them (one write would read as a single Alt+Esc).
    ui.write(KEY.escape);
    await ui.waitFor("Press Esc again");
    ui.write(KEY.escape);
    await ui.waitFor("Go back to an earlier message");
    ui.write(KEY.enter); // the newest: "second"
    await ui.waitFor("Restore what to how it was before this message?");
    ui.write("b");
    await ui.waitFor(/Files restored[\s\S]*two\.txt/, { timeoutMs: 15_000 });
    await ui.waitFor(/^ second\s*$/m);
    assert.ok(existsSync(join(ws.dir, "one.txt")));
    assert.ok(!existsSync(join(ws.dir, "two.txt")));
    ui.write(KEY.enter);
    await ui.waitFor("Fresh start.", { timeoutMs: 20_000 });
    const sent = JSON.stringify(server.requests.at(-1)?.body.input ?? []);
    assert.equal(sent.split('"second"').length - 1, 1, "the message was sent again once, not twice");
  });
});
