/**
 * Tests for the scripted model server: exercises both streaming wires over real HTTP with
 * fetch, plus error replies, failure injection, request recording and history checks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  customCall,
  estimatedRequestTokens,
  errorTurn,
  fnCall,
  parseSse,
  reasoning,
  startModelServer,
  text,
  turn,
  webSearch,
} from "./model-server.js";
import type { JsonObject, ModelServer, ScriptedTurn } from "./model-server.js";

type Json = JsonObject & { type?: string };

async function withServer(turns: ScriptedTurn[], body: (s: ModelServer) => Promise<void>): Promise<void> {
  const server = await startModelServer(turns);
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

function responsesBody(input: unknown[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }]): string {
  return JSON.stringify({ model: "gpt-test", input, tools: [], stream: true });
}

function post(server: ModelServer, path: string, body: string): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
}

function events(raw: string): Json[] {
  return parseSse(raw).map((f) => {
    const data = JSON.parse(f.data) as Json;
    assert.equal(f.event, data.type, "SSE event name matches the JSON type");
    return data;
  });
}

/** Reads a body to the end, tolerating an aborted connection. */
async function readLenient(res: Response): Promise<{ text: string; failed: boolean }> {
  let out = "";
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: out, failed: false };
      out += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text: out, failed: true };
  }
}

void test("Responses stream: message, function call and custom tool call", async () => {
  const script = [{ ...turn(reasoning("think a", "think b"), text("Hello there, world"), fnCall("shell", { command: ["ls"] }, "call_1"), customCall("apply_patch", "*** Begin Patch\n*** End Patch", "call_2")), usage: { input: 100, output: 20, cached: 40, reasoning: 5 } }];
  await withServer(script, async (server) => {
    const res = await post(server, "/responses", responsesBody());
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    const evs = events(await res.text());
    const types = evs.map((e) => e.type);
    assert.equal(types[0], "response.created");
    assert.equal(types.at(-1), "response.completed");
    assert.deepEqual((evs[0]!.response as Json).id, "resp_1");

    // Collapse runs of deltas to see the overall order.
    const collapsed = types.filter((t, i) => t !== types[i - 1] || !t!.endsWith(".delta"));
    assert.deepEqual(collapsed, [
      "response.created",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.output_item.done",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.output_item.done",
      "response.output_item.added",
      "response.custom_tool_call_input.delta",
      "response.output_item.done",
      "response.completed",
    ]);

    const textDeltas = evs.filter((e) => e.type === "response.output_text.delta");
    assert.ok(textDeltas.length > 1, "text arrives in several deltas");
    assert.equal(textDeltas.map((e) => e.delta).join(""), "Hello there, world");
    assert.deepEqual(
      { ...textDeltas[0], delta: undefined, sequence_number: undefined },
      { type: "response.output_text.delta", output_index: 1, item_id: "msg_1", content_index: 0, delta: undefined, sequence_number: undefined },
    );
    const argDeltas = evs.filter((e) => e.type === "response.function_call_arguments.delta");
    assert.equal(argDeltas.map((e) => e.delta).join(""), '{"command":["ls"]}');
    assert.equal(argDeltas[0]!.item_id, "fc_1");
    const inputDeltas = evs.filter((e) => e.type === "response.custom_tool_call_input.delta");
    assert.equal(inputDeltas.map((e) => e.delta).join(""), "*** Begin Patch\n*** End Patch");

    const summaryDeltas = evs.filter((e) => e.type === "response.reasoning_summary_text.delta");
    assert.equal(summaryDeltas.filter((e) => e.summary_index === 1).map((e) => e.delta).join(""), "think b");

    const added = evs.filter((e) => e.type === "response.output_item.added").map((e) => e.item);
    assert.deepEqual(added[1], { type: "message", id: "msg_1", role: "assistant", status: "in_progress", content: [] });
    const done = evs.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
    assert.deepEqual(done, [
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "think a" }, { type: "summary_text", text: "think b" }], encrypted_content: "encrypted:rs_1" },
      { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Hello there, world", annotations: [] }] },
      { type: "function_call", id: "fc_1", call_id: "call_1", name: "shell", arguments: '{"command":["ls"]}', status: "completed" },
      { type: "custom_tool_call", id: "ctc_1", call_id: "call_2", name: "apply_patch", input: "*** Begin Patch\n*** End Patch", status: "completed" },
    ]);
    const completed = evs.at(-1)!.response as Json;
    assert.equal(completed.id, "resp_1");
    assert.deepEqual(completed.usage, {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 40 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 5 },
      total_tokens: 120,
    });
    assert.deepEqual(server.violations, []);
  });
});

