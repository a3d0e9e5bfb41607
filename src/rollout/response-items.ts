/**
 * Turns a recorded `response_item` payload back into a history item. Only the fields our
 * ResponseItem defines survive: other writers (the reference among them) store ids, statuses and
 * bookkeeping such as `internal_chat_message_metadata_passthrough`, which a stateless request
 * (store: false) must not resend. Kept fields stay in their recorded order, so an item we wrote
 * comes back byte for byte and a resumed request extends the previous ones exactly.
 *
 * Every check returns its input itself when it is already clean, so the items of our own files
 * (all clean) are used as parsed, without a copy: a long session loads in a fraction of the time.
 */
import type { ResponseItem } from "../protocol/items.js";
import { parseWebSearchAction } from "../protocol/web-search.js";

type Json = Record<string, unknown>;
/** The cleaned value (the input itself when nothing had to change), or undefined when invalid. */
type Clean = (value: unknown) => unknown;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const string: Clean = (v) => (typeof v === "string" ? v : undefined);

function keyCount(o: Json): number {
  let n = 0;
  for (const key in o) if (Object.hasOwn(o, key)) n++;
  return n;
}

/** `{type, <field>: string}` with `type` in `types`. */
function part(types: readonly string[], field: "text" | "image_url"): Clean {
  return (v) => {
    if (!isObject(v) || typeof v.type !== "string" || !types.includes(v.type) || typeof v[field] !== "string") return undefined;
    return keyCount(v) === 2 ? v : { type: v.type, [field]: v[field] };
  };
}

const textPart = part(["input_text", "output_text"], "text");
const imagePart = part(["input_image"], "image_url");
const contentPart: Clean = (v) => textPart(v) ?? imagePart(v);

function arrayOf(clean: Clean, nonEmpty = false): Clean {
  return (v) => {
    if (!Array.isArray(v)) return undefined;
    let same = true;
    const out: unknown[] = [];
    for (const x of v as unknown[]) {
      const c = clean(x);
      if (c !== x) same = false;
      if (c !== undefined) out.push(c);
    }
    if (nonEmpty && out.length === 0) return undefined;
    return same ? v : out;
  };
}

/** `{"content": "..."}`: how some writers wrap a text output. */
const wrappedText: Clean = (v) => (isObject(v) && typeof v.content === "string" ? v.content : undefined);

/** Content-list parts' text, joined: for outputs that must be strings (custom tool calls). */
const toolOutputText: Clean = (v) => {
  if (typeof v === "string") return v;
  const wrapped = wrappedText(v);
  if (wrapped !== undefined) return wrapped;
  if (!Array.isArray(v)) return undefined;
  return (v as unknown[])
    .map((p) => (isObject(p) && typeof p.text === "string" ? p.text : ""))
    .filter(Boolean)
    .join("\n");
};

const IMAGE_DETAILS = ["auto", "low", "high", "original"];

/** An `input_image` output part; `detail` kept when it is one the API knows. */
const outputImagePart: Clean = (v) => {
  if (!isObject(v) || v.type !== "input_image" || typeof v.image_url !== "string") return undefined;
  const detail = typeof v.detail === "string" && IMAGE_DETAILS.includes(v.detail) ? v.detail : undefined;
  if (keyCount(v) === (detail === undefined ? 2 : 3)) return v;
  return detail === undefined ? { type: v.type, image_url: v.image_url } : { type: v.type, image_url: v.image_url, detail };
};
const outputPart: Clean = (v) => part(["input_text"], "text")(v) ?? outputImagePart(v);

/**
 * A function call's output: a string, or a list of text and image parts (an MCP tool's images),
 * kept as a list so a resumed request resends the images; parts of kinds we do not know are
 * dropped, and a list left with none becomes its text.
 */
const functionOutput: Clean = (v) => {
  if (typeof v === "string") return v;
  const wrapped = wrappedText(v);
  if (wrapped !== undefined) return wrapped;
  const parts = arrayOf(outputPart)(v);
  if (Array.isArray(parts) && parts.length > 0) return parts;
  return toolOutputText(v);
};

