/**
 * Undo through the core's seam: real turns (patches and commands from the scripted model) in
 * real git repositories and plain folders, then `undo`, `redo` and rollbacks of files, checked
 * against the disk and against the user's repository state (index, HEAD, refs, stash, objects).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { inflateSync } from "node:zlib";
import { join } from "node:path";
import type { Event } from "../../src/protocol/events.js";
import type { Op } from "../../src/protocol/ops.js";
import { sandboxPolicyFor } from "../../src/protocol/policy.js";
import { DEFAULT_LIMITS } from "../../src/undo/exclusions.js";
import type { Session } from "../../src/core/session.js";
import { customCall, fnCall, inputTexts, startModelServer, text, turn, type ModelServer, type ScriptedTurn } from "../support/model-server.js";
import { newSession, until, type SessionOverrides } from "../support/session.js";
import { recordedSession, resumedSession } from "../support/recorded-session.js";
import { baseUrlArgs, makeWorkspace, runCli } from "../support/cli.js";

const UNDO = { undo: { limits: DEFAULT_LIMITS, quiet: false } };

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8" });
}

/** A repository with history, uncommitted work, a staged change, a binary file and a link. */
function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-repo-"));
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "a.txt"), "one\ntwo\nthree\n");
  writeFileSync(join(dir, "del.txt"), "to be deleted\n");
  writeFileSync(join(dir, "staged.txt"), "committed\n");
  writeFileSync(join(dir, "bin.dat"), Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]));
  writeFileSync(join(dir, "run.sh"), "#!/bin/sh\necho hi\n");
  chmodSync(join(dir, "run.sh"), 0o755);
  symlinkSync("a.txt", join(dir, "link"));
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "init");
  git(dir, "stash", "list");
  // The user's own work: a change staged, another not, a file never added.
  writeFileSync(join(dir, "staged.txt"), "staged by the user\n");
  git(dir, "add", "staged.txt");
  writeFileSync(join(dir, "staged.txt"), "staged by the user\nthen edited\n");
  writeFileSync(join(dir, "a.txt"), "one\ntwo\nthree\nuser line\n");
  writeFileSync(join(dir, "notes.txt"), "the user's notes\n");
  return dir;
}

/** What of the user's repository an undo must leave alone. */
function repoState(dir: string): Record<string, string> {
  const objects = (): string => {
    const root = join(dir, ".git", "objects");
    return readdirSync(root).filter((d) => /^[0-9a-f]{2}$/.test(d)).map((d) => `${d}:${readdirSync(join(root, d)).length}`).join(",");
  };
  return {
    index: git(dir, "ls-files", "-s", "--debug").replace(/ctime.*\n|mtime.*\n|dev.*\n|uid.*\n|size.*\n/g, ""),
    staged: git(dir, "diff", "--cached"),
    head: git(dir, "rev-parse", "HEAD"),
    refs: git(dir, "for-each-ref"),
    stash: git(dir, "stash", "list"),
    objects: objects(),
  };
}

/** Files under `dir` (not .git): path → content, or `-> target` for links, with `*` for executables. */
function tree(dir: string, rel = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, rel)).sort()) {
    if (name === ".git") continue;
    const path = rel === "" ? name : `${rel}/${name}`;
    const stats = lstatSync(join(dir, path));
    if (stats.isSymbolicLink()) out[path] = `-> ${readlinkSync(join(dir, path))}`;
    else if (stats.isDirectory()) Object.assign(out, tree(dir, path));
    else out[path] = readFileSync(join(dir, path)).toString("base64") + ((stats.mode & 0o100) !== 0 ? "*" : "");
  }
  return out;
}

const PATCH = [
  "*** Begin Patch",
  "*** Update File: a.txt",
  "@@",
  " two",
  "-three",
  "+THREE",
  "*** Add File: sub/new.txt",
  "+created by the turn",
  "*** Delete File: del.txt",
  "*** End Patch",
  "",
].join("\n");

