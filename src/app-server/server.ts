/**
 * The app-server: every connection (one over stdio, many over WebSockets) shares one host and
 * one set of loaded threads. Requests are dispatched by method to the handlers in methods/;
 * a method the reference's protocol has but codex-ts does not serve answers "not supported",
 * and anything else "unknown method", both naming it. Nothing but `initialize` is served before
 * the handshake.
 */
import { arch, platform, release, type as osType } from "node:os";
import { codexHome } from "../config/codex-home.js";
import { loadConfig, type CliConfigInput, type Config } from "../config/load-config.js";
import { ConfigError } from "../config/overrides.js";
import { FrontEndHost, HostStartError } from "../host/front-end-host.js";
import type { HostedThread } from "../host/hosted-thread.js";
import type { ThreadLineage } from "../protocol/collab.js";
import { IDENTITIES } from "../host/identity.js";
import { threadNames } from "../host/recorded-threads.js";
import { ERROR_CODES, RpcError, invalidRequest, type RpcErrorBody, type RpcRequest } from "../app-server-protocol/jsonrpc.js";
import { REFERENCE_METHODS } from "../app-server-protocol/methods.js";
import type { Thread } from "../app-server-protocol/v2.js";
import { effortToV2 } from "../app-server-protocol/convert.js";
import { packageVersion } from "../util/version.js";
import { Connection, type ConnectionHandler, type Transport } from "./connection.js";
import { LiveThread, type ThreadFamily } from "./live-thread.js";
import { Params } from "./params.js";
import { METHODS } from "./methods/index.js";
import { endProcessesOf } from "./methods/command-processes.js";

export interface AppServerOptions {
  env: NodeJS.ProcessEnv;
  /** `-c key=value` given to the command: every thread's config starts from them. */
  overrides: string[];
  /** Where the server's own diagnostics go (stderr); never the protocol stream. */
  log: (line: string) => void;
}

export interface MethodContext {
  server: AppServer;
  connection: Connection;
}

export type Method = (ctx: MethodContext, params: Params) => Promise<unknown>;

/** What a loaded thread's Thread object needs beyond the thread itself. */
interface ThreadMeta {
  createdAt: number;
  forkedFromId: string | null;
  ephemeral: boolean;
  preview: string;
  /** A sub-agent's place in its tree; null for a user's thread. */
  lineage: ThreadLineage | null;
}

/** What the server knows of a thread it loads now, beyond what the thread itself says. */
function newThreadMeta(known: Partial<ThreadMeta> = {}): ThreadMeta {
  return { createdAt: Math.floor(Date.now() / 1000), forkedFromId: null, ephemeral: false, preview: "", lineage: null, ...known };
}

export class AppServer implements ConnectionHandler {
  readonly codexHome: string;
  private readonly connections = new Set<Connection>();
  private readonly threads = new Map<string, { live: LiveThread; meta: ThreadMeta }>();
  private frontEndHost: FrontEndHost | null = null;
  private originator = IDENTITIES["app-server"].originator;

  constructor(readonly options: AppServerOptions) {
    this.codexHome = codexHome(options.env);
  }

  connect(transport: Transport): Connection {
    const connection = new Connection(transport, this);
    this.connections.add(connection);
    return connection;
  }

  /** The host threads open through, made at the first handshake with the client's name as the originator (as the reference names it). */
  host(): FrontEndHost {
    if (!this.frontEndHost) throw new RpcError(ERROR_CODES.invalidRequest, "Not initialized");
    return this.frontEndHost;
  }

  /** A config as the server's flags and this request's settings make it; a broken one is the request's error. */
  loadConfig(input: Partial<CliConfigInput>): Config {
    try {
      return loadConfig({ cwd: process.cwd(), ...input, overrides: [...this.options.overrides, ...(input.overrides ?? [])], env: this.options.env });
    } catch (err) {
      if (err instanceof ConfigError) throw invalidRequest(`Invalid config: ${err.message}`);
      throw err;
    }
  }

  thread(threadId: string): LiveThread | undefined {
    return this.threads.get(threadId)?.live;
  }

  loadedThreadIds(): string[] {
    return [...this.threads.keys()];
  }

  /** The loaded thread `threadId`, or the reference's error for one that is not. */
  requireThread(threadId: string): LiveThread {
    const live = this.thread(threadId);
    if (!live) throw invalidRequest(`thread not found: ${threadId}`);
    return live;
  }

