/**
 * Undo over the app-server (codex-ts's `thread/undo`, `thread/redo`, and `thread/rollback` with
 * `restore`): a real turn patches a git repository, and a client takes it back, puts it back, and
 * rolls back files and conversation, being told about a file changed by hand before it is
 * overwritten. Every message is checked against the reference's schema (our additions as JSON-RPC).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServerClient, RpcErrorResponse, assertNoViolations } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { customCall, startModelServer, text, turn } from "../support/model-server.js";

type Json = Record<string, unknown>;

const git = (cwd: string, ...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8" });

const PATCH = ["*** Begin Patch", "*** Update File: a.txt", "@@", "-one", "+ONE", "*** Add File: new.txt", "+made by the turn", "*** Delete File: del.txt", "*** End Patch", ""].join("\n");

void test("app-server: thread/undo and thread/redo put a turn's files back and forth; thread/rollback with restore asks before overwriting a hand edit", async () => {
  const ws = makeWorkspace({ git: false });
  const dir = ws.dir;
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "a.txt"), "one\n");
  writeFileSync(join(dir, "del.txt"), "doomed\n");
  writeFileSync(join(dir, "staged.txt"), "committed\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "init");
  writeFileSync(join(dir, "staged.txt"), "the user's staged change\n");
  git(dir, "add", "staged.txt");
  const index = git(dir, "diff", "--cached");
  const head = git(dir, "rev-parse", "HEAD");

  const server = await startModelServer([turn(customCall("apply_patch", PATCH, "p1")), turn(text("Patched."))]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const client = AppServerClient.spawn({ cwd: dir, home: ws.home });
  try {
    await client.initialize();
    const started = await client.request("thread/start", { cwd: dir, sandbox: "workspace-write", approvalPolicy: "never" });
    const threadId = String((started.thread as Json).id);
    await client.request("turn/start", { threadId, input: [{ type: "text", text: "patch it", text_elements: [] }] });
    await client.nextMethod("turn/completed");
    assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "ONE\n");
    assert.equal(existsSync(join(dir, "del.txt")), false);

    const undone = await client.request("thread/undo", { threadId });
    assert.equal(undone.success, true, String(undone.message));
    assert.equal(undone.action, "undo");
    assert.deepEqual([...(undone.restored as string[])].sort(), ["a.txt", "del.txt", "new.txt"]);
    assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "one\n");
    assert.equal(readFileSync(join(dir, "del.txt"), "utf8"), "doomed\n");
    assert.equal(existsSync(join(dir, "new.txt")), false);
    assert.equal(git(dir, "diff", "--cached"), index, "the user's staged change is untouched");
    assert.equal(git(dir, "rev-parse", "HEAD"), head);

    const redone = await client.request("thread/redo", { threadId });
    assert.equal(redone.success, true, String(redone.message));
    assert.equal(readFileSync(join(dir, "new.txt"), "utf8"), "made by the turn\n");
    const nothing = await client.request("thread/redo", { threadId });
    assert.equal(nothing.success, false, "nothing left to redo is an answer, not an error");

    // A hand edit after the turn: the rollback names it and does nothing, conversation included.
    writeFileSync(join(dir, "a.txt"), "ONE\nmine\n");
    const refused = await client.call("thread/rollback", { threadId, numTurns: 1, restore: "both" });
    const error = refused.error as { message: string; data?: { files?: Json } };
    assert.ok(error, "the rollback fails");
    assert.deepEqual(error.data?.files?.conflicts, ["a.txt"]);
    assert.match(error.message, /changed since[\s\S]*a\.txt/, "the message names the file too");
    assert.equal(readFileSync(join(dir, "new.txt"), "utf8"), "made by the turn\n", "nothing was restored");
    const read = await client.request("thread/read", { threadId, includeTurns: true });
    assert.equal(((read.thread as Json).turns as Json[]).length, 1, "the conversation stayed too");

    const rolled = await client.request("thread/rollback", { threadId, numTurns: 1, restore: "both", overwrite: ["a.txt"] });
    assert.equal(((rolled.thread as Json).turns as Json[]).length, 0);
    assert.deepEqual([...((rolled.files as Json).restored as string[])].sort(), ["a.txt", "del.txt", "new.txt"]);
    assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "one\n");
    assert.equal(existsSync(join(dir, "new.txt")), false);
    assert.equal(git(dir, "diff", "--cached"), index);

    await assert.rejects(client.request("thread/rollback", { threadId, numTurns: 1, restore: "everything" }), (err: RpcErrorResponse) => /unknown variant "everything" for `restore`/.test(err.message));
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
});
