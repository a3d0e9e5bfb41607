/**
 * The Chat Completions client, for any OpenAI-compatible server (Ollama, LM Studio, vLLM, Azure
 * chat deployments…): `POST {base_url}/chat/completions` with `stream: true`. It speaks the same
 * ModelClient contract as the Responses client, so the turn loop cannot tell them apart:
 * request-level retries happen inside (postWithRetries), and a stream that fails, drops or goes
 * idle once started throws a retryable ModelError for the turn loop.
 *
 * Chat streams deltas, not items, so items are assembled here and emitted when the answer is
 * complete, in the order history wants them: reasoning, then the assistant message, then the
 * tool calls.
 */
import { randomUUID } from "node:crypto";
import type { ResponseItem } from "../protocol/items.js";
import type { TokenUsage } from "../protocol/events.js";
import type { ToolSpec } from "../protocol/tool-spec.js";
import { toChatTools } from "./chat-tools.js";
import { toChatMessages } from "./chat-messages.js";
import { ModelError, classifyServerError, incompleteAnswer } from "./errors.js";
import { postWithRetries } from "./http.js";
import type { ModelClient, ModelStreamEvent, Prompt, RetryListener } from "./prompt.js";
import { endpointUrl, type ModelProvider } from "./provider.js";
import { requestHeaders, type ClientIdentity } from "./responses-client.js";
import { readSse, type SseBody } from "./sse.js";

export class ChatClient implements ModelClient {
  constructor(
    private readonly provider: ModelProvider,
    private readonly identity: ClientIdentity,
  ) {}

  get requestMaxRetries(): number {
    return this.provider.requestMaxRetries;
  }

  async *stream(prompt: Prompt, signal: AbortSignal, onRetry?: RetryListener): AsyncGenerator<ModelStreamEvent> {
    const res = await postWithRetries({
      url: endpointUrl(this.provider, "/chat/completions"),
      headers: requestHeaders(this.provider, this.identity, prompt.threadId, prompt.lineage),
      body: JSON.stringify(chatRequestBody(prompt)),
      provider: this.provider,
      signal,
      onRetry,
      telemetry: prompt.telemetry,
    });
    yield* parseChatStream(res.body, this.provider.streamIdleTimeoutMs, signal, {
      freeformTools: freeformToolNames(prompt.tools),
      namespacedTools: namespacedToolNames(prompt.tools),
      usedCallIds: callIdsIn(prompt.input),
    });
  }
}

/**
 * Only fields OpenAI-compatible servers commonly understand: no `store`, no prompt cache key,
 * no verbosity, since stricter servers reject unknown fields.
 */
export function chatRequestBody(prompt: Prompt): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: prompt.model,
    messages: toChatMessages(prompt.input),
    stream: true,
    stream_options: { include_usage: true },
  };
  const tools = toChatTools(prompt.tools);
  if (tools.length > 0) {
    body.tools = tools;
    body.tool_choice = "auto";
    body.parallel_tool_calls = prompt.parallelToolCalls;
  }
  if (prompt.reasoning?.effort) body.reasoning_effort = prompt.reasoning.effort;
  if (prompt.outputSchema !== undefined && prompt.outputSchema !== null) {
    body.response_format = {
      type: "json_schema",
      json_schema: { name: "codex_output_schema", schema: prompt.outputSchema, strict: true },
    };
  }
  return body;
}

/** Names of the freeform (custom) tools: Chat offers them as functions taking `{input}`. */
export function freeformToolNames(tools: readonly ToolSpec[]): Set<string> {
  return new Set(tools.flatMap((t) => (t.type === "custom" ? [t.name] : [])));
}

/**
 * The tools offered inside a namespace tool, by name, with their namespace: Chat offers them as
 * plain functions, and a call to one is given its namespace back, so history and routing are the
 * same on both wires.
 */
export function namespacedToolNames(tools: readonly ToolSpec[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const spec of tools) {
    if (spec.type !== "namespace") continue;
    for (const inner of spec.tools) if (inner.type === "function") names.set(inner.name, spec.name);
  }
  return names;
}

function callIdsIn(input: readonly ResponseItem[]): Set<string> {
  const ids = new Set<string>();
  for (const item of input) if (item.type === "function_call" || item.type === "custom_tool_call") ids.add(item.call_id);
  return ids;
}

export interface ChatStreamOptions {
  /** Tool names whose calls become custom_tool_call items, with `input` taken out of the arguments. */
  freeformTools?: ReadonlySet<string>;
  /** Tools offered inside a namespace (flattened for Chat), by name: their calls get the namespace back. */
  namespacedTools?: ReadonlyMap<string, string>;
  /** Call ids already in history: generated ids (`call_<n>`) skip them so they stay unique. */
  usedCallIds?: ReadonlySet<string>;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

/** Text that becomes an item once it holds more than whitespace (servers often open with "\n\n"). */
class TextItem {
  text = "";
  started = false;

