/**
 * Splits a stdio MCP server's output into JSON-RPC messages, as the SDK's ReadBuffer does, but a
 * message over the size limit is skipped instead of ending the connection. The SDK's buffer
 * throws once it holds more than its limit, and its transport then kills the server: every
 * pending call failed with "Connection closed" and the server was gone for the session. Here
 * only the bytes of a line's two ends are kept while the rest of an oversized line streams past,
 * and a reply is answered for its request with a "result too large" error, so the call fails
 * with a message that says why and the server keeps running.
 */
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { formatBytes } from "../util/bounded-read.js";

/** The most one message may have: the SDK's own limit, and far more than a model can read. */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;
/** How much of each end of an oversized line is kept to find the request it answers. */
const EDGE_BYTES = 512;
/** JSON-RPC "internal error": the reply exists but cannot be delivered. */
const INTERNAL_ERROR = -32603;
const NEWLINE = 0x0a;

interface Skipping {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

export class SkippingReadBuffer {
  /** Complete lines not yet read (parsed on reading, so a bad one fails where the SDK's would), or messages made here. */
  private readonly ready: Array<string | JSONRPCMessage> = [];
  private parts: Buffer[] = [];
  private size = 0;
  private skipping: Skipping | null = null;

  constructor(
    private readonly maxBytes = MAX_MCP_MESSAGE_BYTES,
    /** Told about an oversized message that answers no request it can name. */
    private readonly onDropped: (message: string) => void = () => undefined,
  ) {}

  append(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      const nl = rest.indexOf(NEWLINE);
      const piece = nl === -1 ? rest : rest.subarray(0, nl);
      if (this.skipping === null && this.size + piece.length > this.maxBytes) this.startSkipping();
      if (this.skipping) {
        if (this.skipping.head.length < EDGE_BYTES) this.skipping.head = Buffer.concat([this.skipping.head, piece]).subarray(0, EDGE_BYTES);
        this.skipping.tail = lastBytes([this.skipping.tail, piece]);
        this.skipping.bytes += piece.length;
      } else {
        this.parts.push(piece);
        this.size += piece.length;
      }
      if (nl === -1) return;
      this.endLine();
      rest = rest.subarray(nl + 1);
    }
  }

  readMessage(): JSONRPCMessage | null {
    const next = this.ready.shift();
    if (next === undefined) return null;
    return typeof next === "string" ? deserializeMessage(next) : next;
  }

  clear(): void {
    this.ready.length = 0;
    this.parts = [];
    this.size = 0;
    this.skipping = null;
  }

  /** The line so far is over the limit: keep its ends only. */
  private startSkipping(): void {
    const held = Buffer.concat(this.parts);
    this.skipping = { head: Buffer.from(held.subarray(0, EDGE_BYTES)), tail: lastBytes([held]), bytes: held.length };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, tail, bytes } = this.skipping;
      this.skipping = null;
      const id = replyId(head.toString("utf8"), tail.toString("utf8"));
      const what = `a message of ${formatBytes(bytes)} from the server, over the ${formatBytes(this.maxBytes)} codex-ts reads from an MCP server`;
      if (id === null) this.onDropped(`skipped ${what}`);
      else this.ready.push({ jsonrpc: "2.0", id, error: { code: INTERNAL_ERROR, message: `result too large: ${what}` } });
      return;
    }
    const line = Buffer.concat(this.parts).toString("utf8").replace(/\r$/, "");
    this.parts = [];
    this.size = 0;
    this.ready.push(line);
  }
}

function lastBytes(buffers: Buffer[]): Buffer {
  const joined = Buffer.concat(buffers);
  return Buffer.from(joined.subarray(Math.max(0, joined.length - EDGE_BYTES)));
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":7,"result":…` (Python and Rust servers) or `{"result":…` / `{"error":…`. */
const HEAD = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*,\s*)?"(result|error)"\s*:`);
/** `…,"jsonrpc":"2.0","id":7}` (the TypeScript SDK writes the id last). */
const TAIL = new RegExp(String.raw`"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/** The id of the request an oversized line answers, or null when it is no reply (a request or notification) or shows none. */
function replyId(head: string, tail: string): string | number | null {
  const start = HEAD.exec(head);
  if (!start) return null;
  const raw = start[1] ?? TAIL.exec(tail)?.[1];
  if (raw === undefined) return null;
  return JSON.parse(raw) as string | number;
}

/**
 * Puts a SkippingReadBuffer in the transport's place for the SDK's. The SDK offers no option
 * for it, so this sets the transport's private `_readBuffer` (the SDK version is pinned, and the
 * oversized-result test fails if the field ever moves).
 */
export function skipOversizedMessages(transport: StdioClientTransport): void {
  const buffer = new SkippingReadBuffer(MAX_MCP_MESSAGE_BYTES, (message) => transport.onerror?.(new Error(message)));
  (transport as unknown as { _readBuffer: SkippingReadBuffer })._readBuffer = buffer;
}
