/**
 * A scripted stand-in for a model provider, for end-to-end tests and benchmarks.
 *
 * It listens on 127.0.0.1 and answers `POST {base}/responses` (OpenAI Responses streaming) and
 * `POST {base}/chat/completions` (Chat Completions streaming) from one shared script: each
 * incoming model request consumes the next ScriptedTurn, whichever wire it arrives on. Every
 * model request is recorded, and the conversation history the client sends is checked for
 * unpaired tool calls / outputs (see `violations`). Ids are counters, so runs are reproducible.
 *
 * For long sessions, `options` make it behave more like a real provider: usage computed from the
 * request's size, a context window it enforces, a function answering whatever the script does
 * not, and the Responses API's compaction endpoint (`POST {base}/responses/compact`). With
 * `options.models` it also lists models as the Codex backend does (`GET …/models`).
 * Only Node's `http` module is used, so the compiled file also works from plain Node scripts.
 */
import http from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { readRequestText, sendJson } from "./http-util.js";

export type ScriptedOutput =
  /** `pieces`: how many deltas the text streams in (3 unless told; a long answer streamed slowly needs many). */
  | { type: "message"; text: string; id?: string; pieces?: number }
  | { type: "reasoning"; summary: string[]; id?: string; encryptedContent?: string }
  /** `namespace`: the group of the tool called (the collab tools' `multi_agent_v1`, or one found by tool_search); Responses only. */
  | { type: "function_call"; name: string; arguments: unknown; callId: string; id?: string; namespace?: string }
  | { type: "custom_tool_call"; name: string; input: string; callId: string; id?: string }
  /**
   * A hosted web search the provider ran itself: announced in progress (no action yet, as the
   * Responses API does), then done with its action (search / open_page / find_in_page).
   */
  | { type: "web_search_call"; action: JsonObject; id?: string; status?: string }
  /** The hosted `tool_search` tool run by the client (`execution: "client"`): the client answers with a `tool_search_output`. */
  | { type: "tool_search_call"; arguments: JsonObject; callId: string; id?: string };

export interface ScriptedTurn {
  outputs?: ScriptedOutput[];
  /** Token usage reported at the end; defaults to DEFAULT_USAGE. */
  usage?: { input: number; output: number; cached?: number; reasoning?: number };
  /** Non-200: reply with `errorBody` as JSON instead of a stream. */
  status?: number;
  /** Body for non-200 replies; strings are sent verbatim, anything else as JSON. */
  errorBody?: unknown;
  /** Extra response headers (for streams and error replies alike), e.g. retry-after. */
  headers?: Record<string, string>;
  /** Pause before the first byte (status line included). */
  delayMs?: number;
  /** Pause before every SSE event after the first. */
  eventDelayMs?: number;
  /** Destroy the socket once N SSE events were written (no completion, no [DONE]). */
  dropAfterEvents?: number;
  /** After N SSE events, stay silent with the connection open until either side closes it. */
  hangAfterEvents?: number;
  /** End with response.failed (Chat: an `error` chunk and no [DONE]) instead of completing. */
  failed?: { code: string; message: string };
  /**
   * End with response.incomplete and this reason (e.g. `max_output_tokens`, `content_filter`)
   * after the outputs; Chat ends with the matching finish_reason (`length`, `content_filter`).
   */
  incomplete?: { reason: string };
}

export type JsonObject = Record<string, unknown>;