/** A turn that patches, creates, deletes, rewrites a binary file, replaces a link and drops an executable bit. */
function busyTurn(): ScriptedTurn[] {
  const cmd = "printf 'made' > made.txt && rm run.sh.bak 2>/dev/null; printf '\\001\\002' > bin.dat && rm link && ln -s del.txt link && chmod -x run.sh && mkdir -p deep/er && echo x > deep/er/f.txt";
  return [turn(customCall("apply_patch", PATCH, "p1"), fnCall("exec_command", { cmd, yield_time_ms: 10000 }, "c1")), turn(text("done"))];
}

async function run(session: Session, op: Op): Promise<Event[]> {
  const id = session.submit(op);
  const type = op.type === "user_turn" ? "task_complete" : op.type === "thread_rollback" && op.restore === "code" ? "undo_completed" : op.type === "thread_rollback" ? "thread_rolled_back" : "undo_completed";
  return until(session, id, type);
}

function completed(events: Event[]): Extract<Event["msg"], { type: "undo_completed" }> {
  const found = events.findLast((e) => e.msg.type === "undo_completed")?.msg;
  assert.ok(found && found.type === "undo_completed", "an undo_completed event");
  return found;
}

async function withUndoSession(cwd: string, turns: ScriptedTurn[], body: (session: Session, server: ModelServer) => Promise<void>, overrides: SessionOverrides = {}): Promise<void> {
  const server = await startModelServer(turns);
  const session = newSession(server, { ...UNDO, ...overrides, settings: { cwd, ...overrides.settings } });
  try {
    await body(session, server);
  } finally {
    session.submit({ type: "shutdown" });
    await server.close();
  }
}

/** A turn whose patch creates `name`. */
const writeTurn = (name: string): ScriptedTurn[] => [turn(customCall("apply_patch", `*** Begin Patch\n*** Add File: ${name}\n+x\n*** End Patch\n`, "p1")), turn(text("written"))];

const userTurn = (text: string): Op => ({ type: "user_turn", items: [{ type: "text", text }] });

void test("undo puts back exactly what a turn of patches and commands changed, and leaves the user's repository state alone", async () => {
  const dir = repo();
  const before = tree(dir);
  const state = repoState(dir);
  await withUndoSession(dir, busyTurn(), async (session) => {
    await run(session, userTurn("change things"));
    const changed = tree(dir);
    assert.equal(changed["made.txt"], Buffer.from("made").toString("base64"));
    assert.equal(changed["link"], "-> del.txt");
    assert.equal(changed["del.txt"], undefined);

    const undone = await run(session, { type: "undo" });
    const done = completed(undone);
    assert.equal(done.success, true, done.message ?? "");
    assert.deepEqual(done.restored, ["a.txt", "bin.dat", "deep/er/f.txt", "del.txt", "link", "made.txt", "run.sh", "sub/new.txt"]);
    assert.ok(undone.some((e) => e.msg.type === "undo_started"));
    assert.deepEqual(tree(dir), before, "the working tree is as it was before the turn");
    assert.equal(existsSync(join(dir, "sub")), false, "folders the turn made are gone");
    assert.equal(existsSync(join(dir, "deep")), false);
    assert.deepEqual(repoState(dir), state, "index, HEAD, refs, stash and .git/objects unchanged");

    const redone = completed(await run(session, { type: "redo" }));
    assert.equal(redone.success, true, redone.message ?? "");
    assert.deepEqual(tree(dir), changed, "redo puts the turn's changes back");
    assert.deepEqual(repoState(dir), state);

    const again = completed(await run(session, { type: "redo" }));
    assert.equal(again.success, false);
    assert.match(again.message ?? "", /Nothing to redo/);
  });
});

void test("a file changed by hand after the turn is named and kept until the user confirms", async () => {
  const dir = repo();
  await withUndoSession(dir, busyTurn(), async (session) => {
    await run(session, userTurn("change things"));
    writeFileSync(join(dir, "a.txt"), "the user's own edit\n");
    const refused = completed(await run(session, { type: "undo" }));
    assert.equal(refused.success, false);
    assert.deepEqual(refused.conflicts, ["a.txt"]);
    assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "the user's own edit\n", "nothing overwritten");
    assert.ok(existsSync(join(dir, "made.txt")), "nothing else restored either");

    const forced = completed(await run(session, { type: "undo", overwrite: ["a.txt"] }));
    assert.equal(forced.success, true, forced.message ?? "");
    assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "one\ntwo\nthree\nuser line\n");
  });
});