  /** Adds a delta; returns the text to emit now, and whether the item just started. */
  push(delta: string): { emit: string; justStarted: boolean } | null {
    this.text += delta;
    if (this.started) return { emit: delta, justStarted: false };
    if (this.text.trim() === "") return null;
    this.started = true;
    return { emit: this.text, justStarted: true };
  }
}

/**
 * Turns a chat.completion.chunk SSE stream into ModelStreamEvents. Deltas are forwarded as they
 * come; items are emitted at the end (reasoning, message, tool calls), then `completed`. The
 * answer is complete at `[DONE]`, or at the end of the body once a finish_reason was seen.
 */
export async function* parseChatStream(
  body: SseBody,
  idleMs: number,
  signal: AbortSignal,
  options: ChatStreamOptions = {},
): AsyncGenerator<ModelStreamEvent> {
  const freeform = options.freeformTools ?? new Set<string>();
  const namespaced = options.namespacedTools ?? new Map<string, string>();
  const used = new Set(options.usedCallIds ?? []);
  let responseId: string | null = null;
  let created = false;
  let finishReason: string | null = null;
  let usage: TokenUsage | null = null;
  const message = new TextItem();
  const reasoning = new TextItem();
  const calls: PendingCall[] = [];
  const callsByIndex = new Map<number, PendingCall>();

  const finish = function* (): Generator<ModelStreamEvent> {
    if (reasoning.started) {
      const item: ResponseItem = { type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: reasoning.text }] };
      yield { type: "output_item_done", item };
    }
    if (message.started) {
      const item: ResponseItem = { type: "message", role: "assistant", content: [{ type: "output_text", text: message.text }] };
      yield { type: "output_item_done", item };
    }
    for (const call of calls) {
      const item = toolCallItem(call, freeform, namespaced, used);
      yield { type: "output_item_added", item };
      yield { type: "output_item_done", item };
    }
    yield { type: "completed", responseId: responseId ?? `chatcmpl-${randomUUID()}`, usage };
  };

  const frames = readSse(body, idleMs, signal);
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof frames.next>>;
      try {
        next = await frames.next();
      } catch (err) {
        // Once the server said why it stopped, the answer is whole; only the usage may be lost.
        if (finishReason !== null && err instanceof ModelError && err.options.streamDisconnected && !signal.aborted) break;
        throw err;
      }
      if (next.done) break;
      const frame = next.value;
      if (frame.data.trim() === "[DONE]") {
        yield* finish();
        return;
      }
      let data: unknown;
      try {
        data = JSON.parse(frame.data);
      } catch {
        if (frame.event === "error") throw failureError(undefined, frame.data);
        continue; // Keep-alives and malformed frames carry nothing we can use.
      }
      if (!isObject(data)) continue;
      if (data.error !== undefined && data.error !== null) throw chunkError(data.error);
      if (frame.event === "error") throw chunkError(data);

      if (!created) {
        created = true;
        yield { type: "created" };
      }
      if (responseId === null && typeof data.id === "string" && data.id !== "") responseId = data.id;
      if (isObject(data.usage)) usage = parseUsage(data.usage);

      const choices = Array.isArray(data.choices) ? (data.choices as unknown[]).filter(isObject) : [];
      const choice = choices.find((c) => c.index === 0 || c.index === undefined) ?? choices[0];
      if (!choice) continue; // The usage chunk has no choices.
      const delta = isObject(choice.delta) ? choice.delta : {};

      // DeepSeek and vLLM name it reasoning_content, Ollama and OpenRouter reasoning; a server in
      // transition may send both with the same text, so one is taken.
      const thought = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
      if (thought !== null) {
        const out = reasoning.push(thought);
        if (out?.justStarted) yield { type: "output_item_added", item: { type: "reasoning", summary: [] } };
        if (out) yield { type: "reasoning_content_delta", delta: out.emit };
      }

      const text = nonEmpty(delta.content) ?? nonEmpty(delta.refusal);
      if (text !== null) {
        const out = message.push(text);
        if (out?.justStarted) {
          yield { type: "output_item_added", item: { type: "message", role: "assistant", content: [] } };
        }
        if (out) yield { type: "output_text_delta", delta: out.emit };
      }

      if (Array.isArray(delta.tool_calls)) {
        for (const fragment of (delta.tool_calls as unknown[]).filter(isObject)) addFragment(fragment, calls, callsByIndex);
      }

      if (typeof choice.finish_reason === "string" && choice.finish_reason !== "") {
        finishReason = choice.finish_reason;
        if (finishReason === "length") {
          // Nothing capped the output, so the context window filled up; a retry would too.
          throw classifyServerError(400, "context_length_exceeded", "the answer was cut off (finish_reason: length)");
        }
        if (finishReason === "content_filter") throw incompleteAnswer("content_filter");
      }
    }
    if (finishReason === null) {
      throw new ModelError("retryable", "stream closed before [DONE]", { streamDisconnected: true });
    }
    // Some servers end after the finish chunk (and usage) without sending [DONE].
    yield* finish();
  } finally {
    await frames.return(undefined); // Releases the connection when we stop early.
  }
}

