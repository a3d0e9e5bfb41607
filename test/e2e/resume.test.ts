/**
 * Resuming recorded threads: after a SIGKILL mid-turn, a file the reference wrote, many times
 * over, with another model, after a torn write; `--last`; ids that do not exist.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, chmodSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fnCall, text, turn } from "../support/model-server.js";
import { exec, jsonLines, makeWorkspace, withServer } from "../support/cli.js";
import { readLines, responseItems, rolloutFileOf, rolloutFiles, threadIdOf, watchEvents } from "../support/rollout.js";

const FULL = ["-s", "danger-full-access"];
/** A session file the reference wrote (test/fixtures/reference/README.md). */
const REFERENCE_SAMPLE = fileURLToPath(new URL("../../../test/fixtures/reference/codex-0.169-rollout.jsonl", import.meta.url));
const SAMPLE_ID = "01a20039-0605-7f82-bb57-0384ad2af383";

/** Request `later`'s input begins with request `earlier`'s, byte for byte. */
function extendsInput(later: unknown, earlier: unknown): boolean {
  return JSON.stringify(later).startsWith(JSON.stringify(earlier).slice(0, -1));
}

void test("SIGKILL while the model streams: resume sends everything recorded before it, to the same thread and file", async () => {
  const ws = makeWorkspace();
  await withServer(
    [turn(fnCall("exec_command", { cmd: "echo before-kill" }, "call_1")), { ...turn(text("never finished")), hangAfterEvents: 2 }, turn(text("Back again."))],
    async (server) => {
      const killed = await exec(server, [...FULL, "--json", "start the work"], {
        cwd: ws.dir,
        home: ws.home,
        onSpawn: (child) => {
          void server.waitForRequests(2).then(() => setTimeout(() => child.kill("SIGKILL"), 200));
        },
      });
      assert.equal(killed.code, null, "killed by a signal");
      const id = threadIdOf(jsonLines(killed.stdout));
      const file = rolloutFileOf(ws.home, id);
      const before = readFileSync(file, "utf8");
      assert.ok(responseItems(file).some((i) => i.type === "function_call_output" && i.call_id === "call_1"));

      const resumed = await exec(server, [...FULL, "--json", "resume", id, "carry on"], { cwd: ws.dir, home: ws.home });
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(threadIdOf(jsonLines(resumed.stdout)), id);
      const [, interrupted, third] = server.requests;
      assert.ok(extendsInput(third?.body.input, interrupted?.body.input), "the resumed request extends the interrupted one");
      assert.deepEqual(third?.body.input?.at(-1), { type: "message", role: "user", content: [{ type: "input_text", text: "carry on" }] });
      assert.equal(third?.body.prompt_cache_key, id);

      // Appended to the same file; nothing already there written again.
      assert.deepEqual(rolloutFiles(ws.home), [file]);
      const after = readFileSync(file, "utf8");
      assert.ok(after.startsWith(before));
      assert.equal(readLines(file).filter((l) => l.type === "session_meta").length, 1);
      assert.equal(after.slice(before.length).includes("before-kill"), false);
    },
  );
});

void test("SIGKILL while a tool runs: the unanswered call is answered 'aborted' on resume, once", async () => {
  const ws = makeWorkspace();
  await withServer(
    [turn(fnCall("exec_command", { cmd: "sleep 2; echo late", yield_time_ms: 20000 }, "call_slow")), turn(text("Recovered."))],
    async (server) => {
      const killed = await exec(server, [...FULL, "--json", "slow work"], {
        cwd: ws.dir,
        home: ws.home,
        onSpawn: (child) =>
          watchEvents(child, (event) => {
            if (event.type === "item.started") child.kill("SIGKILL");
          }),
      });
      assert.equal(killed.code, null);
      const id = threadIdOf(jsonLines(killed.stdout));
      const file = rolloutFileOf(ws.home, id);
      assert.equal(responseItems(file).filter((i) => i.type === "function_call_output").length, 0);

      const resumed = await exec(server, [...FULL, "--json", "resume", id, "what happened?"], { cwd: ws.dir, home: ws.home });
      assert.equal(resumed.code, 0, resumed.stderr);
      const input = server.requests[1]?.body.input ?? [];
      const call = input.findIndex((i) => i.type === "function_call" && i.call_id === "call_slow");
      assert.ok(call > 0);
      assert.deepEqual(input[call + 1], { type: "function_call_output", call_id: "call_slow", output: "aborted" });
      assert.equal(responseItems(file).filter((i) => i.type === "function_call_output").length, 1);
    },
  );
});