const ROLES = ["user", "assistant", "developer", "system"];

interface Shape {
  fields: Record<string, Clean>;
  required: readonly string[];
}

const SHAPES: Record<string, Shape> = {
  message: {
    fields: { role: (v) => (typeof v === "string" && ROLES.includes(v) ? v : undefined), content: arrayOf(contentPart, true) },
    required: ["role", "content"],
  },
  reasoning: {
    fields: {
      summary: arrayOf(part(["summary_text"], "text")),
      content: arrayOf(part(["reasoning_text", "text"], "text")),
      encrypted_content: (v) => (typeof v === "string" || v === null ? v : undefined),
    },
    required: ["summary"],
  },
  function_call: { fields: { name: string, namespace: string, arguments: string, call_id: string }, required: ["name", "arguments", "call_id"] },
  tool_search_call: {
    fields: { call_id: string, status: string, execution: (v) => (v === "client" ? v : undefined), arguments: (v) => (isObject(v) ? v : undefined) },
    required: ["call_id", "execution", "arguments"],
  },
  tool_search_output: {
    fields: { call_id: string, status: string, execution: (v) => (v === "client" ? v : undefined), tools: (v) => (Array.isArray(v) ? v : undefined) },
    required: ["call_id", "execution", "tools"],
  },
  function_call_output: { fields: { call_id: string, output: functionOutput }, required: ["call_id", "output"] },
  custom_tool_call: { fields: { name: string, input: string, call_id: string }, required: ["name", "input", "call_id"] },
  custom_tool_call_output: { fields: { call_id: string, output: toolOutputText }, required: ["call_id", "output"] },
  web_search_call: {
    fields: {
      status: string,
      action: (v) => parseWebSearchAction(v) ?? undefined,
    },
    required: [],
  },
  /** The server-side compaction's opaque summary of earlier history. */
  compaction: { fields: { encrypted_content: string }, required: ["encrypted_content"] },
};

const isStr = (v: unknown): v is string => typeof v === "string";

function isCleanTextPart(v: unknown): boolean {
  return isObject(v) && (v.type === "input_text" || v.type === "output_text") && isStr(v.text) && keyCount(v) === 2;
}

/**
 * The items every session is made of, in exactly the shape codex-ts writes them: recognised by
 * straight-line checks so a long session's thousands of items skip the general cleaning below.
 */
function isCleanCommonItem(p: Json): boolean {
  switch (p.type) {
    case "message":
      return keyCount(p) === 3 && isStr(p.role) && ROLES.includes(p.role) && Array.isArray(p.content) && p.content.length > 0 && p.content.every(isCleanTextPart);
    case "function_call":
      return keyCount(p) === 4 && isStr(p.name) && isStr(p.arguments) && isStr(p.call_id);
    case "function_call_output":
    case "custom_tool_call_output":
      return keyCount(p) === 3 && isStr(p.call_id) && isStr(p.output);
    case "custom_tool_call":
      return keyCount(p) === 4 && isStr(p.name) && isStr(p.input) && isStr(p.call_id);
    default:
      return false;
  }
}

/** The history item a recorded payload stands for, or null for kinds we cannot resend. */
export function responseItemFromRollout(payload: unknown): ResponseItem | null {
  if (!isObject(payload) || typeof payload.type !== "string") return null;
  if (isCleanCommonItem(payload)) return payload as ResponseItem;
  const shape = SHAPES[payload.type];
  if (!shape) return null;
  let same = true;
  const out: Json = {};
  for (const key in payload) {
    const value = payload[key];
    if (key === "type") {
      out.type = value;
      continue;
    }
    const clean = shape.fields[key];
    const cleaned = clean ? clean(value) : undefined;
    if (cleaned !== value) same = false;
    if (cleaned !== undefined) out[key] = cleaned;
  }
  for (const key of shape.required) if (!(key in out)) return null;
  return (same ? payload : out) as ResponseItem;
}