/** The parsed request body; `{}` when the body was not a JSON object (see `rawBody`). */
export interface ModelRequestBody {
  model?: string;
  input?: JsonObject[];
  messages?: JsonObject[];
  tools?: JsonObject[];
  stream?: boolean;
  [key: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string without its `?` ("" when none), e.g. Azure's `api-version=…`. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: ModelRequestBody;
  rawBody: string;
  receivedAt: number;
  /** Which protocol the request used; "other" only appears in `unhandled`. */
  wire: "responses" | "chat" | "other";
  /** Index of the scripted turn that answered it (-1 when the script was exhausted). */
  turnIndex: number;
}

/** Credentials the server insists on, as the Codex backend checks a ChatGPT login. */
export interface RequiredAuth {
  /** The token to accept, or a function giving the one valid right now. */
  bearer: string | (() => string);
  /** The `chatgpt-account-id` header's value, when one is required. */
  accountId?: string;
}

export interface ModelServerOptions {
  /**
   * Report `input_tokens` as the request body's estimated size (four bytes per token) for turns
   * that script no usage, so usage grows with the conversation as a real provider's does.
   */
  usageFromBody?: boolean;
  /** Refuse (400 context_length_exceeded) a request whose estimated size exceeds this many tokens. */
  contextWindow?: number;
  /** Answers requests once the script is exhausted (instead of a 500). */
  respond?: (request: RecordedRequest) => ScriptedTurn;
  /**
   * Answers `POST {base}/responses/compact`; by default the output keeps the input's user
   * messages (context ones excluded) and adds one opaque `compaction` item.
   */
  compact?: (request: RecordedRequest) => JsonObject[];
  /**
   * Answers `GET {base}/models` and `GET <chatgpt base>/codex/models` (the Codex backend's list of
   * the account's models, `{models: [...]}`, with an ETag); unset, those paths are 404s.
   */
  models?: ModelListScript;
}

/** The model list the server offers; `status` other than 200 answers with an error instead. */
export interface ModelListScript {
  models: JsonObject[];
  etag?: string;
  status?: number;
  delayMs?: number;
}

/** One entry of a model list, with the fields the reference requires and these values. */
export function listedModel(slug: string, priority: number, visibility: "list" | "hide" = "list"): JsonObject {
  return {
    slug, display_name: slug, description: `${slug} (scripted)`, default_reasoning_level: "medium",
    supported_reasoning_levels: [{ effort: "medium", description: "medium" }], shell_type: "shell_command",
    visibility, supported_in_api: true, priority, upgrade: null, base_instructions: "",
    supports_reasoning_summaries: true, support_verbosity: false, default_verbosity: null,
    apply_patch_tool_type: "freeform", truncation_policy: { mode: "tokens", limit: 10000 },
    supports_parallel_tool_calls: true, context_window: 272000, experimental_supported_tools: [], input_modalities: ["text"],
  };
}

export interface ModelServer {
  /** Provider base URL, e.g. "http://127.0.0.1:PORT/v1". */
  url: string;
  /** A `chatgpt_base_url` for this server: Responses requests to `<it>/codex/responses` are served too. */
  chatgptBaseUrl: string;
  /** Requests refused with a 401 by `requireAuth` (they use no turn). */
  rejected: RecordedRequest[];
  /** From now on, answer 401 to model requests without these credentials (null: accept any). */
  requireAuth(auth: RequiredAuth | null): void;
  /** Model requests (both wires), in arrival order. */
  requests: RecordedRequest[];
  /** Requests to any other path (answered 404); they do not consume turns. */
  unhandled: RecordedRequest[];
  /** Requests to the compaction endpoint; they do not consume turns. */
  compactions: RecordedRequest[];
  /** Requests for the model list (see `ModelServerOptions.models`); they do not consume turns. */
  modelLists: RecordedRequest[];
  /** Problems noticed in requests; tests normally assert this stays empty. */
  violations: string[];
  push(...turns: ScriptedTurn[]): void;
  /** Resolves once at least `n` model requests were recorded; rejects after `timeoutMs` (5000). */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  /** Stops listening and destroys every open connection, hanging ones included. */
  close(): Promise<void>;
}

export const DEFAULT_USAGE = { input: 12, output: 7, cached: 0, reasoning: 0 } as const;
const BASE_PATH = "/v1";
/** Where a `chatgpt_base_url` pointed at this server leads (the reference's default ends in /backend-api). */
const CHATGPT_PATH = "/backend-api";
const CHAT_CREATED = 1_700_000_000;

// ---------------------------------------------------------------- builders for tests

export function text(s: string, id?: string): ScriptedOutput {
  return id === undefined ? { type: "message", text: s } : { type: "message", text: s, id };
}
export function reasoning(...parts: string[]): ScriptedOutput {
  return { type: "reasoning", summary: parts };
}
export function fnCall(name: string, args: unknown, callId: string, namespace?: string): ScriptedOutput {
  return namespace === undefined ? { type: "function_call", name, arguments: args, callId } : { type: "function_call", name, arguments: args, callId, namespace };
}
export function customCall(name: string, input: string, callId: string): ScriptedOutput {
  return { type: "custom_tool_call", name, input, callId };
}
/** A hosted web search; `action` is the wire's, e.g. `{ type: "search", query: "…" }`. */
export function webSearch(action: JsonObject, id?: string): ScriptedOutput {
  return id === undefined ? { type: "web_search_call", action } : { type: "web_search_call", action, id };
}
/** A successful turn made of these outputs. */
export function turn(...outputs: ScriptedOutput[]): ScriptedTurn {
  return { outputs };
}
/** A non-200 turn, e.g. `errorTurn(429, { "retry-after": "1" })`. */
export function errorTurn(status: number, headers?: Record<string, string>, errorBody?: unknown): ScriptedTurn {
  return { status, headers, errorBody };
}

/** The texts of a request's input items, in order (each content part's `text`; items without content give none). */
export function inputTexts(input: JsonObject[] | undefined): string[] {
  return (input ?? []).flatMap((i) => (Array.isArray(i.content) ? (i.content as Array<{ text?: string }>).map((c) => c.text ?? "") : []));
}

/** The output the model got back for `callId`, from the first request that carries it (undefined: none yet). */
/** The output of a function or freeform tool call, from the first request that carries it. */
export function callOutput(server: Pick<ModelServer, "requests">, callId: string): unknown {
  for (const request of server.requests) {
    const item = (request.body.input ?? []).find((i) => (i.type === "function_call_output" || i.type === "custom_tool_call_output") && i.call_id === callId);
    if (item) return item.output;
  }
  return undefined;
}

/** The same output as text (content parts as their JSON), or "(no output)". */
export function callOutputText(server: Pick<ModelServer, "requests">, callId: string): string {
  const output = callOutput(server, callId);
  return output === undefined ? "(no output)" : typeof output === "string" ? output : JSON.stringify(output);
}

// ---------------------------------------------------------------- SSE helpers

/** Parses SSE text into frames; handy for tests that read a stream with fetch. */
export function parseSse(textBody: string): { event?: string; data: string }[] {
  const frames: { event?: string; data: string }[] = [];
  for (const block of textBody.replace(/\r\n/g, "\n").split("\n\n")) {
    if (block.trim() === "") continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    frames.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
  }
  return frames;
}

/** Splits a string into up to `parts` code-point-safe pieces (none for ""). */
export function fragments(s: string, parts = 3): string[] {
  const chars = Array.from(s);
  if (chars.length === 0) return [];
  const size = Math.ceil(chars.length / Math.min(parts, chars.length));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

function argumentsString(args: unknown): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

// ---------------------------------------------------------------- stream builders

/** Deterministic id counters, one per kind, shared by both wires. */
class Ids {
  private counts = new Map<string, number>();
  next(prefix: string): string {
    const n = (this.counts.get(prefix) ?? 0) + 1;
    this.counts.set(prefix, n);
    return `${prefix}_${n}`;
  }
}

/** The request's size in tokens as the estimate goes: four bytes each. */
export function estimatedRequestTokens(rawBody: string): number {
  return Math.ceil(Buffer.byteLength(rawBody) / 4);
}

function usageOf(t: ScriptedTurn): Required<NonNullable<ScriptedTurn["usage"]>> {
  const u = t.usage ?? DEFAULT_USAGE;
  return { input: u.input, output: u.output, cached: u.cached ?? 0, reasoning: u.reasoning ?? 0 };
}

function responsesFrames(t: ScriptedTurn, ids: Ids, model: string): string[] {
  const frames: string[] = [];
  let seq = 0;
  const emit = (type: string, payload: JsonObject): void => {
    const data = JSON.stringify({ type, sequence_number: seq++, ...payload });
    frames.push(`event: ${type}\ndata: ${data}\n\n`);
  };
  const responseId = ids.next("resp");
  emit("response.created", { response: { id: responseId, object: "response", status: "in_progress", model } });
  const finalItems: JsonObject[] = [];
  (t.outputs ?? []).forEach((out, output_index) => {
    let done: JsonObject;
    switch (out.type) {
      case "message": {
        const id = out.id ?? ids.next("msg");
        const base = { type: "message", id, role: "assistant" };
        emit("response.output_item.added", { output_index, item: { ...base, status: "in_progress", content: [] } });
        for (const delta of fragments(out.text, out.pieces)) {
          emit("response.output_text.delta", { output_index, item_id: id, content_index: 0, delta });
        }
        const content = [{ type: "output_text", text: out.text, annotations: [] }];
        done = { ...base, status: "completed", content };
        break;
      }
      case "reasoning": {
        const id = out.id ?? ids.next("rs");
        emit("response.output_item.added", { output_index, item: { type: "reasoning", id, summary: [] } });
        out.summary.forEach((part, summary_index) => {
          const partShape = { type: "summary_text", text: "" };
          emit("response.reasoning_summary_part.added", { item_id: id, output_index, summary_index, part: partShape });
          for (const delta of fragments(part)) {
            emit("response.reasoning_summary_text.delta", { item_id: id, output_index, summary_index, delta });
          }
        });
        const summary = out.summary.map((s) => ({ type: "summary_text", text: s }));
        done = { type: "reasoning", id, summary, encrypted_content: out.encryptedContent ?? `encrypted:${id}` };
        break;
      }
      case "function_call": {
        const id = out.id ?? ids.next("fc");
        const args = argumentsString(out.arguments);
        const base = { type: "function_call", id, call_id: out.callId, name: out.name, ...(out.namespace ? { namespace: out.namespace } : {}) };
        emit("response.output_item.added", { output_index, item: { ...base, arguments: "", status: "in_progress" } });
        for (const delta of fragments(args)) {
          emit("response.function_call_arguments.delta", { item_id: id, output_index, delta });
        }
        done = { ...base, arguments: args, status: "completed" };
        break;
      }
      case "custom_tool_call": {
        const id = out.id ?? ids.next("ctc");
        const base = { type: "custom_tool_call", id, call_id: out.callId, name: out.name };
        emit("response.output_item.added", { output_index, item: { ...base, input: "", status: "in_progress" } });
        for (const delta of fragments(out.input)) {
          emit("response.custom_tool_call_input.delta", { item_id: id, output_index, delta });
        }
        done = { ...base, input: out.input, status: "completed" };
        break;
      }
      case "tool_search_call": {
        const id = out.id ?? ids.next("ts");
        const base = { type: "tool_search_call", id, call_id: out.callId, execution: "client" };
        emit("response.output_item.added", { output_index, item: { ...base, status: "in_progress", arguments: {} } });
        done = { ...base, status: "completed", arguments: out.arguments };
        break;
      }
      case "web_search_call": {
        const id = out.id ?? ids.next("ws");
        emit("response.output_item.added", { output_index, item: { type: "web_search_call", id, status: "in_progress" } });
        for (const phase of ["in_progress", "searching", "completed"]) {
          emit(`response.web_search_call.${phase}`, { output_index, item_id: id });
        }
        done = { type: "web_search_call", id, status: out.status ?? "completed", action: out.action };
        break;
      }
    }
    finalItems.push(done);
    emit("response.output_item.done", { output_index, item: done });
  });
  if (t.failed) {
    const error = { code: t.failed.code, message: t.failed.message };
    emit("response.failed", { response: { id: responseId, object: "response", status: "failed", model, error } });
    return frames;
  }
  if (t.incomplete) {
    const incomplete_details = { reason: t.incomplete.reason };
    emit("response.incomplete", { response: { id: responseId, object: "response", status: "incomplete", model, output: finalItems, incomplete_details } });
    return frames;
  }
  const u = usageOf(t);
  const usage = {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: u.input + u.output,
  };
  const response = { id: responseId, object: "response", status: "completed", model, output: finalItems, usage };
  emit("response.completed", { response });
  return frames;
}

function chatFrames(t: ScriptedTurn, ids: Ids, model: string, includeUsage: boolean): string[] {
  const frames: string[] = [];
  const id = ids.next("chatcmpl");
  const chunk = (delta: JsonObject, finish_reason: string | null = null): void => {
    const body = { id, object: "chat.completion.chunk", created: CHAT_CREATED, model, choices: [{ index: 0, delta, finish_reason }] };
    frames.push(`data: ${JSON.stringify(body)}\n\n`);
  };
  chunk({ role: "assistant", content: "" });
  let toolIndex = 0;
  const toolCall = (callId: string, name: string, args: string): void => {
    const index = toolIndex++;
    chunk({ tool_calls: [{ index, id: callId, type: "function", function: { name, arguments: "" } }] });
    for (const piece of fragments(args)) chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  };
  for (const out of t.outputs ?? []) {
    switch (out.type) {
      case "message":
        for (const piece of fragments(out.text, out.pieces)) chunk({ content: piece });
        break;
      case "reasoning":
        for (const piece of fragments(out.summary.join("\n\n"))) chunk({ reasoning: piece });
        break;
      case "function_call":
        toolCall(out.callId, out.name, argumentsString(out.arguments));
        break;
      case "custom_tool_call":
        toolCall(out.callId, out.name, JSON.stringify({ input: out.input }));
        break;
      case "web_search_call":
      case "tool_search_call":
        break; // Chat Completions has no hosted tools: nothing goes on that wire.
    }
  }
  if (t.failed) {
    const error = { code: t.failed.code, message: t.failed.message, type: "server_error" };
    frames.push(`data: ${JSON.stringify({ error })}\n\n`);
    return frames;
  }
  const cutShort = t.incomplete ? (t.incomplete.reason === "max_output_tokens" ? "length" : t.incomplete.reason) : null;
  chunk({}, cutShort ?? (toolIndex > 0 ? "tool_calls" : "stop"));
  if (includeUsage) {
    const u = usageOf(t);
    const usage = {
      prompt_tokens: u.input,
      completion_tokens: u.output,
      total_tokens: u.input + u.output,
      prompt_tokens_details: { cached_tokens: u.cached },
      completion_tokens_details: { reasoning_tokens: u.reasoning },
    };
    frames.push(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: CHAT_CREATED, model, choices: [], usage })}\n\n`);
  }
  frames.push("data: [DONE]\n\n");
  return frames;
}

// ---------------------------------------------------------------- request checks

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

type Seen = { calls: [string, number][]; outputs: [string, number][] };

/** Pairs calls with outputs by call id; reports unpaired, duplicated and out-of-order ones. */
function pairUp(label: string, callKind: string, outputKind: string, seen: Seen, problems: string[]): void {
  const calls = new Map<string, number>();
  const outputs = new Map<string, number>();
  const note = (what: string, id: string): number => problems.push(`${label}: ${what.replace("#", JSON.stringify(id))}`);
  for (const [id, pos] of seen.calls) {
    if (calls.has(id)) note(`duplicate ${callKind} call_id #`, id);
    else calls.set(id, pos);
  }
  for (const [id, pos] of seen.outputs) {
    if (outputs.has(id)) note(`duplicate ${outputKind} for call_id #`, id);
    else outputs.set(id, pos);
  }
  for (const [id, pos] of calls) {
    const outPos = outputs.get(id);
    if (outPos === undefined) note(`${callKind} call_id # has no matching ${outputKind}`, id);
    else if (outPos < pos) note(`${outputKind} for call_id # comes before its ${callKind}`, id);
  }
  for (const id of outputs.keys()) if (!calls.has(id)) note(`${outputKind} call_id # has no matching ${callKind}`, id);
}