void test("resuming five times: each request extends the last, every item is stored once, token totals carry over", async () => {
  const ws = makeWorkspace();
  const rounds = 5;
  await withServer(
    Array.from({ length: rounds + 1 }, (_, i) => turn(text(`answer ${i}`))),
    async (server) => {
      const first = await exec(server, [...FULL, "--json", "prompt 0"], { cwd: ws.dir, home: ws.home });
      assert.equal(first.code, 0, first.stderr);
      const id = threadIdOf(jsonLines(first.stdout));
      for (let i = 1; i <= rounds; i++) {
        const r = await exec(server, [...FULL, "--json", "resume", id, `prompt ${i}`], { cwd: ws.dir, home: ws.home });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(threadIdOf(jsonLines(r.stdout)), id);
        // Per-turn usage on the JSON stream stays per turn.
        assert.deepEqual(jsonLines(r.stdout).at(-1)?.usage, { input_tokens: 12, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 7, reasoning_output_tokens: 0 });
      }
      const inputs = server.requests.map((q) => q.body.input);
      for (let i = 1; i < inputs.length; i++) assert.ok(extendsInput(inputs[i], inputs[i - 1]), `request ${i + 1} must extend request ${i}`);
      // Same settings every time: nothing but the new prompt (and the previous answer) is added.
      assert.equal((inputs[rounds]?.length ?? 0) - (inputs[0]?.length ?? 0), rounds * 2);

      const file = rolloutFileOf(ws.home, id);
      const lines = readLines(file);
      const items = lines.filter((l) => l.type === "response_item").map((l) => JSON.stringify(l.payload));
      assert.equal(new Set(items).size, items.length, "no item stored twice");
      assert.equal(lines.filter((l) => l.type === "session_meta").length, 1);
      assert.equal(lines.filter((l) => l.type === "turn_context").length, rounds + 1);
      const counts = lines.filter((l) => l.payload.type === "token_count");
      const total = (counts.at(-1)?.payload.info as { total_token_usage: { input_tokens: number } }).total_token_usage;
      assert.equal(total.input_tokens, 12 * (rounds + 1));
    },
  );
});

void test("a file the reference (0.169) wrote resumes: its items become history without their bookkeeping", async () => {
  const ws = makeWorkspace();
  const dir = join(ws.home, "sessions", "2026", "11", "21");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `rollout-2026-11-21T22-27-46-${SAMPLE_ID}.jsonl`);
  copyFileSync(REFERENCE_SAMPLE, file);
  chmodSync(file, 0o644); // the checkout may keep the sample read-only
  const original = readFileSync(file, "utf8");
  await withServer([turn(text("It created a.txt."))], async (server) => {
    const r = await exec(server, ["--json", "resume", SAMPLE_ID, "what did you do?"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const events = jsonLines(r.stdout);
    assert.equal(threadIdOf(events), SAMPLE_ID);
    assert.deepEqual(events.filter((e) => e.type === "item.completed" && (e.item as { type: string }).type === "error"), []);

    const input = server.requests[0]?.body.input ?? [];
    // Base instructions from its session_meta, then its response items as recorded.
    assert.deepEqual(input[0], { type: "message", role: "developer", content: [{ type: "input_text", text: "<elided: 21459 chars of the reference prompt text>" }] });
    assert.deepEqual(input.slice(3, 9), [
      { type: "message", role: "user", content: [{ type: "input_text", text: "create a.txt" }] },
      { type: "function_call", name: "exec_command", arguments: '{"cmd":"echo hello > a.txt && cat a.txt","workdir":"."}', call_id: "call_0002" },
      { type: "function_call_output", call_id: "call_0002", output: "Chunk ID: ad8b5b\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 2\nOutput:\nhello\n" },
      { type: "custom_tool_call", call_id: "call_0005", name: "apply_patch", input: "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello world\n*** End Patch\n" },
      { type: "custom_tool_call_output", call_id: "call_0005", output: "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM a.txt\n" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done: created a.txt and changed it to 'hello world'." }] },
    ]);
    for (const item of input) {
      for (const key of ["id", "status", "metadata", "internal_chat_message_metadata_passthrough"]) assert.equal(key in item, false, `${key} in ${JSON.stringify(item)}`);
    }
    // The sandbox differs from the recorded turn's (read-only now), so the model is told.
    assert.match(JSON.stringify(input.slice(9, -1)), /read-only/);
    assert.deepEqual(input.at(-1), { type: "message", role: "user", content: [{ type: "input_text", text: "what did you do?" }] });

    // Appended after the reference's lines, which stay as they were; usage continues from its total.
    const after = readFileSync(file, "utf8");
    assert.ok(after.startsWith(original));
    const added = after.slice(original.length).trim().split("\n").map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });
    assert.equal(added.some((l) => l.type === "session_meta"), false);
    const total = added.filter((l) => l.payload.type === "token_count").at(-1)?.payload.info as { total_token_usage: { input_tokens: number } };
    assert.equal(total.total_token_usage.input_tokens, 29427 + 12);
  });
});

