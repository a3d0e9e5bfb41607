/**
 * End-to-end: the real `codex-ts exec` against the scripted model server. Each test checks
 * what the user sees (stdout, stderr, exit code, files) and what the model was sent.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { text, fnCall, reasoning, turn, errorTurn } from "../support/model-server.js";
import { assertNoRepositoryAbove, exec, jsonLines, makeWorkspace, runCli, withServer } from "../support/cli.js";
import { OUTSIDE_PARENT } from "../support/sandbox-scene.js";

const FULL = ["-s", "danger-full-access"];

void test("a plain answer goes to stdout alone, progress to stderr, and the request matches the reference's", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("Hello there."))], async (server) => {
    const r = await exec(server, ["say hello"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "Hello there.\n");
    assert.match(r.stderr, /say hello/);
    const [req] = server.requests;
    assert.ok(req);
    assert.equal(req.path, "/v1/responses");
    assert.deepEqual(Object.keys(req.body), [
      "model", "stream", "input", "tools", "tool_choice", "parallel_tool_calls", "reasoning", "store", "include", "prompt_cache_key", "text",
    ]);
    assert.equal(req.body.model, "gpt-5.5");
    assert.equal(req.body.stream, true);
    assert.equal(req.body.store, false);
    assert.equal(req.body.tool_choice, "auto");
    assert.equal(req.body.parallel_tool_calls, true);
    assert.deepEqual(req.body.include, ["reasoning.encrypted_content"]);
    assert.deepEqual(req.body.reasoning, { effort: "medium" });
    assert.deepEqual(req.body.text, { verbosity: "low" });
    assert.equal(req.headers.authorization, "Bearer sk-test-key");
    assert.equal(req.headers.originator, "codex_exec");
    assert.equal(req.headers["session-id"], req.body.prompt_cache_key);
    const input = req.body.input ?? [];
    assert.equal(input[0]?.role, "developer");
    assert.equal(input[1]?.role, "developer");
    const env = JSON.stringify(input[input.length - 2]);
    assert.match(env, /<environment_context>/);
    assert.ok(env.includes(ws.dir.replace(/\\/g, "\\\\")));
    assert.deepEqual(input[input.length - 1], { type: "message", role: "user", content: [{ type: "input_text", text: "say hello" }] });
    const toolNames = (req.body.tools ?? []).map((t) => t.name ?? t.type);
    assert.deepEqual(toolNames, ["exec_command", "write_stdin", "request_user_input", "apply_patch", "view_image", "get_goal", "create_goal", "update_goal", "tool_search", "web_search"]);
  });
});

void test("multi-step tool use: commands run, outputs go back, and every request extends the previous one byte for byte", async () => {
  const ws = makeWorkspace();
  await withServer(
    [
      turn(fnCall("exec_command", { cmd: "echo hello > a.txt && cat a.txt", workdir: "." }, "call_1")),
      turn(fnCall("exec_command", { cmd: "echo more >> a.txt && wc -l < a.txt" }, "call_2")),
      turn(text("Done.")),
    ],
    async (server) => {
      const r = await exec(server, [...FULL, "make a file"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Done.\n");
      assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "hello\nmore\n");
      assert.equal(server.requests.length, 3);
      const [first, second, third] = server.requests.map((q) => q.body.input ?? []);
      const output1 = second?.find((i) => i.type === "function_call_output");
      assert.ok(output1);
      assert.equal(output1.call_id, "call_1");
      assert.match(String(output1.output), /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code 0\nOriginal token count: \d+\nOutput:\nhello\n$/);
      const output2 = third?.find((i) => i.type === "function_call_output" && i.call_id === "call_2");
      assert.match(String(output2?.output), /Output:\n2\n$/);
      // Prompt caching: each request's input begins with the previous request's input, verbatim.
      const raw = server.requests.map((q) => JSON.stringify(q.body.input));
      assert.ok(raw[1]?.startsWith((raw[0] ?? "").slice(0, -1)), "request 2 must extend request 1");
      assert.ok(raw[2]?.startsWith((raw[1] ?? "").slice(0, -1)), "request 3 must extend request 2");
      assert.ok(first && first.length < (second?.length ?? 0));
    },
  );
});

void test("parallel calls in one response run concurrently and their outputs come back in call order", async () => {
  const ws = makeWorkspace();
  await withServer(
    [
      turn(
        fnCall("exec_command", { cmd: "sleep 0.6; echo slow" }, "call_slow"),
        fnCall("exec_command", { cmd: "echo fast" }, "call_fast"),
      ),
      turn(text("ok")),
    ],
    async (server) => {
      const started = Date.now();
      const r = await exec(server, [...FULL, "two things"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      const outputs = (server.requests[1]?.body.input ?? []).filter((i) => i.type === "function_call_output");
      assert.deepEqual(outputs.map((o) => o.call_id), ["call_slow", "call_fast"]);
      assert.match(String(outputs[0]?.output), /slow/);
      assert.match(String(outputs[1]?.output), /fast/);
      assert.ok(Date.now() - started < 10_000);
    },
  );
});

void test("HTTP 500 and 429 are retried (Retry-After honoured) with a reconnecting notice", async () => {
  const ws = makeWorkspace();
  await withServer([errorTurn(500), errorTurn(429, { "retry-after": "1" }), turn(text("recovered"))], async (server) => {
    const started = Date.now();
    const r = await exec(server, ["--json", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, 3);
    const gap = (server.requests[2]?.receivedAt ?? 0) - (server.requests[1]?.receivedAt ?? 0);
    assert.ok(gap >= 950, `retry after 429 came ${gap} ms later, expected ≥ 1000`);
    const errors = jsonLines(r.stdout).filter((e) => e.type === "error").map((e) => e.message);
    // Retries of the request before the server accepted it count in the turn's one sequence.
    assert.deepEqual(errors, ["Reconnecting... 1/5", "Reconnecting... 2/5"]);
    assert.ok(Date.now() - started < 15_000);
  });
});

void test("a dropped stream is retried from scratch and its tool call runs once", async () => {
  const ws = makeWorkspace();
  const call = fnCall("exec_command", { cmd: "echo ran >> count.txt" }, "call_once");
  // 3 events: created, item added, item done — then the connection dies before completion.
  await withServer([{ ...turn(call), dropAfterEvents: 4 }, turn(call), turn(text("finished"))], async (server) => {
    const r = await exec(server, [...FULL, "--json", "count"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(join(ws.dir, "count.txt"), "utf8"), "ran\n");
    const errors = jsonLines(r.stdout).filter((e) => e.type === "error").map((e) => e.message);
    assert.deepEqual(errors, ["Reconnecting... 1/5"]);
  });
});

void test("a stream that goes idle is abandoned after stream_idle_timeout_ms and retried", async () => {
  const ws = makeWorkspace({
    config: 'model_provider = "mock"\n[model_providers.mock]\nname = "Mock"\nbase_url = "http://127.0.0.1:9/v1"\nenv_key = "OPENAI_API_KEY"\nstream_idle_timeout_ms = 300\n',
  });
  await withServer([{ ...turn(text("never finished")), hangAfterEvents: 2 }, turn(text("second try"))], async (server) => {
    const r = await runCli(["exec", "-c", `model_providers.mock.base_url="${server.url}"`, "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "second try\n");
    assert.match(r.stderr, /Reconnecting\.\.\. 1\/5/);
    assert.match(r.stderr, /idle timeout/);
  });
});

void test("401 ends the run at once with a message that says what to fix", async () => {
  const ws = makeWorkspace();
  await withServer([errorTurn(401, undefined, { error: { message: "Incorrect API key provided", code: "invalid_api_key" } })], async (server) => {
    const r = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 1);
    assert.equal(server.requests.length, 1);
    assert.match(r.stderr, /Incorrect API key provided/);
    assert.match(r.stderr, /OPENAI_API_KEY or CODEX_API_KEY/);
    assert.equal(r.stdout, "");
  });
});

void test("a context-window error is retried once after compacting, then tells the user what to do", async () => {
  const ws = makeWorkspace();
  const tooLong = errorTurn(400, undefined, { error: { message: "too long", code: "context_length_exceeded" } });
  await withServer([tooLong, tooLong], async (server) => {
    const r = await exec(server, ["--json", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 1);
    // Compaction could have saved the turn, so it is tried (once), then the request once more.
    assert.equal(server.compactions.length, 1);
    assert.equal(server.requests.length, 2);
    const failed = jsonLines(r.stdout).find((e) => e.type === "turn.failed") as { error: { message: string } } | undefined;
    assert.match(failed?.error.message ?? "", /context window/);
  });
});

void test("--json prints the reference's thread events for a command run", async () => {
  const ws = makeWorkspace();
  await withServer(
    [turn(fnCall("exec_command", { cmd: "echo hello" }, "c1")), { ...turn(text("All done.")), usage: { input: 100, output: 20, cached: 40 } }],
    async (server) => {
      const r = await exec(server, [...FULL, "--json", "go"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      const events = jsonLines(r.stdout);
      assert.deepEqual(events.map((e) => e.type), ["thread.started", "turn.started", "item.started", "item.completed", "item.completed", "turn.completed"]);
      assert.match(String(events[0]?.thread_id), /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const shell = process.env.SHELL ?? "/bin/bash";
      assert.deepEqual(events[2]?.item, { id: "item_0", type: "command_execution", command: `${shell} -lc 'echo hello'`, aggregated_output: "", exit_code: null, status: "in_progress" });
      assert.deepEqual(events[3]?.item, { id: "item_0", type: "command_execution", command: `${shell} -lc 'echo hello'`, aggregated_output: "hello\n", exit_code: 0, status: "completed" });
      assert.deepEqual(events[4]?.item, { id: "item_1", type: "agent_message", text: "All done." });
      assert.deepEqual(events[5]?.usage, { input_tokens: 112, cached_input_tokens: 40, cache_write_input_tokens: 0, output_tokens: 27, reasoning_output_tokens: 0 });
    },
  );
});

void test("-o writes the final message and --output-schema sends a strict schema", async () => {
  const ws = makeWorkspace();
  const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"], additionalProperties: false };
  writeFileSync(join(ws.dir, "schema.json"), JSON.stringify(schema));
  await withServer([turn(text('{"answer":"42"}'))], async (server) => {
    const r = await exec(server, ["--output-schema", "schema.json", "-o", "last.txt", "answer"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(join(ws.dir, "last.txt"), "utf8"), '{"answer":"42"}');
    assert.deepEqual(server.requests[0]?.body.text, {
      verbosity: "low",
      format: { type: "json_schema", name: "codex_output_schema", schema, strict: true },
    });
  });
});

void test("without an API key exec stops before any request, with one line that says how to provide one", async () => {
  const ws = makeWorkspace();
  await withServer([], async (server) => {
    const r = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: undefined } });
    assert.equal(r.code, 1);
    assert.equal(server.requests.length, 0);
    assert.equal(r.stderr.trim().split("\n").length, 1);
    assert.match(r.stderr, /CODEX_API_KEY or OPENAI_API_KEY/);
  });
});

void test("CODEX_API_KEY wins over OPENAI_API_KEY", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("ok"))], async (server) => {
    const r = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home, env: { CODEX_API_KEY: "sk-codex" } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[0]?.headers.authorization, "Bearer sk-codex");
  });
});

void test("outside a git repository exec refuses unless --skip-git-repo-check", async () => {
  const ws = makeWorkspace({ git: false });
  assertNoRepositoryAbove(ws.dir);
  await withServer([turn(text("ran anyway"))], async (server) => {
    const refused = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--skip-git-repo-check/);
    const allowed = await exec(server, ["--skip-git-repo-check", "hi"], { cwd: ws.dir, home: ws.home });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(allowed.stdout, "ran anyway\n");
  });
});

void test("the prompt can come from stdin, and piped stdin is appended to a prompt argument", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("a")), turn(text("b"))], async (server) => {
    const fromStdin = await exec(server, ["-"], { cwd: ws.dir, home: ws.home, stdin: "task from stdin\n" });
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    const both = await exec(server, ["summarise this"], { cwd: ws.dir, home: ws.home, stdin: "some data" });
    assert.equal(both.code, 0, both.stderr);
    const lastText = (i: number): string => {
      const input = server.requests[i]?.body.input ?? [];
      return JSON.stringify(input[input.length - 1]);
    };
    assert.match(lastText(0), /task from stdin/);
    assert.match(lastText(1), /summarise this\\n\\n<stdin>\\nsome data\\n<\/stdin>/);
  });
});

void test("the default read-only sandbox lets commands read but not write, and the model sees the refusal", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "notes.txt"), "readable\n");
  await withServer(
    [turn(fnCall("exec_command", { cmd: "cat notes.txt; touch should-not-exist", yield_time_ms: 5000 }, "c1")), turn(text("understood"))],
    async (server) => {
      const r = await exec(server, ["try"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(existsSync(join(ws.dir, "should-not-exist")), false);
      const output = (server.requests[1]?.body.input ?? []).find((i) => i.type === "function_call_output");
      assert.match(String(output?.output), /Process exited with code 1[\s\S]*readable\n[\s\S]*Read-only file system/);
    },
  );
});

void test("--full-auto lets commands write inside the workspace, still not outside it", async () => {
  const ws = makeWorkspace();
  const escapeTarget = join(OUTSIDE_PARENT, "codex-ts-full-auto-escape");
  await withServer(
    [turn(fnCall("exec_command", { cmd: `echo in > inside.txt && touch ${escapeTarget}`, yield_time_ms: 5000 }, "c1")), turn(text("ok"))],
    async (server) => {
      const r = await exec(server, ["--full-auto", "try"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(readFileSync(join(ws.dir, "inside.txt"), "utf8"), "in\n");
      assert.equal(existsSync(escapeTarget), false);
    },
  );
});

void test("Ctrl-C interrupts the turn: the running command is killed and exec exits non-zero", async () => {
  const ws = makeWorkspace();
  await withServer([turn(fnCall("exec_command", { cmd: "sleep 30; echo late > late.txt", yield_time_ms: 30000 }, "c1"))], async (server) => {
    const started = Date.now();
    const r = await exec(server, [...FULL, "--json", "wait"], {
      cwd: ws.dir,
      home: ws.home,
      onSpawn: (child) => {
        void server.waitForRequests(1).then(() => setTimeout(() => child.kill("SIGINT"), 500));
      },
    });
    assert.equal(r.code, 1);
    assert.ok(Date.now() - started < 10_000, "interrupt must not wait for the command");
    const events = jsonLines(r.stdout);
    assert.equal(events.at(-1)?.type, "turn.failed");
    assert.equal(existsSync(join(ws.dir, "late.txt")), false);
  });
});

void test("update_plan becomes a todo_list item; the shell_command tool returns the text format", async () => {
  const ws = makeWorkspace();
  await withServer(
    [
      turn(fnCall("update_plan", { plan: [{ step: "look", status: "in_progress" }, { step: "fix", status: "pending" }] }, "p1")),
      turn(fnCall("shell_command", { command: "echo via-shell-command" }, "s1")),
      turn(fnCall("update_plan", { plan: [{ step: "look", status: "completed" }, { step: "fix", status: "completed" }] }, "p2")),
      turn(text("planned")),
    ],
    async (server) => {
      const r = await exec(server, [...FULL, "--json", "-m", "gpt-5-codex", "plan it"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      const events = jsonLines(r.stdout).filter((e) => (e.item as { type?: string } | undefined)?.type === "todo_list");
      assert.deepEqual(events.map((e) => e.type), ["item.started", "item.updated", "item.completed"]);
      assert.deepEqual((events[2]?.item as { items: unknown }).items, [{ text: "look", completed: true }, { text: "fix", completed: true }]);
      const planOut = (server.requests[1]?.body.input ?? []).find((i) => i.call_id === "p1" && i.type === "function_call_output");
      assert.equal(planOut?.output, "Plan updated");
      const shellOut = (server.requests[2]?.body.input ?? []).find((i) => i.call_id === "s1" && i.type === "function_call_output");
      assert.match(String(shellOut?.output), /^Exit code: 0\nWall time: [\d.]+ seconds\nOutput:\nvia-shell-command\n$/);
    },
  );
});

void test("an unknown model gets the argv shell tool and its JSON output", async () => {
  const ws = makeWorkspace();
  await withServer([turn(fnCall("shell", { command: ["echo", "argv-ok"] }, "s1")), turn(text("done"))], async (server) => {
    const r = await exec(server, [...FULL, "-m", "some-local-model", "run"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[0]?.body.model, "some-local-model");
    assert.equal(server.requests[0]?.body.reasoning, undefined);
    const out = (server.requests[1]?.body.input ?? []).find((i) => i.type === "function_call_output");
    const parsed = JSON.parse(String(out?.output)) as { output: string; metadata: { exit_code: number } };
    assert.equal(parsed.output, "argv-ok\n");
    assert.equal(parsed.metadata.exit_code, 0);
  });
});

void test("-i attaches local images to the prompt as data URLs", async () => {
  const ws = makeWorkspace();
  const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
  writeFileSync(join(ws.dir, "pic.png"), png);
  await withServer([turn(text("I see it"))], async (server) => {
    const r = await exec(server, ["-i", "pic.png", "what is this"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const input = server.requests[0]?.body.input ?? [];
    assert.deepEqual(input.at(-1), {
      type: "message",
      role: "user",
      content: [
        { type: "input_image", image_url: `data:image/png;base64,${png.toString("base64")}` },
        { type: "input_text", text: "what is this" },
      ],
    });
  });
});

void test("reasoning summaries become reasoning items; -c model_reasoning_effort reaches the request", async () => {
  const ws = makeWorkspace();
  await withServer([turn(reasoning("Looking at the files.", "Deciding."), text("Answer."))], async (server) => {
    const r = await exec(server, [...FULL, "--json", "-c", "model_reasoning_effort=high", "think"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const items = jsonLines(r.stdout).filter((e) => e.type === "item.completed").map((e) => e.item);
    assert.deepEqual(items, [
      { id: "item_0", type: "reasoning", text: "Looking at the files." },
      { id: "item_1", type: "reasoning", text: "Deciding." },
      { id: "item_2", type: "agent_message", text: "Answer." },
    ]);
    assert.deepEqual(server.requests[0]?.body.reasoning, { effort: "high" });
  });
});