void test("undo takes back the last turn that changed files, turn by turn; turns that changed nothing are skipped", async () => {
  const dir = repo();
  const start = tree(dir);
  const turns = [
    turn(fnCall("exec_command", { cmd: "echo first > first.txt" }, "c1")),
    turn(text("ok")),
    turn(text("just talking")),
    turn(fnCall("exec_command", { cmd: "echo second > second.txt && echo more >> first.txt" }, "c2")),
    turn(text("ok")),
  ];
  await withUndoSession(dir, turns, async (session) => {
    await run(session, userTurn("one"));
    const afterFirst = tree(dir);
    await run(session, userTurn("talk"));
    await run(session, userTurn("two"));
    assert.equal(completed(await run(session, { type: "undo" })).success, true);
    assert.deepEqual(tree(dir), afterFirst);
    assert.equal(completed(await run(session, { type: "undo" })).success, true);
    assert.deepEqual(tree(dir), start);
    const none = completed(await run(session, { type: "undo" }));
    assert.equal(none.success, false);
    assert.match(none.message ?? "", /Nothing to undo/);
  });
});

void test("outside a git repository, a folder snapshot and patch copies make undo work the same", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-plain-"));
  writeFileSync(join(dir, "a.txt"), "one\ntwo\nthree\n");
  writeFileSync(join(dir, "del.txt"), "to be deleted\n");
  writeFileSync(join(dir, "bin.dat"), Buffer.from([0, 1, 2, 255]));
  writeFileSync(join(dir, "run.sh"), "#!/bin/sh\n");
  chmodSync(join(dir, "run.sh"), 0o755);
  symlinkSync("a.txt", join(dir, "link"));
  const outside = mkdtempSync(join(tmpdir(), "codex-ts-undo-outside-"));
  writeFileSync(join(outside, "o.txt"), "outside before\n");
  const before = tree(dir);
  const patchOutside = `*** Begin Patch\n*** Update File: ${join(outside, "o.txt")}\n@@\n-outside before\n+outside after\n*** End Patch\n`;
  const turns = [turn(customCall("apply_patch", PATCH.replace("sub/new.txt", "new.txt"), "p1"), customCall("apply_patch", patchOutside, "p2")), ...busyTurn()];
  await withUndoSession(dir, turns, async (session) => {
    await run(session, userTurn("change things"));
    assert.equal(readFileSync(join(outside, "o.txt"), "utf8"), "outside after\n");
    assert.ok(existsSync(join(dir, "made.txt")));
    const done = completed(await run(session, { type: "undo" }));
    assert.equal(done.success, true, done.message ?? "");
    assert.ok(done.restored?.includes(join(outside, "o.txt")), "a file outside the folder, written by a patch, is named by its full path");
    assert.deepEqual(tree(dir), before);
    assert.equal(readFileSync(join(outside, "o.txt"), "utf8"), "outside before\n");
  });
});

void test("a resumed session keeps the undo history: the recorded turn is undone, and the undo is remembered", async () => {
  const dir = repo();
  const before = tree(dir);
  const server = await startModelServer([...busyTurn()]);
  const home = mkdtempSync(join(tmpdir(), "codex-ts-undo-home-"));
  const options = { ...UNDO, codexHome: home, settings: { cwd: dir } };
  try {
    const { session, path } = recordedSession(server, options);
    await run(session, userTurn("change things"));
    session.submit({ type: "shutdown" });
    await until(session, "1", "shutdown_complete");
    const lines = readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; payload: { type: string; ghost_commit?: Record<string, unknown>; undo?: unknown } });
    const ghost = lines.find((l) => l.type === "response_item" && l.payload.type === "ghost_snapshot");
    assert.ok(ghost, "a ghost_snapshot response item was recorded");
    assert.deepEqual(Object.keys(ghost.payload.ghost_commit ?? {}), ["id", "parent", "preexisting_untracked_files", "preexisting_untracked_dirs"]);
    assert.equal(ghost.payload.ghost_commit?.parent, git(dir, "rev-parse", "HEAD").trim());
    assert.deepEqual(ghost.payload.ghost_commit?.preexisting_untracked_files, ["notes.txt"]);

    const resumed = resumedSession(server, path, options);
    const done = completed(await run(resumed, { type: "undo" }));
    assert.equal(done.success, true, done.message ?? "");
    assert.deepEqual(tree(dir), before);
    resumed.submit({ type: "shutdown" });
    await until(resumed, "1", "shutdown_complete");

    const again = resumedSession(server, path, options);
    const none = completed(await run(again, { type: "undo" }));
    assert.equal(none.success, false, "the undo was recorded: nothing is left to undo");
    const redone = completed(await run(again, { type: "redo" }));
    assert.equal(redone.success, true, redone.message ?? "");
    assert.ok(existsSync(join(dir, "made.txt")));
    again.submit({ type: "shutdown" });
  } finally {
    await server.close();
  }
});

