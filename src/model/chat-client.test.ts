import { test } from "node:test";
import assert from "node:assert/strict";
import { userText } from "../protocol/items.js";
import { APPLY_PATCH_LARK_GRAMMAR, type ToolSpec } from "../protocol/tool-spec.js";
import { chatRequestBody, freeformToolNames, parseChatStream, type ChatStreamOptions } from "./chat-client.js";
import { ModelError } from "./errors.js";
import type { ModelStreamEvent, Prompt } from "./prompt.js";

const encoder = new TextEncoder();

/** A response body that sends `frames` (raw SSE text) one read at a time, then ends (or hangs). */
async function* body(frames: string[], opts: { hang?: boolean } = {}): AsyncGenerator<Uint8Array> {
  for (const frame of frames) yield encoder.encode(frame);
  if (opts.hang) await new Promise<void>(() => undefined);
}

const sse = (data: unknown): string => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null, id = "chatcmpl-9"): string =>
  sse({ id, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason }] });
const usageChunk = sse({
  id: "chatcmpl-9",
  object: "chat.completion.chunk",
  choices: [],
  usage: {
    prompt_tokens: 100,
    completion_tokens: 20,
    total_tokens: 120,
    prompt_tokens_details: { cached_tokens: 64 },
    completion_tokens_details: { reasoning_tokens: 5 },
  },
});
const DONE = sse("[DONE]");

async function collect(frames: string[], options: ChatStreamOptions = {}, idleMs = 5000): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const e of parseChatStream(body(frames), idleMs, new AbortController().signal, options)) events.push(e);
  return events;
}

async function failure(frames: string[], opts: { hang?: boolean; idleMs?: number } = {}): Promise<ModelError> {
  try {
    const stream = parseChatStream(body(frames, opts), opts.idleMs ?? 5000, new AbortController().signal);
    for await (const _ of stream) void _;
  } catch (err) {
    assert.ok(err instanceof ModelError, String(err));
    return err;
  }
  throw new Error("the stream did not fail");
}

const done = (events: ModelStreamEvent[]) =>
  events.flatMap((e) => (e.type === "output_item_done" ? [e.item] : []));

const execTool: ToolSpec = {
  type: "function",
  name: "exec_command",
  description: "run",
  strict: false,
  parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"], additionalProperties: false },
};
const patchTool: ToolSpec = {
  type: "custom",
  name: "apply_patch",
  description: "patch",
  format: { type: "grammar", syntax: "lark", definition: APPLY_PATCH_LARK_GRAMMAR },
};

function prompt(over: Partial<Prompt> = {}): Prompt {
  return {
    model: "qwen3",
    input: [userText("hi")],
    tools: [],
    parallelToolCalls: false,
    reasoning: null,
    verbosity: null,
    outputSchema: null,
    threadId: "thread-1",
    ...over,
  };
}

void test("the request body: messages, streaming with usage, and nothing a plain server would not know", () => {
  assert.deepEqual(chatRequestBody(prompt({ verbosity: "low" })), {
    model: "qwen3",
    messages: [{ role: "user", content: "hi" }],
    stream: true,
    stream_options: { include_usage: true },
  });
});

void test("tools go out as functions (freeform ones taking {input}, web search dropped), with effort and output schema", () => {
  const schema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false };
  const body = chatRequestBody(
    prompt({
      tools: [execTool, patchTool, { type: "web_search" }],
      parallelToolCalls: true,
      reasoning: { effort: "high", summary: "auto" },
      outputSchema: schema,
    }),
  );
  const tools = body.tools as { type: string; function: { name: string; parameters: { properties?: Record<string, unknown> } } }[];
  assert.deepEqual(
    tools.map((t) => [t.type, t.function.name, Object.keys(t.function.parameters.properties ?? {})]),
    [
      ["function", "exec_command", ["cmd"]],
      ["function", "apply_patch", ["input"]],
    ],
  );
  assert.equal(body.tool_choice, "auto");
  assert.equal(body.parallel_tool_calls, true);
  assert.equal(body.reasoning_effort, "high");
  assert.deepEqual(body.response_format, {
    type: "json_schema",
    json_schema: { name: "codex_output_schema", schema, strict: true },
  });
  assert.deepEqual(Object.keys(body), [
    "model",
    "messages",
    "stream",
    "stream_options",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "reasoning_effort",
    "response_format",
  ]);
  assert.equal(chatRequestBody(prompt({ reasoning: { effort: null, summary: null } })).reasoning_effort, undefined);
  assert.deepEqual([...freeformToolNames([execTool, patchTool])], ["apply_patch"]);
});