void test("resuming with another model warns as the reference does; --last picks this directory's newest thread", async () => {
  const ws = makeWorkspace();
  const other = join(ws.dir, "..", "elsewhere");
  mkdirSync(join(other, ".git"), { recursive: true });
  await withServer([turn(text("here")), turn(text("there")), turn(text("again"))], async (server) => {
    const here = await exec(server, ["--json", "in this dir"], { cwd: ws.dir, home: ws.home });
    const hereId = threadIdOf(jsonLines(here.stdout));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const there = await exec(server, ["--json", "in the other dir"], { cwd: other, home: ws.home });
    assert.equal(there.code, 0, there.stderr);

    const r = await exec(server, ["--json", "-m", "gpt-5-codex", "resume", "--last", "more"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const events = jsonLines(r.stdout);
    assert.equal(threadIdOf(events), hereId);
    assert.deepEqual(events[1], {
      type: "item.completed",
      item: {
        id: "item_0",
        type: "error",
        message: "This session was recorded with model `gpt-5.5` but is resuming with `gpt-5-codex`. Consider switching back to `gpt-5.5` as it may affect Codex performance.",
      },
    });
    assert.equal(events[2]?.type, "turn.started");
    assert.equal(server.requests[2]?.body.model, "gpt-5-codex");
    assert.deepEqual(server.requests[2]?.body.input?.at(-1), { type: "message", role: "user", content: [{ type: "input_text", text: "more" }] });
  });
});

void test("a torn last line is skipped with a warning and cut off before appending; unknown ids fail cleanly", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("one")), turn(text("two"))], async (server) => {
    const first = await exec(server, [...FULL, "--json", "hello"], { cwd: ws.dir, home: ws.home });
    const id = threadIdOf(jsonLines(first.stdout));
    const file = rolloutFileOf(ws.home, id);
    appendFileSync(file, '{"timestamp":"2026-11-21T22:27:47.000Z","type":"response_item","payload":{"type":"mess');

    const r = await exec(server, [...FULL, "--json", "resume", id, "still there?"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const warnings = jsonLines(r.stdout).filter((e) => e.type === "item.completed" && (e.item as { type: string }).type === "error");
    assert.equal(warnings.length, 1);
    assert.match(String((warnings[0]?.item as { message: string }).message), /last line is incomplete/);
    assert.ok(extendsInput(server.requests[1]?.body.input, server.requests[0]?.body.input));
    readLines(file); // every line parses again

    const missing = await exec(server, ["resume", "01a20039-0000-7000-8000-000000000000", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No recorded session 01a20039-0000-7000-8000-000000000000/);
    const notAnId = await exec(server, ["resume", "yesterday", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(notAnId.code, 1);
    assert.match(notAnId.stderr, /No session named 'yesterday'/);
    assert.equal(server.requests.length, 2);
    assert.equal(rolloutFiles(ws.home).length, 1);
  });
});