void test("Responses stream: failed turn ends with response.failed", async () => {
  await withServer([{ outputs: [text("partial")], failed: { code: "server_error", message: "boom" } }], async (server) => {
    const evs = events(await (await post(server, "/responses", responsesBody())).text());
    const last = evs.at(-1)!;
    assert.equal(last.type, "response.failed");
    assert.deepEqual((last.response as Json).error, { code: "server_error", message: "boom" });
    assert.ok(!evs.some((e) => e.type === "response.completed"));
  });
});

void test("Responses stream: a hosted web search is announced without an action, progresses, and is done with it", async () => {
  const action = { type: "search", query: "weather" };
  await withServer([turn(webSearch(action), text("Sunny."))], async (server) => {
    const evs = events(await (await post(server, "/responses", responsesBody())).text());
    const search = evs.filter((e) => e.type?.includes("web_search") || (e.item as Json | undefined)?.type === "web_search_call");
    assert.deepEqual(
      search.map((e) => e.type),
      ["response.output_item.added", "response.web_search_call.in_progress", "response.web_search_call.searching", "response.web_search_call.completed", "response.output_item.done"],
    );
    assert.deepEqual(search[0]!.item, { type: "web_search_call", id: "ws_1", status: "in_progress" });
    assert.deepEqual(search.at(-1)!.item, { type: "web_search_call", id: "ws_1", status: "completed", action });
    const output = ((evs.at(-1)!.response as Json).output as Json[]).map((o) => o.type);
    assert.deepEqual(output, ["web_search_call", "message"]);
  });
  // The Chat wire has no hosted tools: the search leaves no trace there.
  await withServer([turn(webSearch(action), text("Sunny."))], async (server) => {
    const body = JSON.stringify({ model: "m1", messages: [{ role: "user", content: "hi" }], stream: true });
    const raw = await (await post(server, "/chat/completions", body)).text();
    assert.ok(!raw.includes("web_search"));
    assert.match(raw, /"content":"Su"/);
  });
});

void test("Chat Completions stream: text reply, usage chunk and [DONE]", async () => {
  await withServer([{ ...turn(text("Hi from chat")), usage: { input: 9, output: 3 } }], async (server) => {
    const body = JSON.stringify({ model: "m1", messages: [{ role: "user", content: "hi" }], stream: true, stream_options: { include_usage: true } });
    const res = await post(server, "/chat/completions", body);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    const frames = parseSse(await res.text());
    assert.ok(frames.every((f) => f.event === undefined));
    assert.equal(frames.at(-1)!.data, "[DONE]");
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.data) as Json);
    for (const c of chunks) {
      assert.equal(c.object, "chat.completion.chunk");
      assert.equal(c.id, "chatcmpl_1");
      assert.equal(c.model, "m1");
    }
    const choices = chunks.flatMap((c) => c.choices as Json[]);
    assert.equal((choices[0]!.delta as Json).role, "assistant");
    const content = choices.map((ch) => (ch.delta as Json).content ?? "").join("");
    assert.equal(content, "Hi from chat");
    assert.ok(choices.filter((ch) => (ch.delta as Json).content).length > 1, "content arrives in several chunks");
    assert.equal(choices.at(-1)!.finish_reason, "stop");
    assert.deepEqual(chunks.at(-1)!.choices, []);
    assert.deepEqual(chunks.at(-1)!.usage, {
      prompt_tokens: 9, completion_tokens: 3, total_tokens: 12,
      prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 },
    });
  });
});

