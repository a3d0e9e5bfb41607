/**
 * The app-server's other methods end to end over stdio, each answer checked against the
 * reference's schema: settings (models, config read and written in place, skills), the account
 * (an API key signed in and out), a command run under the sandbox, and what a thread goes
 * through besides turns: a name, steering, a fork, turns in pages, a rollback, archiving.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppServerClient, RpcErrorResponse, assertNoViolations } from "../support/app-server-client.js";
import { makeWorkspace } from "../support/cli.js";
import { startModelServer, text, turn } from "../support/model-server.js";

type Json = Record<string, unknown>;

async function withServer(turns: Parameters<typeof startModelServer>[0], body: (client: AppServerClient, ctx: { dir: string; home: string; server: Awaited<ReturnType<typeof startModelServer>> }) => Promise<void>): Promise<void> {
  const ws = makeWorkspace();
  const server = await startModelServer(turns);
  writeFileSync(join(ws.home, "config.toml"), `# my settings\nopenai_base_url = "${server.url}"\n`);
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await client.initialize();
    await body(client, { ...ws, server });
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
}

void test("settings: models, the config read and written in place (a value that breaks it is put back), skills", async () => {
  await withServer([], async (client, { home, dir }) => {
    const models = (await client.request("model/list", {})).data as Json[];
    assert.ok(models.some((m) => m.isDefault === true), "the configured model is the default");

    const written = await client.request("config/value/write", { keyPath: "tui.notifications", value: true, mergeStrategy: "replace" });
    assert.equal(written.status, "ok");
    assert.equal(written.filePath, join(home, "config.toml"));
    const text = readFileSync(join(home, "config.toml"), "utf8");
    assert.match(text, /^# my settings$/m, "comments are kept");
    assert.match(text, /\[tui\]\nnotifications = true/);
    const read = await client.request("config/read", {});
    assert.equal(((read.config as Json).tui as Json).notifications, true);

    await assert.rejects(client.request("config/value/write", { keyPath: "sandbox_mode", value: "everything", mergeStrategy: "replace" }), /Invalid config/);
    assert.equal(readFileSync(join(home, "config.toml"), "utf8"), text, "the broken value was not kept");
    await assert.rejects(client.request("config/value/write", { keyPath: "model", value: "x", mergeStrategy: "replace", expectedVersion: "stale" }), /changed since version stale/);
    await assert.rejects(client.request("config/value/write", { keyPath: "x", value: "y", mergeStrategy: "replace", filePath: join(dir, "elsewhere.toml") }), /is not a config file codex-ts writes/);
    assert.equal(existsSync(join(dir, "elsewhere.toml")), false);

    const batch = await client.request("config/batchWrite", { edits: [{ keyPath: "model", value: "gpt-5.5", mergeStrategy: "replace" }, { keyPath: "model_reasoning_effort", value: "high", mergeStrategy: "replace" }], expectedVersion: written.version });
    assert.equal(batch.status, "ok");
    assert.match(readFileSync(join(home, "config.toml"), "utf8"), /model = "gpt-5\.5"[\s\S]*model_reasoning_effort = "high"/);

    const skillDir = join(dir, ".codex", "skills", "greeter");
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(join(skillDir, "SKILL.md"), "---\nname: greeter\ndescription: Says hello\n---\nSay hello.\n");
    const skills = (await client.request("skills/list", { cwds: [dir] })).data as Json[];
    assert.ok(((skills[0]?.skills ?? []) as Json[]).some((s) => s.name === "greeter"));
  });
});

void test("account: an API key signed in (the clients hear of it) and out; a command run under the sandbox", async () => {
  await withServer([], async (client, { home, dir }) => {
    assert.equal((await client.request("account/read", {})).account, null);
    assert.deepEqual(await client.request("account/login/start", { type: "apiKey", apiKey: "sk-from-client" }), { type: "apiKey" });
    const completed = await client.nextMethod("account/login/completed");
    assert.equal(completed.params.success, true);
    await client.nextMethod("account/updated");
    assert.match(readFileSync(join(home, "auth.json"), "utf8"), /sk-from-client/);
    assert.deepEqual((await client.request("account/read", {})).account, { type: "apiKey" });
    await client.request("account/logout");
    assert.equal(existsSync(join(home, "auth.json")), false);
    await assert.rejects(client.request("account/login/start", { type: "amazonBedrock", apiKey: "x", region: "y" }), /not supported by codex-ts app-server/);

    const ran = await client.request("command/exec", { command: ["sh", "-c", "echo out; echo err >&2; exit 3"], cwd: dir });
    assert.deepEqual(ran, { exitCode: 3, stdout: "out\n", stderr: "err\n" });
    // The config's sandbox (read-only here) holds for these commands too.
    const blocked = await client.request("command/exec", { command: ["touch", join(dir, "nope.txt")], cwd: dir, sandboxPolicy: { type: "readOnly", networkAccess: false } });
    assert.notEqual(blocked.exitCode, 0);
    assert.equal(existsSync(join(dir, "nope.txt")), false);
    // In a terminal (test/e2e/app-server-command-exec.test.ts covers streaming, stdin and terminals).
    assert.equal((await client.request("command/exec", { command: ["sh", "-c", "test -t 1"], tty: true, processId: "p1", cwd: dir })).exitCode, 0);
    const slow = await client.request("command/exec", { command: ["sleep", "30"], cwd: dir, timeoutMs: 300 });
    assert.equal(slow.exitCode, 124, "stopped at its timeout");
  });
});

void test("a thread named, steered, forked, paged, rolled back and archived", async () => {
  await withServer([turn(text("first")), { ...turn(text("second")), delayMs: 800 }, turn(text("after the steer")), turn(text("forked answer"))], async (client, { dir, server }) => {
    const started = await client.request("thread/start", { cwd: dir });
    const threadId = String((started.thread as Json).id);
    await client.request("thread/name/set", { threadId, name: "My work" });
    assert.deepEqual((await client.nextMethod("thread/name/updated")).params, { threadId, threadName: "My work" });

    await client.request("turn/start", { threadId, input: [{ type: "text", text: "one", text_elements: [] }] });
    await client.nextMethod("turn/completed");
    const second = await client.request("turn/start", { threadId, input: [{ type: "text", text: "two", text_elements: [] }] });
    const secondId = String((second.turn as Json).id);
    // Input while the turn runs joins it.
    assert.deepEqual(await client.request("turn/steer", { threadId, expectedTurnId: secondId, input: [{ type: "text", text: "and also this", text_elements: [] }] }), { turnId: secondId });
    await assert.rejects(client.request("turn/steer", { threadId, expectedTurnId: "other", input: [{ type: "text", text: "x", text_elements: [] }] }), /expected turn other/);
    await client.nextMethod("turn/completed");
    // The turn asked the model once more, with the steered message.
    assert.match(JSON.stringify(server.requests[2]?.body.input), /and also this/);

    const listed = (await client.request("thread/list", {})).data as Json[];
    assert.equal(listed.find((t) => t.id === threadId)?.name, "My work");

    const page = await client.request("thread/turns/list", { threadId, limit: 1 });
    assert.equal((page.data as Json[]).length, 1);
    assert.equal(((page.data as Json[])[0] as Json).id, secondId, "newest first");
    const rest = await client.request("thread/turns/list", { threadId, limit: 1, cursor: page.nextCursor });
    assert.equal((rest.data as Json[]).length, 1);
    assert.equal(rest.nextCursor, null);

    const fork = await client.request("thread/fork", { threadId });
    const forkId = String((fork.thread as Json).id);
    assert.notEqual(forkId, threadId);
    assert.equal((fork.thread as Json).forkedFromId, threadId);
    assert.equal(((fork.thread as Json).turns as Json[]).length, 2, "the fork carries the turns so far");
    await client.request("turn/start", { threadId: forkId, input: [{ type: "text", text: "in the fork", text_elements: [] }] });
    await client.nextMethod("turn/completed");

    const rolled = await client.request("thread/rollback", { threadId, numTurns: 1 });
    assert.equal(((rolled.thread as Json).turns as Json[]).length, 1);

    await client.request("thread/archive", { threadId });
    await client.nextMethod("thread/archived");
    assert.equal(((await client.request("thread/list", {})).data as Json[]).some((t) => t.id === threadId), false);
    assert.equal(((await client.request("thread/list", { archived: true })).data as Json[]).some((t) => t.id === threadId), true);
    const back = await client.request("thread/unarchive", { threadId });
    assert.equal((back.thread as Json).id, threadId);
    assert.equal(((await client.request("thread/list", {})).data as Json[]).some((t) => t.id === threadId), true);
    await assert.rejects(client.request("thread/unarchive", { threadId }), (err: RpcErrorResponse) => /no archived thread/.test(err.message));
  });
});

void test("a compaction and a review run as turns, with their items", async () => {
  const ws = makeWorkspace();
  const findings = JSON.stringify({
    findings: [{ title: "Check the input", body: "It may be empty.", confidence_score: 0.8, priority: 1, code_location: { absolute_file_path: join(ws.dir, "a.ts"), line_range: { start: 1, end: 1 } } }],
    overall_correctness: "patch is incorrect",
    overall_explanation: "One problem.",
    overall_confidence_score: 0.7,
  });
  const server = await startModelServer([turn(text("Noted.")), turn(text("SUMMARY: nothing yet.")), turn(text(`\`\`\`json\n${findings}\n\`\`\``)), turn(text("Here is a plan."))]);
  // A provider of our own: compaction is the local summary (one model request).
  writeFileSync(join(ws.home, "config.toml"), `model_provider = "mock"\n[model_providers.mock]\nname = "mock"\nbase_url = "${server.url}"\nwire_api = "responses"\nenv_key = "OPENAI_API_KEY"\n`);
  const client = AppServerClient.spawn({ cwd: ws.dir, home: ws.home });
  try {
    await client.initialize();
    const threadId = String(((await client.request("thread/start", { cwd: ws.dir })).thread as Json).id);
    await client.request("turn/start", { threadId, input: [{ type: "text", text: "plan it", text_elements: [] }] });
    await client.nextMethod("turn/completed");

    assert.deepEqual(await client.request("thread/compact/start", { threadId }), {});
    await client.next((m) => m.method === "item/completed" && ((m.params as Json).item as Json).type === "contextCompaction");
    await client.nextMethod("thread/compacted");
    assert.equal(((await client.nextMethod("turn/completed")).params.turn as Json).status, "completed");

    const review = await client.request("review/start", { threadId, target: { type: "custom", instructions: "look at a.ts" } });
    assert.equal(review.reviewThreadId, threadId);
    await client.next((m) => m.method === "item/completed" && ((m.params as Json).item as Json).type === "enteredReviewMode");
    const exited = await client.next((m) => m.method === "item/completed" && ((m.params as Json).item as Json).type === "exitedReviewMode");
    assert.match(String(((exited.params as Json).item as Json).review), /Check the input/);
    await client.nextMethod("turn/completed");
    await assert.rejects(client.request("review/start", { threadId, target: { type: "custom", instructions: "x" }, delivery: "detached" }), /only "inline"/);

    // Plan mode (the reference's experimental collaborationMode): the agent is offered no way to change files.
    await client.request("turn/start", { threadId, input: [{ type: "text", text: "plan only", text_elements: [] }], collaborationMode: { mode: "plan", settings: null } });
    await client.nextMethod("turn/completed");
    const toolsOf = (i: number): string[] => (server.requests.at(i)?.body.tools ?? []).map((t) => String((t as Json).name ?? (t as Json).type));
    assert.equal(toolsOf(0).includes("apply_patch"), true, "a working turn has the patch tool");
    assert.equal(toolsOf(-1).includes("apply_patch"), false, "no patch tool in plan mode");
    await assert.rejects(client.request("turn/start", { threadId, input: [{ type: "text", text: "x", text_elements: [] }], collaborationMode: { mode: "yolo" } }), /unknown collaborationMode\.mode "yolo"/);
    assertNoViolations(client);
  } finally {
    await client.close();
    await server.close();
  }
});