/** A function call's output as the Responses API takes it: a string, or input_text / input_image parts. */
function isFunctionOutput(output: unknown): boolean {
  if (typeof output === "string") return true;
  if (!Array.isArray(output) || output.length === 0) return false;
  return output.every(
    (p) =>
      isObject(p) &&
      ((p.type === "input_text" && typeof p.text === "string") || (p.type === "input_image" && typeof p.image_url === "string")),
  );
}

/** Checks a request's history: streaming requested, and every tool call paired with its output. */
function checkBody(wire: "responses" | "chat", body: ModelRequestBody, label: string): string[] {
  const problems: string[] = [];
  if (body.stream !== true) problems.push(`${label}: request did not set stream: true`);
  const list = wire === "responses" ? body.input : body.messages;
  if (!Array.isArray(list)) return [...problems, `${label}: request has no ${wire === "responses" ? "input" : "messages"} array`];
  const fn: Seen = { calls: [], outputs: [] };
  const custom: Seen = { calls: [], outputs: [] };
  const search: Seen = { calls: [], outputs: [] };
  list.forEach((entry, pos) => {
    if (!isObject(entry)) return;
    if (wire === "chat") {
      const calls = entry.role === "assistant" && Array.isArray(entry.tool_calls) ? entry.tool_calls : [];
      for (const call of calls) if (isObject(call)) fn.calls.push([String(call.id), pos]);
      if (entry.role === "tool") fn.outputs.push([String(entry.tool_call_id), pos]);
    } else if (entry.type === "function_call") fn.calls.push([String(entry.call_id), pos]);
    else if (entry.type === "function_call_output") {
      fn.outputs.push([String(entry.call_id), pos]);
      if (!isFunctionOutput(entry.output)) problems.push(`${label}: function_call_output ${String(entry.call_id)} has a malformed output`);
    } else if (entry.type === "tool_search_call") search.calls.push([String(entry.call_id), pos]);
    else if (entry.type === "tool_search_output") {
      search.outputs.push([String(entry.call_id), pos]);
      if (!Array.isArray(entry.tools)) problems.push(`${label}: tool_search_output ${String(entry.call_id)} has no tools array`);
    } else if (entry.type === "custom_tool_call") custom.calls.push([String(entry.call_id), pos]);
    else if (entry.type === "custom_tool_call_output") {
      custom.outputs.push([String(entry.call_id), pos]);
      if (typeof entry.output !== "string") problems.push(`${label}: custom_tool_call_output ${String(entry.call_id)} output is not a string`);
    }
  });
  if (wire === "chat") {
    pairUp(label, "assistant tool_call", "tool message", fn, problems);
  } else {
    pairUp(label, "function_call", "function_call_output", fn, problems);
    pairUp(label, "custom_tool_call", "custom_tool_call_output", custom, problems);
    pairUp(label, "tool_search_call", "tool_search_output", search, problems);
  }
  return problems;
}