void test("a rollback can restore the files, the conversation, or both", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-rollback-"));
  git(dir, "init", "-q");
  const turns = [
    turn(fnCall("exec_command", { cmd: "echo 1 > one.txt" }, "c1")),
    turn(text("ok")),
    turn(fnCall("exec_command", { cmd: "echo 2 > two.txt" }, "c2")),
    turn(text("ok")),
    turn(fnCall("exec_command", { cmd: "echo 3 > three.txt" }, "c3")),
    turn(text("ok")),
    turn(text("after")),
  ];
  await withUndoSession(dir, turns, async (session, server) => {
    await run(session, userTurn("first"));
    await run(session, userTurn("second"));
    await run(session, userTurn("third"));
    // Code only: the files of the last two turns go, the conversation stays.
    const code = await run(session, { type: "thread_rollback", num_turns: 2, restore: "code" });
    assert.equal(completed(code).success, true);
    assert.ok(!code.some((e) => e.msg.type === "thread_rolled_back"));
    assert.deepEqual(readdirSync(dir).filter((n) => n !== ".git").sort(), ["one.txt"]);
    // Conversation only: the files stay as they are.
    const conversation = await run(session, { type: "thread_rollback", num_turns: 1 });
    assert.ok(!conversation.some((e) => e.msg.type === "undo_started"));
    // Both, two messages back from "second": the first turn's file goes, and so do both messages.
    const both = await run(session, { type: "thread_rollback", num_turns: 2, restore: "both" });
    assert.equal(completed(both).success, true);
    assert.deepEqual(readdirSync(dir).filter((n) => n !== ".git"), []);
    await run(session, userTurn("after"));
    const typed = (server.requests.at(-1)?.body.input ?? []).flatMap((item) => (item.role === "user" ? inputTexts([item]) : []));
    assert.deepEqual(typed.filter((t) => !t.startsWith("<")), ["after"], "the conversation holds only the new message");
  });
});

