/**
 * Lifecycle hooks through `codex-ts app-server`, every message checked against the reference's
 * schema: `hooks/list` shows a thread's hooks (or a folder's) with their trust, a `config/batchWrite` of
 * `hooks.state` trusts one (as a remote UI's /hooks does), and its runs then come as
 * `hook/started` / `hook/completed` notifications while the block reaches the model.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServerClient, assertNoViolations } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { command, writeHooksJson } from "../support/hooks.js";
import { fnCall, startModelServer, text, turn } from "../support/model-server.js";

type Json = Record<string, unknown>;

void test("hooks/list, trust saved with config/batchWrite, and a blocking hook's run as hook/started and hook/completed", async () => {
  const ws = makeWorkspace();
  const server = await startModelServer([turn(fnCall("exec_command", { cmd: "rm -rf build" }, "call_1")), turn(text("left it"))]);
  writeFileSync(join(ws.home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  writeHooksJson(ws.home, {
    PreToolUse: [{ matcher: "Bash", hooks: [command("grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0", { statusMessage: "checking" })] }],
  });
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await client.initialize();
    const threadId = String(((await client.request("thread/start", { cwd: ws.dir, approvalPolicy: "never", sandbox: "workspace-write" })).thread as Json).id);

    const listed = ((await client.request("hooks/list", { threadId })).data as Json[])[0] as Json;
    assert.equal(listed.cwd, ws.dir);
    const [hook] = listed.hooks as Json[];
    assert.equal(hook?.eventName, "preToolUse");
    assert.equal(hook?.matcher, "Bash");
    assert.equal(hook?.source, "user");
    assert.equal(hook?.trustStatus, "untrusted");
    assert.match(String(hook?.currentHash), /^sha256:[0-9a-f]{64}$/);
    // By folder: what a session started there would find, the same hook with the same key.
    const byFolder = ((await client.request("hooks/list", { cwds: [ws.dir] })).data as Json[])[0] as Json;
    assert.equal(byFolder.cwd, ws.dir);
    assert.deepEqual(((byFolder.hooks as Json[])[0] as Json).key, hook?.key);
    await assert.rejects(client.request("hooks/list", { threadId, cwds: [ws.dir] }), /do not go together/);
    const warned = client.received.filter((m) => m.method === "warning").map((m) => String((m.params as Json).message));
    const waiting = warned.find((w) => /1 hook is new or changed and will not run until trusted/.test(w));
    // It says how a client trusts it, and names no command-line flag the app-server does not take.
    assert.match(String(waiting), /trusted: your client can list it \(hooks\/list\) and trust it \(config\/batchWrite of hooks\.state\)/, warned.join("\n"));
    assert.doesNotMatch(String(waiting), /--dangerously-bypass-hook-trust/);

    await client.request("config/batchWrite", { edits: [{ keyPath: "hooks.state", value: { [String(hook?.key)]: { trusted_hash: hook?.currentHash } }, mergeStrategy: "upsert" }] });
    assert.match(readFileSync(join(ws.home, "config.toml"), "utf8"), /trusted_hash = "sha256:/);
    const relisted = ((await client.request("hooks/list", { threadId })).data as Json[])[0] as Json;
    assert.equal(((relisted.hooks as Json[])[0] as Json).trustStatus, "trusted");
    const folderAgain = ((await client.request("hooks/list", { cwds: [ws.dir] })).data as Json[])[0] as Json;
    assert.equal(((folderAgain.hooks as Json[])[0] as Json).trustStatus, "trusted");

    await client.request("turn/start", { threadId, input: [{ type: "text", text: "clean up", text_elements: [] }] });
    const started = await client.nextMethod("hook/started");
    assert.equal(started.params.threadId, threadId);
    const run = started.params.run as Json;
    assert.equal(run.eventName, "preToolUse");
    assert.equal(run.status, "running");
    assert.equal(run.statusMessage, "checking");
    const completed = (await client.nextMethod("hook/completed")).params.run as Json;
    assert.equal(completed.id, run.id);
    assert.equal(completed.status, "blocked");
    assert.deepEqual(completed.entries, [{ kind: "feedback", text: "no rm -rf here" }]);
    await client.nextMethod("turn/completed");
    const output = server.requests[1]?.body.input?.find((i) => i.type === "function_call_output");
    assert.equal(output?.output, "Command blocked by PreToolUse hook: no rm -rf here. Command: rm -rf build");
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
});