const nonEmpty = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * Tool calls arrive as fragments keyed by `index`: the first carries id and name, the rest
 * pieces of `arguments`. Servers that leave out `index` send a new id for each new call.
 */
function addFragment(fragment: Json, calls: PendingCall[], byIndex: Map<number, PendingCall>): void {
  const fn = isObject(fragment.function) ? fragment.function : {};
  const id = nonEmpty(fragment.id);
  let call: PendingCall | undefined;
  if (typeof fragment.index === "number") {
    call = byIndex.get(fragment.index);
    if (!call) {
      call = { id: "", name: "", arguments: "" };
      byIndex.set(fragment.index, call);
      calls.push(call);
    }
  } else {
    call = calls.at(-1);
    if (!call || (id !== null && call.id !== "" && call.id !== id)) {
      call = { id: "", name: "", arguments: "" };
      calls.push(call);
    }
  }
  if (id !== null && call.id === "") call.id = id;
  const name = nonEmpty(fn.name);
  if (name !== null && call.name === "") call.name = name;
  // A few servers send a whole arguments object instead of JSON text.
  if (typeof fn.arguments === "string") call.arguments += fn.arguments;
  else if (isObject(fn.arguments)) call.arguments += JSON.stringify(fn.arguments);
}

function toolCallItem(call: PendingCall, freeform: ReadonlySet<string>, namespaced: ReadonlyMap<string, string>, used: Set<string>): ResponseItem {
  let callId = call.id;
  if (callId === "") {
    for (let n = 1; ; n++) {
      if (!used.has(`call_${n}`)) {
        callId = `call_${n}`;
        break;
      }
    }
  }
  used.add(callId);
  if (freeform.has(call.name)) return { type: "custom_tool_call", name: call.name, input: freeformInput(call.arguments), call_id: callId };
  const namespace = namespaced.get(call.name);
  const args = call.arguments === "" ? "{}" : call.arguments;
  return namespace === undefined
    ? { type: "function_call", name: call.name, arguments: args, call_id: callId }
    : { type: "function_call", name: call.name, namespace, arguments: args, call_id: callId };
}

/**
 * The raw input of a freeform tool offered as a `{input}` function. A model that skips the
 * JSON wrapper, or names the field differently, still gets its text through.
 */
function freeformInput(args: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args;
  }
  if (!isObject(parsed)) return typeof parsed === "string" ? parsed : args;
  if (typeof parsed.input === "string") return parsed.input;
  const strings = Object.values(parsed).filter((v): v is string => typeof v === "string");
  return strings.length === 1 && Object.keys(parsed).length === 1 ? (strings[0] ?? args) : args;
}

/** `{error: {message, code, type}}`, or a bare string from less formal servers. */
function chunkError(raw: unknown): ModelError {
  if (typeof raw === "string") return failureError(undefined, raw);
  const err = isObject(raw) ? raw : {};
  return failureError(err.code ?? err.type, err.message);
}

function failureError(code: unknown, message: unknown): ModelError {
  const text = typeof message === "string" && message !== "" ? message : "the model stream failed";
  const err = classifyServerError(500, typeof code === "string" ? code : undefined, text);
  // Like a failed Responses stream: worth another try unless it is about quota or context.
  return err.retryable ? new ModelError("retryable", text, { ...err.options, streamDisconnected: true }) : err;
}

function parseUsage(u: Json): TokenUsage {
  const num = (v: unknown): number => (typeof v === "number" ? v : 0);
  const input = num(u.prompt_tokens);
  const output = num(u.completion_tokens);
  return {
    input_tokens: input,
    cached_input_tokens: num((u.prompt_tokens_details as Json | undefined)?.cached_tokens),
    output_tokens: output,
    reasoning_output_tokens: num((u.completion_tokens_details as Json | undefined)?.reasoning_tokens),
    total_tokens: input + output,
  };
}
