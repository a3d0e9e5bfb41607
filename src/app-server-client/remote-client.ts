/**
 * A client of an app-server on another machine (`codex-ts --remote ws://HOST:PORT`): the
 * connection and its handshake, threads started, resumed and forked there (RemoteThread), the
 * recorded threads listed, and the server's notifications and requests routed to the thread they
 * name (a sub-agent's questions to the thread it grew from: see sub-agent-parents.ts). When the connection drops it is opened again (waiting longer each time, up to a limit),
 * and every open thread is resumed on the new one: the turn that was running goes on showing, and
 * nothing that happened meanwhile is lost.
 */
import type { RequestId } from "../app-server-protocol/jsonrpc.js";
import type { Thread, ThreadSettingsResponse } from "../app-server-protocol/v2.js";
import { RpcConnection, type ConnectionListener } from "./rpc-connection.js";
import { RemoteThread } from "./remote-thread.js";
import { SubAgentParents } from "./sub-agent-parents.js";
import { errorMessage } from "../util/errors.js";

export { ConnectionLost, RemoteError } from "./rpc-connection.js";
export type { RemoteThread };

export interface RemoteOptions {
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string | null;
  clientName: string;
  version: string;
  /** How long to keep trying to reconnect before giving up (default five minutes). */
  reconnectForMs?: number;
}

type Json = Record<string, unknown>;

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;
const DEFAULT_RECONNECT_FOR_MS = 5 * 60_000;
/** Notifications kept for a thread not adopted yet, and for how many such threads. */
const EARLY_PER_THREAD = 64;
const EARLY_THREADS = 8;

export class RemoteClient implements ConnectionListener {
  private current: RpcConnection | null = null;
  private readonly threads = new Map<string, RemoteThread>();
  private readonly early = new Map<string, Array<{ method: string; params: Json }>>();
  private readonly subAgents = new SubAgentParents();
  private closing = false;

  private constructor(private readonly options: RemoteOptions) {}

  /** Connects and shakes hands; rejects with a message meant for the user. */
  static async connect(options: RemoteOptions): Promise<RemoteClient> {
    const client = new RemoteClient(options);
    await client.open();
    return client;
  }

  connection(): RpcConnection | null {
    return this.current && !this.current.closed ? this.current : null;
  }

  private async open(): Promise<void> {
    let connection: RpcConnection;
    try {
      connection = await RpcConnection.open(this.options.url, this.options.token, this);
    } catch (err) {
      throw new Error(`could not connect to ${this.options.url}: ${errorMessage(err)}`);
    }
    await connection.request("initialize", { clientInfo: { name: this.options.clientName, title: "codex-ts", version: this.options.version }, capabilities: { experimentalApi: false } });
    connection.notify("initialized");
    this.current = connection;
  }

  private require(): RpcConnection {
    const connection = this.connection();
    if (!connection) throw new Error(`not connected to ${this.options.url}`);
    return connection;
  }

  private adopt(response: ThreadSettingsResponse): RemoteThread {
    const thread = new RemoteThread(response, {
      connection: () => this.connection(),
      forget: (done) => {
        if (this.threads.get(done.threadId) === done) this.threads.delete(done.threadId);
      },
    });
    this.threads.set(thread.threadId, thread);
    for (const { method, params } of this.early.get(thread.threadId) ?? []) thread.notification(method, params);
    this.early.delete(thread.threadId);
    return thread;
  }

  async startThread(params: Json): Promise<RemoteThread> {
    return this.adopt(await this.require().request<ThreadSettingsResponse>("thread/start", params));
  }

  async resumeThread(threadId: string, params: Json = {}): Promise<RemoteThread> {
    return this.adopt(await this.require().request<ThreadSettingsResponse>("thread/resume", { ...params, threadId }));
  }

  async forkThread(threadId: string, params: Json = {}): Promise<RemoteThread> {
    return this.adopt(await this.require().request<ThreadSettingsResponse>("thread/fork", { ...params, threadId }));
  }

  /** Recorded threads, newest first (one page of the server's listing). */
  async listThreads(params: Json): Promise<{ data: Thread[]; nextCursor: string | null }> {
    return this.require().request("thread/list", params);
  }