  /** Takes a thread the host opened: waits for its settings and keeps it loaded until it closes. */
  async adopt(hosted: HostedThread, meta: Partial<ThreadMeta> = {}): Promise<LiveThread> {
    const existing = this.thread(hosted.threadId);
    if (existing) return existing;
    const live = new LiveThread(hosted, (closed) => this.forget(closed), this.family(null));
    const full = newThreadMeta(meta);
    this.threads.set(hosted.threadId, { live, meta: full });
    for (const notice of hosted.notices) this.options.log(notice);
    const configured = await live.whenConfigured();
    const firstPrompt = configured.initial_messages?.find((m) => m.type === "user_message");
    if (firstPrompt?.type === "user_message" && full.preview === "") full.preview = firstPrompt.message;
    return live;
  }

  /**
   * A sub-agent's thread, opened (or reopened) by a loaded thread's collab tools: loaded as a
   * thread of its own, its notifications sent to the parent's clients from its first event.
   * Called before the sub-agent gets its task, so nothing of its turn is missed.
   */
  private adoptSubAgent(hosted: HostedThread, lineage: ThreadLineage): void {
    const parent = this.threads.get(lineage.parentThreadId);
    const live = new LiveThread(hosted, (closed) => this.forget(closed), this.family(parent?.live ?? null));
    const meta = newThreadMeta({ ephemeral: parent?.meta.ephemeral ?? false, lineage });
    this.threads.set(hosted.threadId, { live, meta });
    for (const connection of parent?.live.subscribers ?? []) live.subscribe(connection);
  }

  /** The loaded sub-agents' threads under a thread (its children, theirs, …). */
  subAgentsOf(threadId: string): LiveThread[] {
    const found: LiveThread[] = [];
    for (const { live, meta } of this.threads.values()) {
      if (meta.lineage?.parentThreadId === threadId) found.push(live, ...this.subAgentsOf(live.threadId));
    }
    return found;
  }

  private family(parent: LiveThread | null): ThreadFamily {
    return { parent, followed: (threadId) => this.threads.has(threadId) };
  }

  /** A thread that shut down is no longer loaded (unless it was loaded again meanwhile: a reopened sub-agent). */
  private forget(closed: LiveThread): void {
    if (this.threads.get(closed.threadId)?.live === closed) this.threads.delete(closed.threadId);
  }

  /** Records the first prompt of a thread that had none, for its preview. */
  notePrompt(threadId: string, text: string): void {
    const entry = this.threads.get(threadId);
    if (entry && entry.meta.preview === "") entry.meta.preview = text;
  }

  /** The loaded thread as the protocol shows it (`turns` empty; reads and resumes add them). */
  threadObject(live: LiveThread): Thread {
    const entry = this.threads.get(live.threadId);
    const meta = entry?.meta ?? newThreadMeta();
    const configured = live.configured;
    const settings = live.settingsResponse();
    const lineage = meta.lineage;
    return {
      id: live.threadId,
      sessionId: lineage?.rootThreadId ?? live.threadId,
      forkedFromId: meta.forkedFromId,
      parentThreadId: lineage?.parentThreadId ?? null,
      preview: meta.preview,
      ephemeral: meta.ephemeral,
      section: null,
      sectionEnteredAt: null,
      projectId: null,
      historyMode: "legacy",
      modelProvider: settings.modelProvider,
      model: settings.model,
      reasoningEffort: effortToV2(configured?.reasoning_effort ?? null),
      createdAt: meta.createdAt,
      updatedAt: Math.floor(Date.now() / 1000),
      recencyAt: meta.createdAt,
      status: live.threadStatus,
      path: meta.ephemeral ? null : (configured?.rollout_path ?? null),
      cwd: settings.cwd,
      cliVersion: packageVersion(),
      originator: this.originator,
      source: lineage ? subAgentSource(lineage) : IDENTITIES["app-server"].source,
      threadSource: lineage ? "subagent" : null,
      agentNickname: lineage?.nickname ?? null,
      agentRole: lineage?.role ?? null,
      gitInfo: null,
      name: threadNames(this.codexHome).get(live.threadId.toLowerCase())?.name ?? null,
      turns: [],
    };
  }

  /** A notification for every client past its handshake (thread lifecycle, names, archiving). */
  broadcast(method: string, params: object): void {
    for (const connection of this.connections) if (connection.initialized) connection.notify(method, params);
  }

