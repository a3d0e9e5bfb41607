/**
 * A client of the app-server protocol written against the reference's schema, for end-to-end
 * tests: over stdio (it spawns `codex-ts app-server`, or any command) or a WebSocket. Every
 * message the server sends is checked against the schema as it arrives (`violations`), requests
 * are matched to their responses, and notifications and server requests can be waited for in order.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { WebSocket } from "ws";
import { CLI_PATH, testEnv } from "./cli.js";
import { ProtocolSchema } from "./app-server-schema.js";

type Json = Record<string, unknown>;

export interface RpcFailure {
  code: number;
  message: string;
}

export class RpcErrorResponse extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Wire {
  send(text: string): void;
  close(): void;
  /** Resolves when the server's side has gone away. */
  ended: Promise<void>;
}

let schema: ProtocolSchema | null = null;
/** One schema for every client of a test process (compiling it takes a while). */
export function protocolSchema(): ProtocolSchema {
  return (schema ??= new ProtocolSchema());
}

export class AppServerClient {
  /** Everything the server sent, in order. */
  readonly received: Json[] = [];
  /** Schema violations found so far, with the offending message. */
  readonly violations: string[] = [];
  private nextId = 1;
  private readonly pending = new Map<number | string, { method: string; resolve: (m: Json) => void }>();
  private readonly methods = new Map<number | string, string>();
  private cursor = 0;
  private readonly waiters: Array<() => void> = [];
  private wire: Wire | null = null;

  /** The server process (stdio clients). */
  child: ChildProcess | null = null;
  stderr = "";

  private attach(wire: Wire): void {
    this.wire = wire;
  }

  /** Spawns `codex-ts app-server` (or `command`) in `cwd` with CODEX_HOME = `home`. */
  static spawn(opts: { cwd: string; home: string; args?: string[]; command?: string[]; env?: Record<string, string | undefined> }): AppServerClient {
    const client = new AppServerClient();
    const [program, ...args] = opts.command ?? [process.execPath, CLI_PATH, "app-server", ...(opts.args ?? [])];
    const child = spawn(program ?? process.execPath, args, { cwd: opts.cwd, env: testEnv(opts.home, opts.env), stdio: ["pipe", "pipe", "pipe"] });
    client.child = child;
    child.stderr?.on("data", (d: Buffer) => (client.stderr += d.toString()));
    let buffer = "";
    child.stdout?.on("data", (d: Buffer) => {
      buffer += d.toString("utf8");
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim() !== "") client.onText(line);
      }
    });
    const ended = new Promise<void>((resolve) => child.on("close", () => resolve()));
    client.attach({ send: (text) => void child.stdin?.write(`${text}\n`), close: () => child.stdin?.end(), ended });
    return client;
  }

  /** Connects to a WebSocket listener; `token` goes in `Authorization: Bearer`. */
  static async connect(url: string, token?: string): Promise<AppServerClient> {
    const client = new AppServerClient();
    const ws = new WebSocket(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
      ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    ws.on("message", (data) => client.onText((data as Buffer).toString("utf8")));
    const ended = new Promise<void>((resolve) => ws.on("close", () => resolve()));
    client.attach({ send: (text) => ws.send(text), close: () => ws.close(), ended });
    return client;
  }

  private onText(text: string): void {
    let message: Json;
    try {
      message = JSON.parse(text) as Json;
    } catch {
      this.violations.push(`not JSON: ${text.slice(0, 200)}`);
      return;
    }
    this.received.push(message);
    const id = message.id as number | string | null | undefined;
    const isResponse = message.method === undefined;
    const method = isResponse && id !== undefined && id !== null ? this.methods.get(id) : undefined;
    // A reply to a message without an id is JSON-RPC's (`id: null`); the schema's ids are never null.
    if (!(isResponse && id === null)) for (const v of protocolSchema().check(message, method)) this.violations.push(`${method ?? String(message.method)}: ${v}`);
    if (isResponse && id !== undefined && id !== null) {
      const pending = this.pending.get(id);
      this.pending.delete(id);
      pending?.resolve(message);
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  sendRaw(text: string): void {
    this.wire?.send(text);
  }

  /** Sends a request and resolves with its whole response message. */
  call(method: string, params?: unknown): Promise<Json> {
    const id = this.nextId++;
    this.methods.set(id, method);
    const reply = new Promise<Json>((resolve) => this.pending.set(id, { method, resolve }));
    this.sendRaw(JSON.stringify(params === undefined ? { id, method } : { id, method, params }));
    return reply;
  }

  /** Sends a request; resolves with its result, rejects with an RpcErrorResponse. */
  async request<T = Json>(method: string, params?: unknown): Promise<T> {
    const reply = await this.call(method, params);
    if ("error" in reply) {
      const err = reply.error as RpcFailure;
      throw new RpcErrorResponse(err.code, err.message);
    }
    return reply.result as T;
  }

  notify(method: string, params?: unknown): void {
    this.sendRaw(JSON.stringify(params === undefined ? { method } : { method, params }));
  }

  /** The handshake; `experimentalApi` asks for the protocol's experimental methods. */
  async initialize(name = "schema_client", experimentalApi = false): Promise<Json> {
    const result = await this.request("initialize", { clientInfo: { name, title: "test", version: "0.0.1" }, capabilities: { experimentalApi } });
    this.notify("initialized");
    return result;
  }

  /** Answers a server request. */
  respond(id: unknown, result: unknown): void {
    this.sendRaw(JSON.stringify({ id, result }));
  }

  /**
   * The next message from the read position on that `match` accepts (a notification or server
   * request); the position moves past it, so successive waits see messages in order.
   */
  async next(match: (m: Json) => boolean, timeoutMs = 20_000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.received.length) {
        const m = this.received[this.cursor++] as Json;
        if (match(m)) return m;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; last messages: ${this.received.slice(-5).map((m) => JSON.stringify(m).slice(0, 200)).join("\n")}\nstderr: ${this.stderr.slice(-2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next message with this method (its params, and its id for a server request). */
  async nextMethod(method: string, timeoutMs?: number): Promise<{ id?: number | string; params: Json }> {
    const m = await this.next((x) => x.method === method, timeoutMs);
    return { id: m.id as number | string | undefined, params: (m.params ?? {}) as Json };
  }

  /** Methods of the notifications and server requests received so far, in order. */
  methodsSeen(): string[] {
    return this.received.flatMap((m) => (typeof m.method === "string" ? [m.method] : []));
  }

  async close(): Promise<void> {
    this.wire?.close();
    await this.wire?.ended;
  }
}

/** Fails when any client received a message outside the reference's schema. */
export function assertNoViolations(...clients: AppServerClient[]): void {
  for (const client of clients) assert.deepEqual(client.violations, [], `messages outside the reference's schema:\n${client.violations.join("\n")}`);
}

/** `codex-ts app-server` on a WebSocket at a free port of 127.0.0.1, once it says where it listens. */
export function startWsAppServer(cwd: string, home: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [CLI_PATH, "app-server", "--listen", "ws://127.0.0.1:0"], { cwd, env: testEnv(home), stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  return new Promise((resolve, reject) => {
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
      const port = /listening on: ws:\/\/127\.0\.0\.1:(\d+)/.exec(err)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.on("close", (code) => reject(new Error(`app-server exited (${code}): ${err}`)));
  });
}
