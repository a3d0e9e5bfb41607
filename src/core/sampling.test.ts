/**
 * Sampling with retries, against an in-memory model client (no HTTP): what a dropped stream,
 * running out of retries, a non-retryable error and an abort during the back-off each do.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { EventMsg } from "../protocol/events.js";
import type { ModelClient, ModelStreamEvent, Prompt } from "../model/prompt.js";
import { ModelError } from "../model/errors.js";
import { sampleWithRetries } from "./sampling.js";

const PROMPT: Prompt = { model: "m", input: [], tools: [], parallelToolCalls: false, reasoning: null, verbosity: null, outputSchema: null, threadId: "t" };
const USAGE = { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1, reasoning_output_tokens: 0, total_tokens: 2 };

type Attempt = ModelStreamEvent[] | { events: ModelStreamEvent[]; fail: ModelError };

/** A client that plays one scripted attempt per call. */
function client(attempts: Attempt[]): ModelClient & { calls: number } {
  const c = {
    calls: 0,
    async *stream(): AsyncGenerator<ModelStreamEvent> {
      const attempt = attempts[c.calls++];
      if (!attempt) throw new Error("no more scripted attempts");
      const events = Array.isArray(attempt) ? attempt : attempt.events;
      for (const e of events) yield await Promise.resolve(e);
      if (!Array.isArray(attempt)) throw attempt.fail;
    },
  };
  return c;
}

const answer = (text: string): ModelStreamEvent[] => [
  { type: "created" },
  { type: "output_text_delta", delta: text },
  { type: "output_item_done", item: { type: "message", role: "assistant", content: [{ type: "output_text", text }] } },
  { type: "completed", responseId: "r", usage: USAGE },
];
const dropped = (): ModelError => new ModelError("retryable", "connection reset", { streamDisconnected: true });

void test("a stream that drops is retried from scratch; nothing of the failed attempt is kept", async () => {
  const events: EventMsg[] = [];
  const c = client([{ events: [{ type: "created" }, { type: "output_text_delta", delta: "half" }], fail: dropped() }, answer("whole")]);
  const result = await sampleWithRetries({ client: c, prompt: PROMPT, streamMaxRetries: 3, signal: new AbortController().signal, emit: (m) => events.push(m) });
  assert.equal(c.calls, 2);
  assert.equal(result.lastAgentMessage, "whole");
  assert.equal(result.items.length, 1, "only the successful attempt's items");
  const retry = events.find((e) => e.type === "stream_error");
  assert.equal(retry?.type === "stream_error" && retry.message, "Reconnecting... 1/3");
});

void test("when retries run out the last error is thrown; a non-retryable error is not retried", async () => {
  const c = client([{ events: [], fail: dropped() }, { events: [], fail: dropped() }]);
  await assert.rejects(sampleWithRetries({ client: c, prompt: PROMPT, streamMaxRetries: 1, signal: new AbortController().signal, emit: () => undefined }), /connection reset/);
  assert.equal(c.calls, 2);
  const fatal = client([{ events: [], fail: new ModelError("context_window", "context window exceeded") }]);
  await assert.rejects(sampleWithRetries({ client: fatal, prompt: PROMPT, streamMaxRetries: 5, signal: new AbortController().signal, emit: () => undefined }), /context window/);
  assert.equal(fatal.calls, 1);
});

void test("an abort during the back-off ends the wait at once", async () => {
  const controller = new AbortController();
  const c = client([{ events: [], fail: dropped() }, answer("late")]);
  const started = Date.now();
  const run = sampleWithRetries({
    client: c,
    prompt: PROMPT,
    streamMaxRetries: 5,
    signal: controller.signal,
    emit: (m) => {
      if (m.type === "stream_error") controller.abort(new Error("turn aborted"));
    },
  });
  await assert.rejects(run, /turn aborted/);
  assert.equal(c.calls, 1, "no second attempt after the abort");
  assert.ok(Date.now() - started < 5_000);
});

void test("show_raw_agent_reasoning emits the raw reasoning text; without it only summaries show", async () => {
  const reasoningEvents: ModelStreamEvent[] = [
    { type: "reasoning_content_delta", delta: "raw " },
    { type: "output_item_done", item: { type: "reasoning", summary: [{ type: "summary_text", text: "gist" }], content: [{ type: "reasoning_text", text: "raw thought" }] } },
    { type: "completed", responseId: "r", usage: USAGE },
  ];
  for (const showRawReasoning of [true, false]) {
    const events: EventMsg[] = [];
    await sampleWithRetries({ client: client([reasoningEvents]), prompt: PROMPT, streamMaxRetries: 0, signal: new AbortController().signal, emit: (m) => events.push(m), showRawReasoning });
    const types = events.map((e) => e.type);
    assert.ok(types.includes("agent_reasoning"));
    assert.equal(types.includes("agent_reasoning_raw_content_delta"), showRawReasoning);
    assert.equal(types.includes("agent_reasoning_raw_content"), showRawReasoning);
  }
});

void test("retries the client makes before the stream starts share the turn's sequence and budget", async () => {
  const events: EventMsg[] = [];
  const refused = new ModelError("retryable", "connection refused");
  let calls = 0;
  let gaveUp = false;
  // Each call asks for two request-level retries (as the HTTP layer does), then drops its stream.
  const c: ModelClient = {
    async *stream(_prompt, _signal, onRetry): AsyncGenerator<ModelStreamEvent> {
      calls++;
      for (let i = 0; i < 2; i++) {
        if (onRetry?.(refused) === null) {
          gaveUp = true;
          throw refused;
        }
      }
      yield await Promise.resolve({ type: "created" } as const);
      throw dropped();
    },
  };
  const run = sampleWithRetries({ client: c, prompt: PROMPT, streamMaxRetries: 4, signal: new AbortController().signal, emit: (m) => events.push(m) });
  await assert.rejects(run, /connection refused/);
  assert.ok(gaveUp, "the client was told to stop once the budget was spent");
  assert.equal(calls, 2, "2 retries in the first call, 1 after its stream dropped, 1 in the second call, then none left");
  assert.deepEqual(
    events.filter((e) => e.type === "stream_error").map((e) => (e.type === "stream_error" ? e.message : "")),
    ["Reconnecting... 1/4", "Reconnecting... 2/4", "Reconnecting... 3/4", "Reconnecting... 4/4"],
  );
});

void test("request_max_retries holds even without stream retries: the sequence runs to the larger of the two", async () => {
  const events: EventMsg[] = [];
  const refused = new ModelError("retryable", "HTTP 500");
  const c: ModelClient = {
    requestMaxRetries: 2,
    async *stream(_prompt, _signal, onRetry): AsyncGenerator<ModelStreamEvent> {
      for (let i = 0; i < 2; i++) if (onRetry?.(refused) === null) throw refused;
      yield* answer("after two retries");
    },
  };
  const result = await sampleWithRetries({ client: c, prompt: PROMPT, streamMaxRetries: 0, signal: new AbortController().signal, emit: (m) => events.push(m) });
  assert.equal(result.lastAgentMessage, "after two retries");
  assert.deepEqual(
    events.filter((e) => e.type === "stream_error").map((e) => (e.type === "stream_error" ? e.message : "")),
    ["Reconnecting... 1/2", "Reconnecting... 2/2"],
  );
});
