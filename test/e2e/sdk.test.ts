/**
 * The official TypeScript SDK (`@openai/codex-sdk`) driving codex-ts with no changes on either
 * side: the SDK spawns our CLI through `codexPathOverride`, writes the prompt to its stdin and
 * parses its `exec --experimental-json` stream. The model is the scripted local server.
 */
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Codex } from "@openai/codex-sdk";
import type { ThreadEvent, ThreadItem, ThreadOptions } from "@openai/codex-sdk";
import { CLI_PATH } from "../support/cli.js";
import { readLines, rolloutFiles } from "../support/rollout.js";
import { errorTurn, fnCall, startModelServer, text, turn } from "../support/model-server.js";
import type { ModelServer, ScriptedTurn } from "../support/model-server.js";

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

interface Harness {
  server: ModelServer;
  codex: Codex;
  /** Thread options every test uses: a scratch directory that is not a git repository. */
  threadOptions: ThreadOptions;
  workDir: string;
  /** The CODEX_HOME the CLI runs with (session files land under its sessions/). */
  codexHome: string;
}

/**
 * A scripted server plus an SDK client whose "codex binary" is a small shell wrapper that runs
 * our compiled CLI with the current Node (so the test does not depend on dist/ file modes).
 */
async function harness(turns: ScriptedTurn[]): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-sdk-"));
  roots.push(root);
  const home = join(root, "home");
  const codexHome = join(root, "codex-home");
  const workDir = join(root, "work");
  for (const d of [home, codexHome, workDir]) mkdirSync(d);
  const wrapper = join(root, "codex-ts");
  writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' '${CLI_PATH}' "$@"\n`);
  chmodSync(wrapper, 0o755);

  const server = await startModelServer(turns);
  const codex = new Codex({
    codexPathOverride: wrapper,
    baseUrl: server.url,
    apiKey: "sk-test",
    env: { CODEX_HOME: codexHome, HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1" },
  });
  const threadOptions: ThreadOptions = { workingDirectory: workDir, skipGitRepoCheck: true };
  return { server, codex, threadOptions, workDir, codexHome };
}

/** Closes the server and checks the histories our CLI sent were well formed. */
async function finish(h: Harness): Promise<void> {
  await h.server.close();
  assert.deepEqual(h.server.violations, []);
}

function isUserMessageWith(item: Record<string, unknown>, needle: string): boolean {
  if (item.type !== "message" || item.role !== "user" || !Array.isArray(item.content)) return false;
  return item.content.some(
    (part: unknown) => typeof part === "object" && part !== null && String((part as { text?: unknown }).text).includes(needle),
  );
}

const ECHO_SCRIPT = (): ScriptedTurn[] => [
  turn(fnCall("exec_command", { cmd: "echo sdk-ok" }, "call_echo")),
  turn(text("The command printed sdk-ok.")),
];

void test("run() returns the final answer, items, usage and the thread id", async () => {
  const answer = "Hello from the scripted model.";
  const h = await harness([{ outputs: [text(answer)], usage: { input: 321, output: 45, cached: 100, reasoning: 12 } }]);
  try {
    const thread = h.codex.startThread(h.threadOptions);
    assert.equal(thread.id, null);
    const result = await thread.run("say hello");

    assert.equal(result.finalResponse, answer);
    const messages = result.items.filter((i) => i.type === "agent_message");
    assert.equal(messages.length, 1);
    assert.equal(messages[0]?.type === "agent_message" ? messages[0].text : undefined, answer);
    assert.deepEqual(result.usage, {
      input_tokens: 321,
      cached_input_tokens: 100,
      cache_write_input_tokens: 0,
      output_tokens: 45,
      reasoning_output_tokens: 12,
    });

    assert.equal(typeof thread.id, "string");
    assert.ok((thread.id ?? "").length > 0);

    // The prompt went through stdin into the request; the key came from CODEX_API_KEY.
    assert.equal(h.server.requests.length, 1);
    const req = h.server.requests[0];
    assert.ok(req);
    assert.equal(req.headers.authorization, "Bearer sk-test");
    // The SDK marks its runs through CODEX_INTERNAL_ORIGINATOR_OVERRIDE.
    assert.equal(req.headers.originator, "codex_sdk_ts");
    assert.ok((req.body.input ?? []).some((item) => isUserMessageWith(item, "say hello")), "prompt missing from the request");
    assert.equal(req.body.prompt_cache_key, thread.id);
  } finally {
    await finish(h);
  }
});

void test("a scripted exec_command call shows up as a completed command_execution item", async () => {
  const h = await harness(ECHO_SCRIPT());
  try {
    const thread = h.codex.startThread({ ...h.threadOptions, sandboxMode: "danger-full-access" });
    const result = await thread.run("run echo");

    const commands = result.items.filter((i) => i.type === "command_execution");
    assert.equal(commands.length, 1, JSON.stringify(result.items));
    const cmd = commands[0];
    assert.ok(cmd && cmd.type === "command_execution");
    assert.match(cmd.command, /echo sdk-ok/);
    assert.match(cmd.aggregated_output, /sdk-ok/);
    assert.equal(cmd.exit_code, 0);
    assert.equal(cmd.status, "completed");
    assert.equal(result.finalResponse, "The command printed sdk-ok.");

    // The tool output travelled back to the model in the second request.
    assert.equal(h.server.requests.length, 2);
    const outputs = (h.server.requests[1]?.body.input ?? []).filter((i) => i.type === "function_call_output");
    assert.equal(outputs.length, 1);
    assert.equal(outputs[0]?.call_id, "call_echo");
    assert.match(String(outputs[0]?.output), /sdk-ok/);
  } finally {
    await finish(h);
  }
});