  /** Closes a loaded thread (its commands and MCP servers end) and forgets it. */
  async closeThread(threadId: string): Promise<void> {
    const entry = this.threads.get(threadId);
    if (!entry) return;
    this.threads.delete(threadId);
    await this.host().close(threadId);
  }

  /** Ends every thread and flushes telemetry; returns what went wrong on the way. */
  async shutdown(): Promise<string[]> {
    for (const connection of [...this.connections]) connection.close();
    this.threads.clear();
    return this.frontEndHost ? this.frontEndHost.shutdown() : [];
  }

  // ------------------------------------------------------------------ ConnectionHandler

  async request(connection: Connection, request: RpcRequest): Promise<unknown> {
    if (request.method === "initialize") return this.initialize(connection, new Params(request.params));
    if (!connection.initialized) throw invalidRequest("Not initialized");
    const method = METHODS[request.method];
    if (!method) {
      if (REFERENCE_METHODS.has(request.method)) throw new RpcError(ERROR_CODES.methodNotFound, `\`${request.method}\` is not supported by codex-ts app-server`);
      throw new RpcError(ERROR_CODES.methodNotFound, `Method not found: \`${request.method}\` is not a method of the app-server protocol`);
    }
    try {
      return await method({ server: this, connection }, new Params(request.params));
    } catch (err) {
      if (err instanceof HostStartError) throw invalidRequest(err.message);
      throw err;
    }
  }

  notification(_connection: Connection, method: string): void {
    // `initialized` needs nothing more; clients send no other notification we act on.
    if (method !== "initialized") this.options.log(`ignored a client notification: ${method}`);
  }

  closed(connection: Connection): void {
    this.connections.delete(connection);
    // Its commands were its own (their output had nowhere else to go).
    endProcessesOf(connection);
    for (const { live } of this.threads.values()) live.unsubscribe(connection);
  }

  rejected(_connection: Connection, error: RpcErrorBody): void {
    this.options.log(`rejected a message: ${error.message}`);
  }

  private initialize(connection: Connection, params: Params): object {
    if (connection.initialized) throw invalidRequest("Already initialized");
    const info = params.optionalObject("clientInfo");
    if (!info) throw invalidRequest("Invalid request: missing field `clientInfo`");
    const name = typeof info.name === "string" ? info.name : "";
    const version = typeof info.version === "string" ? info.version : "";
    if (name === "") throw invalidRequest("Invalid request: `clientInfo.name` must be a non-empty string");
    const capabilities = params.optionalObject("capabilities") ?? {};
    const optOut = Array.isArray(capabilities.optOutNotificationMethods) ? capabilities.optOutNotificationMethods.filter((m): m is string => typeof m === "string") : [];
    connection.initialize({ name, title: typeof info.title === "string" ? info.title : null, version }, optOut, capabilities.experimentalApi === true);
    if (!this.frontEndHost) {
      // The first client names the originator threads are recorded and sent with, as the reference does.
      this.originator = this.options.env.CODEX_INTERNAL_ORIGINATOR_OVERRIDE ?? name;
      // An active goal keeps its thread working turn after turn, as the reference's app-server does.
      // Sub-agents' threads are served as threads of their own, as the reference serves them.
      this.frontEndHost = new FrontEndHost({ ...IDENTITIES["app-server"], originator: this.originator, userAgentProduct: name }, this.options.env, {
        goalContinuation: true,
        subAgentThreads: (thread, lineage) => this.adoptSubAgent(thread, lineage),
      });
    }
    return {
      userAgent: `${name}/${packageVersion()} (${osType()} ${release()}; ${arch()}) ${this.options.env.TERM_PROGRAM ?? this.options.env.TERM ?? "unknown"} (${name}; ${version})`,
      codexHome: this.codexHome,
      platformFamily: platform() === "win32" ? "windows" : "unix",
      platformOs: platform() === "darwin" ? "macos" : platform() === "win32" ? "windows" : platform(),
    };
  }
}

/** A spawned sub-agent's SessionSource, as the reference's Thread carries it. */
function subAgentSource(lineage: ThreadLineage): Thread["source"] {
  const spawn = { parent_thread_id: lineage.parentThreadId, depth: lineage.depth, agent_path: null, agent_nickname: lineage.nickname, agent_role: lineage.role };
  return { subAgent: { thread_spawn: spawn } };
}