void test("text deltas become one assistant message; the usage chunk (no choices) becomes the completion's usage", async () => {
  const events = await collect([
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "Hel" }),
    chunk({ content: "lo" }),
    chunk({}, "stop"),
    usageChunk,
    DONE,
  ]);
  assert.deepEqual(events, [
    { type: "created" },
    { type: "output_item_added", item: { type: "message", role: "assistant", content: [] } },
    { type: "output_text_delta", delta: "Hel" },
    { type: "output_text_delta", delta: "lo" },
    { type: "output_item_done", item: { type: "message", role: "assistant", content: [{ type: "output_text", text: "Hello" }] } },
    {
      type: "completed",
      responseId: "chatcmpl-9",
      usage: { input_tokens: 100, cached_input_tokens: 64, output_tokens: 20, reasoning_output_tokens: 5, total_tokens: 120 },
    },
  ]);
});

void test("tool-call arguments fragmented across chunks are joined into one function_call", async () => {
  const events = await collect([
    chunk({ role: "assistant", content: null }),
    chunk({ tool_calls: [{ index: 0, id: "call_abc", type: "function", function: { name: "exec_command", arguments: "" } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"cm' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'd":"ls -' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'la"}' } }] }),
    chunk({}, "tool_calls"),
    DONE,
  ]);
  assert.deepEqual(done(events), [{ type: "function_call", name: "exec_command", arguments: '{"cmd":"ls -la"}', call_id: "call_abc" }]);
  assert.equal(events.at(-1)?.type, "completed");
  assert.deepEqual(events.at(-1), { type: "completed", responseId: "chatcmpl-9", usage: null });
});

void test("two parallel calls interleaved by index come out in index order, after the text that preceded them", async () => {
  const events = await collect([
    chunk({ content: "Looking." }),
    chunk({ tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "exec_command", arguments: '{"cmd":' } }] }),
    chunk({ tool_calls: [{ index: 1, id: "b", type: "function", function: { name: "exec_command", arguments: '{"cmd":' } }] }),
    chunk({ tool_calls: [{ index: 1, function: { arguments: '"pwd"}' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] }),
    chunk({}, "tool_calls"),
    DONE,
  ]);
  assert.deepEqual(done(events), [
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "Looking." }] },
    { type: "function_call", name: "exec_command", arguments: '{"cmd":"ls"}', call_id: "a" },
    { type: "function_call", name: "exec_command", arguments: '{"cmd":"pwd"}', call_id: "b" },
  ]);
});

void test("reasoning_content and reasoning both become a reasoning item, emitted before the message", async () => {
  for (const field of ["reasoning_content", "reasoning"]) {
    const events = await collect([
      chunk({ role: "assistant", content: "" }),
      chunk({ [field]: "Let me " }),
      chunk({ [field]: "think." }),
      chunk({ content: "Answer" }),
      chunk({}, "stop"),
      DONE,
    ]);
    assert.deepEqual(
      events.filter((e) => e.type === "reasoning_content_delta"),
      [
        { type: "reasoning_content_delta", delta: "Let me " },
        { type: "reasoning_content_delta", delta: "think." },
      ],
      field,
    );
    assert.deepEqual(
      done(events),
      [
        { type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "Let me think." }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Answer" }] },
      ],
      field,
    );
  }
  // A server sending both names for the same text is not counted twice.
  const both = await collect([chunk({ reasoning_content: "once", reasoning: "once" }), chunk({}, "stop"), DONE]);
  assert.deepEqual(done(both), [{ type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "once" }] }]);
});

void test("a call to a freeform tool comes back as custom_tool_call with the input taken out of the arguments", async () => {
  const patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n";
  const args = JSON.stringify({ input: patch });
  const events = await collect(
    [
      chunk({ tool_calls: [{ index: 0, id: "p1", type: "function", function: { name: "apply_patch", arguments: args.slice(0, 10) } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(10) } }] }),
      chunk({ tool_calls: [{ index: 1, id: "p2", type: "function", function: { name: "apply_patch", arguments: patch } }] }),
      chunk({}, "tool_calls"),
      DONE,
    ],
    { freeformTools: new Set(["apply_patch"]) },
  );
  assert.deepEqual(done(events), [
    { type: "custom_tool_call", name: "apply_patch", input: patch, call_id: "p1" },
    { type: "custom_tool_call", name: "apply_patch", input: patch, call_id: "p2" }, // Raw text, no JSON wrapper.
  ]);
});