// ---------------------------------------------------------------- the server

function defaultErrorBody(status: number): JsonObject {
  const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message: `scripted error with status ${status}`, type, code: type } };
}

/** The default compaction: the user's own messages and one opaque item standing for the rest. */
function defaultCompaction(request: RecordedRequest, n: number): JsonObject[] {
  const input = Array.isArray(request.body.input) ? request.body.input : [];
  const users = input.filter((i) => {
    if (i.type !== "message" || i.role !== "user" || !Array.isArray(i.content)) return false;
    const first = i.content[0] as JsonObject | undefined;
    return typeof first?.text === "string" && !first.text.startsWith("<");
  });
  return [...users, { type: "compaction", encrypted_content: `compacted-history-${n}` }];
}

export async function startModelServer(turns: ScriptedTurn[] = [], options: ModelServerOptions = {}): Promise<ModelServer> {
  const script = [...turns];
  let nextTurn = 0;
  let closed = false;
  const ids = new Ids();
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const rejected: RecordedRequest[] = [];
  let requiredAuth: RequiredAuth | null = null;
  const compactions: RecordedRequest[] = [];
  const modelLists: RecordedRequest[] = [];
  const violations: string[] = [];
  const sockets = new Set<Socket>();
  const sleepers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  const waiters = new Set<() => void>();

  /** A pause that close() cuts short. */
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (closed || ms <= 0) return resolve();
      const entry = { timer: setTimeout(() => entry.wake(), ms), wake: () => {} };
      entry.wake = () => {
        clearTimeout(entry.timer);
        sleepers.delete(entry);
        resolve();
      };
      sleepers.add(entry);
    });

  const whenClosed = (res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      if (closed || res.destroyed) return resolve();
      res.once("close", () => resolve());
    });

  /** Writes the frames with the turn's pacing and failure injection. */
  const stream = async (res: ServerResponse, t: ScriptedTurn, frames: string[]): Promise<void> => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...t.headers });
    res.flushHeaders();
    let lastWrite: Promise<unknown> = Promise.resolve();
    for (let i = 0; i <= frames.length; i++) {
      if (closed || res.destroyed) return;
      if (t.dropAfterEvents !== undefined && i >= t.dropAfterEvents) {
        // Let what was written reach the client first; destroying discards buffered output.
        await lastWrite;
        res.socket?.destroy();
        res.destroy();
        return;
      }
      if (t.hangAfterEvents !== undefined && i >= t.hangAfterEvents) {
        await whenClosed(res);
        return;
      }
      if (i === frames.length) break;
      if (i > 0 && t.eventDelayMs) {
        await sleep(t.eventDelayMs);
        if (closed || res.destroyed) return;
      }
      lastWrite = new Promise((resolve) => res.write(frames[i] ?? "", resolve));
    }
    res.end();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawBody = await readRequestText(req);
    const [path = "/", query = ""] = (req.url ?? "/").split("?");
    const isCompaction = req.method === "POST" && (path === `${BASE_PATH}/responses/compact` || path === `${CHATGPT_PATH}/codex/responses/compact`);
    const wire = req.method !== "POST" ? "other"
      : path === `${BASE_PATH}/responses` || path === `${CHATGPT_PATH}/codex/responses` || isCompaction ? "responses"
      : path === `${BASE_PATH}/chat/completions` ? "chat" : "other";
    let body: ModelRequestBody = {};
    let parseProblem: string | undefined;
    try {
      const parsed: unknown = rawBody === "" ? undefined : JSON.parse(rawBody);
      if (isObject(parsed)) body = parsed;
      else parseProblem = "body is not a JSON object";
    } catch {
      parseProblem = "body is not valid JSON";
    }
    const record: RecordedRequest = {
      method: req.method ?? "", path, query, headers: { ...req.headers }, body, rawBody, receivedAt: Date.now(), wire, turnIndex: -1,
    };
    const list = options.models;
    if (list && req.method === "GET" && (path === `${BASE_PATH}/models` || path === `${CHATGPT_PATH}/codex/models`)) {
      modelLists.push(record);
      await sleep(list.delayMs ?? 0);
      if (closed || res.destroyed) return;
      const status = list.status ?? 200;
      if (status !== 200) sendJson(res, status, defaultErrorBody(status));
      else sendJson(res, 200, { models: list.models }, list.etag ? { etag: list.etag } : {});
      return;
    }
    if (wire === "other") {
      unhandled.push(record);
      sendJson(res, 404, { error: { message: `model-server: no route for ${req.method} ${path}`, type: "not_found" } });
      return;
    }
    const bearer = typeof requiredAuth?.bearer === "function" ? requiredAuth.bearer() : requiredAuth?.bearer;
    if (requiredAuth && (req.headers.authorization !== `Bearer ${bearer}` || (requiredAuth.accountId !== undefined && req.headers["chatgpt-account-id"] !== requiredAuth.accountId))) {
      rejected.push(record);
      sendJson(res, 401, { error: { message: "Your authentication token has expired. Please try signing in again.", type: "invalid_request_error", code: "token_expired" } });
      return;
    }
    if (isCompaction) {
      compactions.push(record);
      const label = `compaction request #${compactions.length}`;
      if (parseProblem) violations.push(`${label}: ${parseProblem}`);
      // Not a stream, but its history must still pair calls with outputs.
      else violations.push(...checkBody(wire, { ...body, stream: true }, label));
      sendJson(res, 200, { output: options.compact ? options.compact(record) : defaultCompaction(record, compactions.length) });
      return;
    }
    const label = `request #${requests.length + 1} (${wire})`;
    if (parseProblem) violations.push(`${label}: ${parseProblem}`);
    else violations.push(...checkBody(wire, body, label));
    let t = nextTurn < script.length ? script[nextTurn] : undefined;
    if (t) record.turnIndex = nextTurn++;
    else if (options.respond) t = options.respond(record);
    requests.push(record);
    for (const wake of [...waiters]) wake();
    if (!t) {
      const message = `model-server: script exhausted (${script.length} turns scripted, got request #${requests.length})`;
      violations.push(`${label}: ${message}`);
      sendJson(res, 500, { error: { message, type: "server_error", code: "script_exhausted" } });
      return;
    }
    const size = estimatedRequestTokens(rawBody);
    if (options.contextWindow !== undefined && size > options.contextWindow) {
      const message = `model-server: this request (about ${size} tokens) exceeds the context window of ${options.contextWindow}`;
      sendJson(res, 400, { error: { message, type: "invalid_request_error", code: "context_length_exceeded" } });
      return;
    }
    if (options.usageFromBody && !t.usage) t = { ...t, usage: { input: size, output: 20 } };
    await sleep(t.delayMs ?? 0);
    if (closed || res.destroyed) return;
    if (t.status !== undefined && t.status !== 200) {
      sendJson(res, t.status, t.errorBody ?? defaultErrorBody(t.status), t.headers);
      return;
    }
    const model = typeof body.model === "string" ? body.model : "scripted-model";
    if (wire === "responses") {
      await stream(res, t, responsesFrames(t, ids, model));
    } else {
      const opts = body.stream_options;
      const includeUsage = isObject(opts) && opts.include_usage === true;
      await stream(res, t, chatFrames(t, ids, model, includeUsage));
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      violations.push(`model-server internal error: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) sendJson(res, 500, { error: { message: "model-server internal error" } });
      else res.destroy();
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("model-server: no TCP address");

  return {
    url: `http://127.0.0.1:${address.port}${BASE_PATH}`,
    chatgptBaseUrl: `http://127.0.0.1:${address.port}${CHATGPT_PATH}/`,
    rejected,
    requireAuth(auth: RequiredAuth | null): void {
      requiredAuth = auth;
    },
    requests,
    unhandled,
    compactions,
    modelLists,
    violations,
    push(...more: ScriptedTurn[]): void {
      script.push(...more);
    },
    waitForRequests(n: number, timeoutMs = 5000): Promise<void> {
      return new Promise((resolve, reject) => {
        if (requests.length >= n) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`model-server: waited ${timeoutMs}ms for ${n} requests, got ${requests.length}`));
        }, timeoutMs);
        const check = (): void => {
          if (requests.length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    close(): Promise<void> {
      closed = true;
      for (const s of [...sleepers]) s.wake();
      return new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