  /** Any other request to the server (names, config edits). */
  call<T = Json>(method: string, params: unknown): Promise<T> {
    return this.require().request<T>(method, params);
  }

  /** Runs a command on the server (under its sandbox), for what the UI shows from the workspace (/diff). */
  async commandExec(command: string[], cwd: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    return this.require().request("command/exec", { command, cwd, timeoutMs: 30_000, outputBytesCap: 64 << 20 });
  }

  close(): void {
    this.closing = true;
    this.current?.close();
  }

  // ------------------------------------------------------------------ ConnectionListener

  notification(method: string, params: Json): void {
    const threadId = typeof params.threadId === "string" ? params.threadId : typeof (params.thread as Json | undefined)?.id === "string" ? String((params.thread as Json).id) : null;
    this.subAgents.note(method, params);
    if (threadId !== null) {
      const thread = this.threads.get(threadId);
      if (thread) thread.notification(method, params);
      else if (this.subAgents.isSubAgent(threadId)) {
        // A sub-agent shows through its parent's items; only the end of its questions, asked in
        // the parent's view, matters here.
        if (method === "serverRequest/resolved") this.ancestorOf(threadId)?.notification(method, params);
      } else this.keepEarly(threadId, method, params);
    } else for (const thread of this.threads.values()) thread.notification(method, params);
  }

  /** The open thread a sub-agent's thread grew from (its parent, or further up), if any. */
  private ancestorOf(threadId: string): RemoteThread | undefined {
    const id = this.subAgents.openAncestor(threadId, (candidate) => this.threads.has(candidate));
    return id === null ? undefined : this.threads.get(id);
  }

  /**
   * A notification can arrive in the same read as the response that names its thread (a start-up
   * warning right after `thread/start`), before that thread is adopted: it waits for it. Only a
   * few threads' worth are kept (other clients' threads are announced too).
   */
  private keepEarly(threadId: string, method: string, params: Json): void {
    const kept = this.early.get(threadId) ?? [];
    if (kept.length >= EARLY_PER_THREAD) return;
    kept.push({ method, params });
    this.early.delete(threadId);
    this.early.set(threadId, kept);
    for (const oldest of this.early.keys()) {
      if (this.early.size <= EARLY_THREADS) break;
      this.early.delete(oldest);
    }
  }

  request(id: RequestId, method: string, params: Json): void {
    const threadId = typeof params.threadId === "string" ? params.threadId : null;
    const thread = threadId === null ? undefined : this.threads.get(threadId);
    const ancestor = threadId === null || thread ? undefined : this.ancestorOf(threadId);
    if (thread) thread.serverRequest(id, method, params);
    // A sub-agent's question, asked in the view of the thread it grew from (named by its id, as the UI names sub-agents).
    else if (ancestor && threadId !== null) ancestor.serverRequest(id, method, params, { thread_id: threadId, agent_nickname: null, agent_role: null });
    else this.current?.respondError(id, { code: -32601, message: `${method} is not handled by this client` });
  }

  closed(reason: string): void {
    if (this.closing) return;
    for (const thread of this.threads.values()) thread.disconnected(reason);
    void this.reconnect(reason);
  }

  private async reconnect(reason: string): Promise<void> {
    const deadline = Date.now() + (this.options.reconnectForMs ?? DEFAULT_RECONNECT_FOR_MS);
    let wait = FIRST_RETRY_MS;
    let lastError = reason;
    while (!this.closing && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, MAX_RETRY_MS);
      try {
        await this.open();
      } catch (err) {
        lastError = errorMessage(err);
        continue;
      }
      for (const thread of [...this.threads.values()]) {
        try {
          thread.reconnected(await this.require().request<ThreadSettingsResponse>("thread/resume", { threadId: thread.threadId }));
        } catch (err) {
          this.threads.delete(thread.threadId);
          thread.ended(`the thread could not be resumed: ${errorMessage(err)}`);
        }
      }
      return;
    }
    for (const thread of this.threads.values()) thread.ended(lastError);
    this.threads.clear();
  }
}