void test("missing ids are made up: call_<n> skipping ids already in history, and a response id", async () => {
  const events = await collect(
    [
      sse({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: "exec_command", arguments: "" } }] } }] }),
      sse({ choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { name: "exec_command", arguments: "{}" } }] } }] }),
      sse({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }),
      DONE,
    ],
    { usedCallIds: new Set(["call_1"]) },
  );
  assert.deepEqual(done(events), [
    { type: "function_call", name: "exec_command", arguments: "{}", call_id: "call_2" },
    { type: "function_call", name: "exec_command", arguments: "{}", call_id: "call_3" },
  ]);
  const completed = events.at(-1);
  assert.ok(completed?.type === "completed" && completed.responseId.startsWith("chatcmpl-"));
});

void test("calls without an index are told apart by their ids", async () => {
  const events = await collect([
    chunk({ tool_calls: [{ id: "x", type: "function", function: { name: "exec_command", arguments: '{"cmd":"a"}' } }] }),
    chunk({ tool_calls: [{ id: "y", type: "function", function: { name: "exec_command", arguments: '{"cmd":' } }] }),
    chunk({ tool_calls: [{ function: { arguments: '"b"}' } }] }),
    chunk({}, "tool_calls"),
    DONE,
  ]);
  assert.deepEqual(
    done(events).map((i) => (i.type === "function_call" ? [i.call_id, i.arguments] : [])),
    [
      ["x", '{"cmd":"a"}'],
      ["y", '{"cmd":"b"}'],
    ],
  );
});

void test("whitespace-only content before tool calls makes no assistant message", async () => {
  const events = await collect([
    chunk({ content: "\n\n" }),
    chunk({ tool_calls: [{ index: 0, id: "c", type: "function", function: { name: "exec_command", arguments: "{}" } }] }),
    chunk({}, "tool_calls"),
    DONE,
  ]);
  assert.deepEqual(
    events.map((e) => e.type),
    ["created", "output_item_added", "output_item_done", "completed"],
  );
  assert.equal(done(events)[0]?.type, "function_call");
});

void test("a stream that ends without [DONE] and without finish_reason dropped: retryable", async () => {
  const err = await failure([chunk({ content: "partial" })]);
  assert.equal(err.kind, "retryable");
  assert.equal(err.options.streamDisconnected, true);
});

void test("a stream that ends after finish_reason without [DONE] is complete", async () => {
  const events = await collect([chunk({ content: "ok" }), chunk({}, "stop"), usageChunk]);
  assert.deepEqual(events.at(-1), {
    type: "completed",
    responseId: "chatcmpl-9",
    usage: { input_tokens: 100, cached_input_tokens: 64, output_tokens: 20, reasoning_output_tokens: 5, total_tokens: 120 },
  });
});

void test("a stream that goes idle is a retryable disconnect", async () => {
  const err = await failure([chunk({ content: "partial" })], { hang: true, idleMs: 50 });
  assert.equal(err.kind, "retryable");
  assert.equal(err.options.streamDisconnected, true);
  assert.match(err.message, /idle timeout/);
});

void test("an error chunk fails the stream, classified like a failed Responses stream", async () => {
  const transient = await failure([chunk({ content: "x" }), sse({ error: { message: "overloaded", type: "server_error", code: "server_error" } })]);
  assert.equal(transient.kind, "retryable");
  assert.equal(transient.message, "overloaded");
  assert.equal(transient.options.streamDisconnected, true);

  const quota = await failure([sse({ error: { message: "no credits", code: "insufficient_quota" } })]);
  assert.equal(quota.kind, "quota");

  const context = await failure([sse({ error: { message: "too long", code: "context_length_exceeded" } })]);
  assert.equal(context.kind, "context_window");

  const bare = await failure([sse({ error: "model not loaded" })]);
  assert.equal(bare.kind, "retryable");
  assert.equal(bare.message, "model not loaded");
});

void test("finish_reason length means the context filled up: not retried", async () => {
  const err = await failure([chunk({ content: "trunc" }), chunk({}, "length"), DONE]);
  assert.equal(err.kind, "context_window");
});