void test("Chat Completions stream: fragmented tool calls, custom call as {input}", async () => {
  await withServer([turn(fnCall("shell", { command: ["echo", "hello"] }, "call_a"), customCall("apply_patch", "PATCH", "call_b"))], async (server) => {
    const body = JSON.stringify({ model: "m1", messages: [{ role: "user", content: "hi" }], stream: true });
    const frames = parseSse(await (await post(server, "/chat/completions", body)).text());
    assert.equal(frames.at(-1)!.data, "[DONE]");
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.data) as Json);
    assert.ok(!chunks.some((c) => "usage" in c), "no usage chunk unless asked for");
    const calls = new Map<number, { id?: string; name?: string; args: string; pieces: number }>();
    for (const c of chunks) {
      const delta = (c.choices as Json[])[0]!.delta as Json;
      for (const tc of (delta.tool_calls as Json[] | undefined) ?? []) {
        const fn = tc.function as Json;
        const entry = calls.get(tc.index as number) ?? { args: "", pieces: 0 };
        if (tc.id !== undefined) {
          entry.id = tc.id as string;
          assert.equal(tc.type, "function");
        }
        if (fn.name !== undefined) entry.name = fn.name as string;
        if (fn.arguments) {
          entry.args += fn.arguments as string;
          entry.pieces++;
        }
        calls.set(tc.index as number, entry);
      }
    }
    const first = calls.get(0)!;
    assert.deepEqual([first.id, first.name, JSON.parse(first.args)], ["call_a", "shell", { command: ["echo", "hello"] }]);
    assert.ok(first.pieces > 1, "arguments arrive in several fragments");
    const second = calls.get(1)!;
    assert.deepEqual([second.id, second.name, JSON.parse(second.args)], ["call_b", "apply_patch", { input: "PATCH" }]);
    assert.equal((chunks.at(-1)!.choices as Json[])[0]!.finish_reason, "tool_calls");
  });
});

void test("non-200 turn sends the error body and extra headers", async () => {
  await withServer([errorTurn(429, { "retry-after": "2" }), turn(text("ok"))], async (server) => {
    const res = await post(server, "/responses", responsesBody());
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "2");
    const err = (await res.json()) as { error: Json };
    assert.equal(err.error.code, "rate_limit_exceeded");
    assert.equal(typeof err.error.message, "string");
    const ok = await post(server, "/responses", responsesBody());
    assert.equal(ok.status, 200);
    assert.equal(events(await ok.text()).at(-1)!.type, "response.completed");
  });
});

void test("dropAfterEvents cuts the stream before completion", async () => {
  await withServer([{ ...turn(text("some long text to stream")), dropAfterEvents: 3 }], async (server) => {
    const res = await post(server, "/responses", responsesBody());
    assert.equal(res.status, 200);
    const { text: raw, failed } = await readLenient(res);
    assert.ok(failed, "the client sees a broken connection");
    const evs = parseSse(raw);
    assert.equal(evs.length, 3);
    assert.ok(!evs.some((f) => f.event === "response.completed"));
  });
});

void test("requests are recorded with method, path, headers and parsed body", async () => {
  await withServer([turn(text("a")), turn(text("b"))], async (server) => {
    const waiting = server.waitForRequests(2, 2000);
    await (await post(server, "/responses", responsesBody())).text();
    const chat = JSON.stringify({ model: "m2", messages: [{ role: "user", content: "x" }], stream: true });
    await (await post(server, "/chat/completions", chat)).text();
    await waiting;
    assert.equal(server.requests.length, 2);
    const [r1, r2] = server.requests;
    assert.deepEqual([r1!.method, r1!.path, r1!.wire, r1!.turnIndex], ["POST", "/v1/responses", "responses", 0]);
    assert.equal(r1!.body.model, "gpt-test");
    assert.equal(r1!.headers["content-type"], "application/json");
    assert.deepEqual([r2!.path, r2!.wire, r2!.turnIndex, r2!.body.model], ["/v1/chat/completions", "chat", 1, "m2"]);
    assert.ok(r2!.receivedAt >= r1!.receivedAt);
    await assert.rejects(server.waitForRequests(3, 50), /waited 50ms for 3 requests/);

    const missing = await fetch(`${server.url}/models`);
    assert.equal(missing.status, 404);
    await missing.text();
    assert.equal(server.unhandled.length, 1);
    assert.equal(server.requests.length, 2);
    assert.deepEqual(server.violations, []);
  });
});

