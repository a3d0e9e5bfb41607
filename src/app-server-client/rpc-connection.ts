/**
 * One WebSocket connection to an app-server, as a JSON-RPC client: requests matched to their
 * responses, notifications and the server's requests handed to listeners, and the end of the
 * connection reported once (pending requests then fail with ConnectionLost). The `ws` package
 * loads only when a connection opens.
 */
import { classify, type RequestId, type RpcErrorBody } from "../app-server-protocol/jsonrpc.js";

/** The connection ended before the answer came. */
export class ConnectionLost extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "ConnectionLost";
  }
}

/** The server answered a request with an error. */
export class RemoteError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The error's `data`, when the server sent some. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RemoteError";
  }
}

export interface ConnectionListener {
  notification(method: string, params: Record<string, unknown>): void;
  request(id: RequestId, method: string, params: Record<string, unknown>): void;
  closed(reason: string): void;
}

interface Socket {
  send(text: string): void;
  close(): void;
}

const asObject = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export class RpcConnection {
  private nextId = 1;
  private readonly pending = new Map<RequestId, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private ended = false;

  private constructor(
    private readonly socket: Socket,
    private readonly listener: ConnectionListener,
  ) {}

  /** Opens `url` (`Authorization: Bearer <token>` when a token is given); rejects with the reason it could not. */
  static async open(url: string, token: string | null, listener: ConnectionListener): Promise<RpcConnection> {
    const { WebSocket } = await import("ws");
    const ws = new WebSocket(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, maxPayload: 64 << 20 });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("unexpected-response", (_req, res) => reject(new Error(`the server refused the connection (HTTP ${res.statusCode ?? "?"}${res.statusCode === 401 ? ": check the token" : ""})`)));
      ws.once("error", (err) => reject(err));
    });
    const connection = new RpcConnection({ send: (text) => ws.send(text), close: () => ws.close() }, listener);
    ws.on("message", (data: Buffer) => connection.receive(data.toString("utf8")));
    ws.on("close", () => connection.end("the connection closed"));
    ws.on("error", (err) => connection.end(err.message));
    return connection;
  }

  get closed(): boolean {
    return this.ended;
  }

  request<T = Record<string, unknown>>(method: string, params: unknown): Promise<T> {
    if (this.ended) return Promise.reject(new ConnectionLost("not connected"));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  notify(method: string, params?: unknown): void {
    if (!this.ended) this.socket.send(JSON.stringify(params === undefined ? { method } : { method, params }));
  }

  respond(id: RequestId, result: unknown): void {
    if (!this.ended) this.socket.send(JSON.stringify({ id, result }));
  }

  respondError(id: RequestId, error: RpcErrorBody): void {
    if (!this.ended) this.socket.send(JSON.stringify({ id, error }));
  }

  close(): void {
    this.socket.close();
    this.end("closed by the client");
  }

  private receive(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    const message = classify(value);
    switch (message.kind) {
      case "response": {
        const pending = this.pending.get(message.message.id);
        this.pending.delete(message.message.id);
        if (!pending) return;
        if ("result" in message.message) pending.resolve(message.message.result);
        else pending.reject(new RemoteError(message.message.error.code, message.message.error.message, message.message.error.data));
        return;
      }
      case "notification":
        this.listener.notification(message.message.method, asObject(message.message.params));
        return;
      case "request":
        this.listener.request(message.message.id, message.message.method, asObject(message.message.params));
        return;
      case "invalid":
        return;
    }
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    for (const p of this.pending.values()) p.reject(new ConnectionLost(reason));
    this.pending.clear();
    this.listener.closed(reason);
  }
}
