/**
 * One client of the app-server, whatever carries its messages (stdio, a WebSocket): the
 * handshake state, requests handled concurrently (a slow one never holds up the next), answers
 * to the requests the server sends it (approvals, questions), and notifications stamped with
 * `emittedAtMs` unless the client opted out of them at `initialize`.
 */
import { ERROR_CODES, parseMessage, RpcError, type RequestId, type RpcErrorBody, type RpcRequest } from "../app-server-protocol/jsonrpc.js";
import { errorMessage } from "../util/errors.js";

/** Carries one client's messages: one JSON text each way per message. */
export interface Transport {
  send(text: string): void;
  close(): void;
}

export interface ClientInfo {
  name: string;
  title: string | null;
  version: string;
}

/** What the server does with a connection's traffic. */
export interface ConnectionHandler {
  request(connection: Connection, request: RpcRequest): Promise<unknown>;
  notification(connection: Connection, method: string, params: unknown): void;
  closed(connection: Connection): void;
  /** A message that never reached a handler (not JSON, no method), for the server's log. */
  rejected(connection: Connection, error: RpcErrorBody): void;
}

interface PendingRequest {
  resolve: (result: unknown) => void;
  reject: (error: RpcError | ClientGone) => void;
}

/**
 * A handler's result with something to do once the response is written: the reference sends
 * `thread/started` after the `thread/start` response, and a resumed thread's open questions after
 * the `thread/resume` response.
 */
export class Reply {
  constructor(
    readonly result: unknown,
    readonly afterwards: () => void,
  ) {}
}

/** A server request's answer will never come: the client went away first. */
export class ClientGone extends Error {
  constructor() {
    super("the client disconnected");
    this.name = "ClientGone";
  }
}

let nextConnectionId = 1;

export class Connection {
  readonly id = nextConnectionId++;
  clientInfo: ClientInfo | null = null;
  /** After a successful `initialize` (the `initialized` notification is not waited for). */
  initialized = false;
  /** The client asked for the protocol's experimental methods and fields at `initialize`. */
  experimentalApi = false;
  private optOut = new Set<string>();
  private nextRequestId = 0;
  private readonly pending = new Map<RequestId, PendingRequest>();
  private isClosed = false;

  constructor(
    private readonly transport: Transport,
    private readonly handler: ConnectionHandler,
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  /** Handles one incoming message's text. */
  receive(text: string): void {
    const incoming = parseMessage(text);
    switch (incoming.kind) {
      case "invalid":
        this.handler.rejected(this, incoming.error);
        this.write({ id: incoming.id, error: incoming.error });
        return;
      case "notification":
        this.handler.notification(this, incoming.message.method, incoming.message.params);
        return;
      case "response": {
        const pending = this.pending.get(incoming.message.id);
        if (!pending) return;
        this.pending.delete(incoming.message.id);
        if ("result" in incoming.message) pending.resolve(incoming.message.result);
        else pending.reject(new RpcError(incoming.message.error.code, incoming.message.error.message, incoming.message.error.data));
        return;
      }
      case "request":
        void this.answer(incoming.message);
        return;
    }
  }

  /** Marks the handshake done; `optOut` lists notification methods this client never wants. */
  initialize(clientInfo: ClientInfo, optOut: string[], experimentalApi: boolean): void {
    this.clientInfo = clientInfo;
    this.optOut = new Set(optOut);
    this.experimentalApi = experimentalApi;
    this.initialized = true;
  }

  notify(method: string, params: object): void {
    if (this.optOut.has(method)) return;
    this.write({ method, params, emittedAtMs: Date.now() });
  }

  /** Sends a server request; `id` names it (for `serverRequest/resolved`), `answer` settles with the client's result. */
  request(method: string, params: object): { id: RequestId; answer: Promise<unknown> } {
    const id = this.nextRequestId++;
    const answer = new Promise<unknown>((resolve, reject) => {
      if (this.isClosed) {
        reject(new ClientGone());
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
    this.write({ method, id, params });
    return { id, answer };
  }

  /** Withdraws a server request nobody needs an answer to any more (another client answered it). */
  forget(id: RequestId): void {
    this.pending.delete(id);
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const pending of this.pending.values()) pending.reject(new ClientGone());
    this.pending.clear();
    this.handler.closed(this);
    this.transport.close();
  }

  private async answer(request: RpcRequest): Promise<void> {
    try {
      const result = await this.handler.request(this, request);
      if (result instanceof Reply) {
        this.write({ id: request.id, result: result.result });
        result.afterwards();
      } else {
        this.write({ id: request.id, result });
      }
    } catch (err) {
      const error = err instanceof RpcError ? err.body : { code: ERROR_CODES.internalError, message: `Internal error: ${errorMessage(err)}` };
      this.write({ id: request.id, error });
    }
  }

  private write(message: object): void {
    if (this.isClosed) return;
    this.transport.send(JSON.stringify(message));
  }
}