void test("runStreamed() yields thread, turn and item events in order", async () => {
  const h = await harness(ECHO_SCRIPT());
  try {
    const thread = h.codex.startThread({ ...h.threadOptions, sandboxMode: "danger-full-access" });
    const { events } = await thread.runStreamed("run echo, streamed");
    const seen: ThreadEvent[] = [];
    for await (const event of events) seen.push(event);
    const types = seen.map((e) => e.type);

    assert.equal(types[0], "thread.started", types.join(", "));
    assert.equal(types[1], "turn.started", types.join(", "));
    assert.equal(types.at(-1), "turn.completed", types.join(", "));
    assert.equal(types.filter((t) => t === "turn.completed").length, 1);
    assert.ok(!types.includes("turn.failed") && !types.includes("error"), types.join(", "));
    const first = seen[0];
    assert.equal(first?.type === "thread.started" ? first.thread_id : undefined, thread.id);

    // Every item event sits between turn.started and turn.completed; each started item completes
    // later with the same id, and the command completes before the final message.
    const middle = seen.slice(2, -1);
    assert.ok(middle.length > 0);
    const started = new Map<string, number>();
    const completed = new Map<string, { at: number; item: ThreadItem }>();
    middle.forEach((event, at) => {
      assert.ok(event.type.startsWith("item."), `unexpected ${event.type} inside the turn`);
      if (event.type === "item.started") started.set(event.item.id, at);
      if (event.type === "item.completed") completed.set(event.item.id, { at, item: event.item });
    });
    assert.ok(started.size > 0, "no item.started event");
    for (const [id, at] of started) {
      const done = completed.get(id);
      assert.ok(done, `item ${id} started but never completed`);
      assert.ok(done.at > at, `item ${id} completed before it started`);
    }
    const doneItems = [...completed.values()].sort((a, b) => a.at - b.at).map((d) => d.item.type);
    assert.deepEqual(doneItems, ["command_execution", "agent_message"]);
    const commandStart = middle.find((e) => e.type === "item.started");
    assert.ok(commandStart?.type === "item.started" && commandStart.item.type === "command_execution");
    assert.equal(commandStart.item.status, "in_progress");
  } finally {
    await finish(h);
  }
});

void test("outputSchema reaches the model as a strict json_schema text format", async () => {
  const schema = {
    type: "object",
    properties: { summary: { type: "string" }, ok: { type: "boolean" } },
    required: ["summary", "ok"],
    additionalProperties: false,
  };
  const json = JSON.stringify({ summary: "all good", ok: true });
  const h = await harness([turn(text(json))]);
  try {
    const thread = h.codex.startThread(h.threadOptions);
    const result = await thread.run("report as JSON", { outputSchema: schema });

    assert.equal(result.finalResponse, json);
    assert.deepEqual(JSON.parse(result.finalResponse), { summary: "all good", ok: true });
    assert.equal(h.server.requests.length, 1);
    const textField = h.server.requests[0]?.body.text as { format?: Record<string, unknown> } | undefined;
    const format = textField?.format;
    assert.ok(format, `request has no text.format: ${JSON.stringify(textField)}`);
    assert.equal(format.type, "json_schema");
    assert.equal(format.strict, true);
    assert.deepEqual(format.schema, schema);
  } finally {
    await finish(h);
  }
});

void test("a model error makes run() reject with the provider's message", async () => {
  const message = "The scripted provider refuses this request.";
  const h = await harness([errorTurn(400, undefined, { error: { message, type: "invalid_request_error", code: "bad_request" } })]);
  try {
    const thread = h.codex.startThread(h.threadOptions);
    await assert.rejects(thread.run("this will fail"), (err: unknown) => {
      assert.ok(err instanceof Error);
      assert.ok(err.message.includes(message), `unexpected message: ${err.message}`);
      return true;
    });
    // A 400 is not retried.
    assert.equal(h.server.requests.length, 1);
  } finally {
    await finish(h);
  }
});

void test("resumeThread() continues the recorded thread: same id, same file, the model sees the earlier turn", async () => {
  const h = await harness([turn(text("First answer.")), turn(text("Second answer."))]);
  try {
    const first = h.codex.startThread(h.threadOptions);
    await first.run("remember the word teal");
    const id = first.id;
    assert.ok(id);

    const resumed = h.codex.resumeThread(id, h.threadOptions);
    const result = await resumed.run("which word?");
    assert.equal(result.finalResponse, "Second answer.");
    assert.equal(resumed.id, id);

    const [one, two] = h.server.requests;
    const before = JSON.stringify(one?.body.input);
    assert.ok(JSON.stringify(two?.body.input).startsWith(before.slice(0, -1)), "the resumed request extends the first one");
    const input = two?.body.input ?? [];
    assert.ok(input.some((item) => isUserMessageWith(item, "remember the word teal")));
    assert.deepEqual(input.at(-2), { type: "message", role: "assistant", content: [{ type: "output_text", text: "First answer." }] });
    assert.ok(isUserMessageWith(input.at(-1) ?? {}, "which word?"));
    assert.equal(two?.body.prompt_cache_key, id);

    const files = rolloutFiles(h.codexHome);
    assert.equal(files.length, 1);
    assert.ok(files[0]?.endsWith(`-${id}.jsonl`));
    assert.equal(readLines(files[0] ?? "").filter((l) => l.type === "turn_context").length, 2);
  } finally {
    await finish(h);
  }
});