void test("unpaired tool calls and outputs are reported as violations", async () => {
  await withServer([turn(text("a")), turn(text("b")), turn(text("c"))], async (server) => {
    const input = [
      { type: "function_call", name: "shell", arguments: "{}", call_id: "c1" },
      { type: "custom_tool_call", name: "apply_patch", input: "x", call_id: "c2" },
      { type: "custom_tool_call_output", call_id: "c2", output: "done" },
      { type: "function_call_output", call_id: "c9", output: "orphan" },
    ];
    await (await post(server, "/responses", responsesBody(input))).text();
    assert.equal(server.violations.length, 2, server.violations.join("\n"));
    assert.match(server.violations[0]!, /function_call call_id "c1" has no matching function_call_output/);
    assert.match(server.violations[1]!, /function_call_output call_id "c9" has no matching function_call/);

    const paired = [
      { type: "function_call", name: "shell", arguments: "{}", call_id: "c1" },
      { type: "function_call_output", call_id: "c1", output: "ok" },
    ];
    await (await post(server, "/responses", responsesBody(paired))).text();
    assert.equal(server.violations.length, 2, "a well-paired history adds nothing");

    const messages = [
      { role: "user", content: "hi" },
      { role: "assistant", content: null, tool_calls: [{ id: "t1", type: "function", function: { name: "shell", arguments: "{}" } }] },
    ];
    await (await post(server, "/chat/completions", JSON.stringify({ model: "m", messages, stream: true }))).text();
    assert.equal(server.violations.length, 3);
    assert.match(server.violations[2]!, /request #3 \(chat\).*"t1" has no matching tool message/);
  });
});

void test("an exhausted script answers 500 and records a violation", async () => {
  await withServer([turn(text("only one"))], async (server) => {
    await (await post(server, "/responses", responsesBody())).text();
    const res = await post(server, "/responses", responsesBody());
    assert.equal(res.status, 500);
    const err = (await res.json()) as { error: { message: string } };
    assert.match(err.error.message, /script exhausted/);
    assert.equal(server.violations.length, 1);
    assert.match(server.violations[0]!, /script exhausted/);
    assert.equal(server.requests[1]!.turnIndex, -1);

    server.push(turn(text("more")));
    const again = await post(server, "/responses", responsesBody());
    assert.equal(again.status, 200);
    await again.text();
  });
});

void test("delayMs and eventDelayMs pace the reply", async () => {
  await withServer([{ ...turn(text("abc")), delayMs: 80, eventDelayMs: 10 }], async (server) => {
    const start = Date.now();
    const res = await post(server, "/responses", responsesBody());
    assert.ok(Date.now() - start >= 70, "headers arrive after the delay");
    const evs = events(await res.text());
    assert.ok(Date.now() - start >= 70 + 10 * (evs.length - 1) - 20);
  });
});

void test("close() does not hang on a hanging stream", async () => {
  const server = await startModelServer([{ ...turn(text("never finishes")), hangAfterEvents: 2 }]);
  const res = await post(server, "/responses", responsesBody());
  const reading = readLenient(res);
  await new Promise((r) => setTimeout(r, 100));
  const start = Date.now();
  await server.close();
  assert.ok(Date.now() - start < 1000, "close returned promptly");
  const { text: raw, failed } = await reading;
  assert.ok(failed, "the client sees the connection drop");
  assert.equal(parseSse(raw).length, 2);
});

void test("long-session options: usage from the request size, an enforced window, a responder, the compaction endpoint", async () => {
  const server = await startModelServer([], {
    usageFromBody: true,
    contextWindow: 200,
    respond: () => turn(text("from the responder")),
  });
  try {
    const body = responsesBody();
    const ok = await post(server, "/responses", body);
    const completed = events(await ok.text()).find((e) => e.type === "response.completed");
    const usage = (completed?.response as JsonObject | undefined)?.usage as JsonObject | undefined;
    assert.equal(usage?.input_tokens, estimatedRequestTokens(body));
    const tooBig = await post(server, "/responses", responsesBody([{ type: "message", role: "user", content: [{ type: "input_text", text: "x".repeat(2_000) }] }]));
    assert.equal(tooBig.status, 400);
    assert.equal(((await tooBig.json()) as { error: { code: string } }).error.code, "context_length_exceeded");
    const compacted = await post(server, "/responses/compact", JSON.stringify({ model: "m", input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "keep me" }] }], instructions: "" }));
    const output = ((await compacted.json()) as { output: Json[] }).output;
    assert.deepEqual(output.map((i) => i.type), ["message", "compaction"]);
    assert.equal(server.compactions.length, 1);
    assert.equal(server.requests.length, 2);
    assert.deepEqual(server.violations, []);
  } finally {
    await server.close();
  }
});
