/**
 * The app-server's message framing: JSON-RPC 2.0 without the `"jsonrpc"` member, as the
 * reference speaks it (over stdio one JSON object per line, over a WebSocket one per text frame).
 * Requests carry `id` and `method`, notifications only `method`, responses `id` with `result` or
 * `error`. Shared by the server and its clients (the remote UI).
 */
import { errorMessage } from "../util/errors.js";

export type RequestId = string | number;

export interface RpcRequest {
  id: RequestId;
  method: string;
  params?: unknown;
}

export interface RpcNotification {
  method: string;
  params?: unknown;
}

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcResponse = { id: RequestId; result: unknown } | { id: RequestId; error: RpcErrorBody };

/** What arrived, sorted: the one place that decides what a message is. */
export type IncomingMessage =
  | { kind: "request"; message: RpcRequest }
  | { kind: "notification"; message: RpcNotification }
  | { kind: "response"; message: RpcResponse }
  /** Not a message at all; `id` is set when the text still named one to answer. */
  | { kind: "invalid"; error: RpcErrorBody; id: RequestId | null };

/** JSON-RPC's error codes, as the reference uses them. */
export const ERROR_CODES = {
  parseError: -32700,
  /** The reference answers bad params, unknown threads and a missing handshake with this one. */
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** An error a handler throws to answer its request with; the message is meant for the client's user. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }

  get body(): RpcErrorBody {
    return { code: this.code, message: this.message, ...(this.data !== undefined ? { data: this.data } : {}) };
  }
}

/** The reference's wording for a request whose params do not fit (-32600). */
export function invalidRequest(message: string): RpcError {
  return new RpcError(ERROR_CODES.invalidRequest, message);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isRequestId = (v: unknown): v is RequestId => typeof v === "string" || (typeof v === "number" && Number.isInteger(v));

/** Sorts one message's text; never throws. */
export function parseMessage(text: string): IncomingMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: "invalid", id: null, error: { code: ERROR_CODES.parseError, message: `Parse error: ${errorMessage(err)}` } };
  }
  return classify(value);
}

export function classify(value: unknown): IncomingMessage {
  if (!isObject(value)) {
    return { kind: "invalid", id: null, error: { code: ERROR_CODES.invalidRequest, message: "Invalid request: a message must be a JSON object" } };
  }
  const id = value.id;
  const hasId = id !== undefined && id !== null;
  if (hasId && !isRequestId(id)) {
    return { kind: "invalid", id: null, error: { code: ERROR_CODES.invalidRequest, message: "Invalid request: `id` must be a string or an integer" } };
  }
  const method = value.method;
  if (method !== undefined) {
    if (typeof method !== "string" || method === "") {
      return { kind: "invalid", id: hasId ? (id as RequestId) : null, error: { code: ERROR_CODES.invalidRequest, message: "Invalid request: `method` must be a non-empty string" } };
    }
    return hasId
      ? { kind: "request", message: { id: id as RequestId, method, params: value.params } }
      : { kind: "notification", message: { method, params: value.params } };
  }
  if (hasId && "result" in value) return { kind: "response", message: { id: id as RequestId, result: value.result } };
  if (hasId && isObject(value.error)) {
    const err = value.error;
    const body: RpcErrorBody = { code: typeof err.code === "number" ? err.code : ERROR_CODES.internalError, message: typeof err.message === "string" ? err.message : "" };
    if (err.data !== undefined) body.data = err.data;
    return { kind: "response", message: { id: id as RequestId, error: body } };
  }
  return {
    kind: "invalid",
    id: hasId ? (id as RequestId) : null,
    error: { code: ERROR_CODES.invalidRequest, message: "Invalid request: expected a request (`id` and `method`), a notification (`method`) or a response (`id` with `result` or `error`)" },
  };
}