void test("a restore never writes through a link that replaced a folder, and stays inside the writable folders", async () => {
  const dir = repo();
  const outside = mkdtempSync(join(tmpdir(), "codex-ts-undo-escape-"));
  const turns = [turn(fnCall("exec_command", { cmd: "mkdir -p sub && echo inside > sub/f.txt" }, "c1")), turn(text("ok"))];
  await withUndoSession(
    dir,
    turns,
    async (session) => {
      await run(session, userTurn("make sub/f.txt"));
      // After the turn, the folder becomes a link to somewhere else, holding a file of that name.
      rmSync(join(dir, "sub"), { recursive: true });
      writeFileSync(join(outside, "f.txt"), "inside\n");
      symlinkSync(outside, join(dir, "sub"));
      const result = completed(await run(session, { type: "undo", overwrite: ["sub/f.txt"] }));
      assert.equal(result.success, false);
      assert.match(result.message ?? "", /sub is a link now/);
      assert.equal(readFileSync(join(outside, "f.txt"), "utf8"), "inside\n", "the file behind the link is untouched");
    },
    { settings: { sandboxPolicy: sandboxPolicyFor("workspace-write") } },
  );

  const readOnly = repo();
  await withUndoSession(
    readOnly,
    [turn(fnCall("exec_command", { cmd: "echo x > x.txt && echo y > y.txt" }, "c1")), turn(text("ok"))],
    async (session) => {
      await run(session, userTurn("write"));
      session.submit({ type: "override_turn_context", sandbox_policy: sandboxPolicyFor("read-only") });
      const refused = completed(await run(session, { type: "undo" }));
      assert.equal(refused.success, false);
      assert.match(refused.message ?? "", /may not write x\.txt, y\.txt \(the session is read-only/, "one reason for the paths it shares");
      assert.ok(existsSync(join(readOnly, "x.txt")));
    },
  );
});

void test("denied paths are never copied into snapshots nor restored; large untracked files and folders are left out", async () => {
  const dir = repo();
  mkdirSync(join(dir, "secret"));
  writeFileSync(join(dir, "secret", "key.pem"), "PRIVATE KEY\n");
  writeFileSync(join(dir, "big.bin"), Buffer.alloc(2048, 1));
  mkdirSync(join(dir, "many"));
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, "many", `f${i}.txt`), `${i}\n`);
  const home = mkdtempSync(join(tmpdir(), "codex-ts-undo-home-"));
  const server = await startModelServer([turn(fnCall("exec_command", { cmd: "echo changed > big.bin; echo changed > many/f0.txt; echo new > kept.txt" }, "c1")), turn(text("ok"))]);
  try {
    const { session } = recordedSession(server, {
      codexHome: home,
      undo: { limits: { largeFileBytes: 1024, largeDirFiles: 5 }, quiet: false },
      fileSystemRules: { paths: [{ path: join(dir, "secret"), access: "none" }], denyGlobs: [], globScanMaxDepth: null, searchRoots: [dir] },
      settings: { cwd: dir },
    });
    const events = await run(session, userTurn("change"));
    const warnings = events.flatMap((e) => (e.msg.type === "warning" ? [e.msg.message] : []));
    assert.ok(warnings.some((w) => w.includes("many/") && w.includes("big.bin")), `a warning names what was left out: ${warnings.join(" | ")}`);
    const done = completed(await run(session, { type: "undo" }));
    assert.equal(done.success, true, done.message ?? "");
    assert.deepEqual(done.restored, ["kept.txt"], "only what snapshots hold is restored");
    assert.equal(readFileSync(join(dir, "big.bin"), "utf8"), "changed\n");
    assert.ok(!storedContents(join(home, "undo")).some((c) => c.includes("PRIVATE KEY")), "no copy of the denied file in undo's store");
    session.submit({ type: "shutdown" });
  } finally {
    await server.close();
  }
});

/** Every file undo stored (git's loose objects inflated), as text. */
function storedContents(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    if (!lstatSync(path).isFile()) continue;
    const bytes = readFileSync(path);
    out.push(/objects\/[0-9a-f]{2}\//.test(path) ? inflateSync(bytes).toString("latin1") : bytes.toString("latin1"));
  }
  return out;
}

void test("a thread's undo data goes with its session: `delete` removes it, and a session file deleted by hand leaves it for the next sweep", async () => {
  const ws = makeWorkspace({ git: false });
  const server = await startModelServer([...writeTurn("a.txt"), ...writeTurn("b.txt"), ...writeTurn("c.txt")]);
  const exec = async (): Promise<string> => {
    const result = await runCli(["exec", "--json", "--skip-git-repo-check", "-s", "workspace-write", ...baseUrlArgs(server.url), "write a file"], { cwd: ws.dir, home: ws.home });
    assert.equal(result.code, 0, result.stderr);
    const started = result.stdout.split("\n").map((l) => (l ? (JSON.parse(l) as { type: string; thread_id?: string }) : null)).find((e) => e?.type === "thread.started");
    return String(started?.thread_id);
  };
  const stores = (): string[] => (existsSync(join(ws.home, "undo")) ? readdirSync(join(ws.home, "undo")).sort() : []);
  try {
    const first = await exec();
    assert.deepEqual(stores(), [first]);
    const deleted = await runCli(["delete", "--force", first], { cwd: ws.dir, home: ws.home });
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(stores(), [], "deleted with its session");

    const second = await exec();
    const sessionFile = readdirSync(join(ws.home, "sessions"), { recursive: true, encoding: "utf8" }).find((f) => f.endsWith(".jsonl") && f.includes(second));
    assert.ok(sessionFile);
    rmSync(join(ws.home, "sessions", sessionFile));
    const third = await exec();
    assert.deepEqual(stores(), [third], "the orphaned folder was swept by the next session");
  } finally {
    await server.close();
  }
});
