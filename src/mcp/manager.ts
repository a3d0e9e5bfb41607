/**
 * All configured MCP servers of a session. `start` returns at once: every enabled server is
 * spawned or dialled concurrently in the background, each reporting `mcp_startup_update`
 * (starting, then ready or failed with a hint) and, once all have settled, one
 * `mcp_startup_complete`. Nothing waits for a server unless it has to: a call to a tool waits for
 * that tool's server only, `waitForRequired` for the `required` ones, and `tools()` (what a turn
 * offers the model) for all of them, as the reference builds each turn's tool list only after
 * start-up has settled, each server bounded by its own `startup_timeout_sec`.
 *
 *   start ─┬─ server a: connect ─ initialize ─ tools/list ─▶ ready ──┐
 *          ├─ server b: connect ─ ✗ ───────────────────────▶ failed ─┼─▶ mcp_startup_complete
 *          └─ server c: … (slow) ─────────────────────────▶ ready ───┘
 */
import type { McpElicitation, McpElicitationHandler } from "./elicitation.js";
import { packageVersion } from "../util/version.js";
import type { ReadResourceResult, Resource, ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "../config/mcp.js";
// Only the type: connection.ts (and with it the MCP SDK) is loaded when a server is started.
import type { McpServerConnection, StdioLauncher } from "./connection.js";
import { collectPages, type PageResult } from "./pages.js";
import type { McpCallToolResult, McpServerDetail, McpStartupEventMsg, McpStartupFailure, McpToolDefinition } from "../protocol/mcp-events.js";
import { withContext } from "./errors.js";
import { qualifyTools } from "./names.js";
import { loginRequired, type McpSignInHandler, McpSignIns } from "./sign-in.js";
import { McpStartupError, startupFailureDisplay, startupFailureRaw } from "./startup-errors.js";
import { errorMessage } from "../util/errors.js";

export interface McpManagerOptions {
  /** The session's working directory (a stdio server's default cwd). */
  cwd: string;
  /** Source of `env_vars`, bearer tokens and `env_http_headers` values; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Start-up events; they belong to session start-up (event id ""). */
  onEvent: (msg: McpStartupEventMsg) => void;
  /** Answers servers' elicitation requests; without it they are declined. */
  onElicitation?: McpElicitationHandler;
  /** Sent as clientInfo.version in `initialize`; defaults to the package version. */
  clientVersion?: string;
  /**
   * Lets the user sign in to an HTTP server that asks for it (see sign-in.ts); without it such a
   * server fails with the `codex-ts mcp login` hint.
   */
  signIn?: McpSignInHandler;
  /** How long an interactive sign-in waits for the browser (default: the login's five minutes). */
  signInTimeoutMs?: number;
  /** Wraps a stdio server's command line before it starts (the session hides denied paths from it). */
  launchStdio?: StdioLauncher;
}

/** A tool the model can call: its qualified name and where it goes. */
export interface McpToolInfo {
  qualifiedName: string;
  server: string;
  /** The tool's own name, sent back to the server. */
  tool: string;
  definition: Tool;
}

export type McpServerStatus = "starting" | "ready" | "failed" | "cancelled";

type Outcome = { ok: true; connection: McpServerConnection } | { ok: false; error: McpStartupError };

/** `enabled_tools` (when set) then `disabled_tools`, as the reference filters. */
export function toolAllowed(config: McpServerConfig, tool: string): boolean {
  if (config.enabled_tools !== null && !config.enabled_tools.includes(tool)) return false;
  return !config.disabled_tools.includes(tool);
}

class ManagedServer {
  status: McpServerStatus = "starting";
  outcome: Outcome | null = null;
  readonly settled: Promise<Outcome>;
  /** Settled and reported (status, events, tool names updated). */
  reported: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    connect: () => Promise<McpServerConnection>,
  ) {
    this.settled = connect().then(
      (connection): Outcome => ({ ok: true, connection }),
      (err: unknown): Outcome => ({
        ok: false,
        error: err instanceof McpStartupError ? err : new McpStartupError(errorMessage(err)),
      }),
    );
  }

  /** The live connection, or an error saying why there is none. */
  async connection(): Promise<McpServerConnection> {
    const outcome = await this.settled;
    if (outcome.ok) return outcome.connection;
    throw withContext("failed to get client", new Error(`MCP startup failed: ${startupFailureRaw(outcome.error)}`));
  }
}

export class McpConnectionManager {
  private readonly servers = new Map<string, ManagedServer>();
  private readonly shutdownController = new AbortController();
  private qualified = new Map<string, McpToolInfo>();
  private readonly allSettled: Promise<void>;
  /** How each server is (re)started. */
  private readonly connectors = new Map<string, () => Promise<McpServerConnection>>();
  private readonly signIns: McpSignIns | null;

  private constructor(
    configs: Record<string, McpServerConfig>,
    private readonly opts: McpManagerOptions,
  ) {
    const env = opts.env ?? process.env;
    const clientVersion = opts.clientVersion ?? packageVersion();
    this.signIns = opts.signIn ? new McpSignIns(opts.signIn, env, opts.signInTimeoutMs) : null;
    const enabled = Object.entries(configs).filter(([, config]) => config.enabled);
    for (const [name, config] of enabled) {
      opts.onEvent({ type: "mcp_startup_update", server: name, status: { state: "starting" } });
      const connectOnce = async (): Promise<McpServerConnection> => {
        const { McpServerConnection } = await import("./connection.js");
        return McpServerConnection.connect(name, config, {
          cwd: opts.cwd,
          env,
          clientVersion,
          signal: this.shutdownController.signal,
          ...(opts.launchStdio ? { launchStdio: opts.launchStdio } : {}),
          ...(opts.onElicitation ? { onElicitation: (request: McpElicitation) => (opts.onElicitation as McpElicitationHandler)(name, request) } : {}),
        });
      };
      const connect = async (): Promise<McpServerConnection> => {
        try {
          return await connectOnce();
        } catch (err) {
          // A server that wants a login gets one when a front end can ask the user, then a second start.
          if (!(err instanceof McpStartupError && err.kind === "auth") || !this.signIns || config.transport !== "streamable_http") throw err;
          await this.signIns.signIn(name, config, []).catch((signInErr: unknown) => {
            throw new McpStartupError(`${err.message} (sign-in failed: ${errorMessage(signInErr)})`, "auth");
          });
          return connectOnce();
        }
      };
      this.connectors.set(name, connect);
      this.servers.set(name, new ManagedServer(name, config, connect));
    }
    const summary = { ready: [] as string[], failed: [] as McpStartupFailure[], cancelled: [] as string[] };
    for (const server of this.servers.values()) server.reported = server.settled.then((outcome) => this.settle(server, outcome, summary));
    this.allSettled = Promise.all([...this.servers.values()].map((s) => s.reported)).then(() => {
      if (this.servers.size > 0) opts.onEvent({ type: "mcp_startup_complete", ...summary });
    });
  }

  /**
   * Stops one server and starts it again from its configuration (after a sign-in, say), with
   * the start-up events of a fresh start: `mcp_startup_update` starting, then ready or failed,
   * and an `mcp_startup_complete` naming only this server. Resolves true when it is ready.
   */
  async restartServer(name: string): Promise<boolean> {
    const old = this.server(name);
    const connect = this.connectors.get(name) as () => Promise<McpServerConnection>;
    this.opts.onEvent({ type: "mcp_startup_update", server: name, status: { state: "starting" } });
    old.status = "starting";
    this.requalify();
    const previous = await old.settled;
    if (previous.ok) await previous.connection.close();
    if (this.shutdownController.signal.aborted) return false;
    const fresh = new ManagedServer(name, old.config, connect);
    this.servers.set(name, fresh);
    const summary = { ready: [] as string[], failed: [] as McpStartupFailure[], cancelled: [] as string[] };
    fresh.reported = fresh.settled.then((outcome) => this.settle(fresh, outcome, summary));
    await fresh.reported;
    this.opts.onEvent({ type: "mcp_startup_complete", ...summary });
    return fresh.status === "ready";
  }

  /** Starts every enabled server in the background; returns immediately. */
  static start(servers: Record<string, McpServerConfig>, opts: McpManagerOptions): McpConnectionManager {
    return new McpConnectionManager(servers, opts);
  }

  private settle(server: ManagedServer, outcome: Outcome, summary: { ready: string[]; failed: McpStartupFailure[]; cancelled: string[] }): void {
    const onEvent = this.opts.onEvent;
    server.outcome = outcome;
    const replaced = this.servers.get(server.name) !== server;
    if (outcome.ok && (this.shutdownController.signal.aborted || replaced)) {
      // Shut down while it was connecting: it never counts as ready.
      void outcome.connection.close();
      server.status = "cancelled";
      server.outcome = { ok: false, error: new McpStartupError("MCP startup cancelled", "cancelled") };
      summary.cancelled.push(server.name);
      return;
    }
    if (outcome.ok) {
      server.status = "ready";
      this.requalify();
      onEvent({ type: "mcp_startup_update", server: server.name, status: { state: "ready" } });
      summary.ready.push(server.name);
      return;
    }
    if (outcome.error.kind === "cancelled") {
      server.status = "cancelled";
      summary.cancelled.push(server.name);
      return;
    }
    server.status = "failed";
    const error = startupFailureDisplay(server.name, server.config, outcome.error);
    onEvent({ type: "mcp_startup_update", server: server.name, status: { state: "failed", error } });
    summary.failed.push({ server: server.name, error });
  }

  /** Recomputes qualified names over every ready server, servers in name order, so names do not depend on who answered first. */
  private requalify(): void {
    const candidates: McpToolInfo[] = [];
    for (const name of [...this.servers.keys()].sort()) {
      const server = this.servers.get(name);
      if (server?.status !== "ready" || !server.outcome?.ok) continue;
      for (const definition of server.outcome.connection.tools) {
        if (!toolAllowed(server.config, definition.name)) continue;
        candidates.push({ qualifiedName: "", server: name, tool: definition.name, definition });
      }
    }
    const qualified = new Map<string, McpToolInfo>();
    for (const [qualifiedName, info] of qualifyTools(candidates)) qualified.set(qualifiedName, { ...info, qualifiedName });
    this.qualified = qualified;
  }

  /** Whether any server is enabled (the reference offers the resource tools only then). */
  get hasServers(): boolean {
    return this.servers.size > 0;
  }

  serverNames(): string[] {
    return [...this.servers.keys()];
  }

  status(server: string): McpServerStatus | undefined {
    return this.servers.get(server)?.status;
  }

  /** Resolves once every server has settled (ready, failed or cancelled). */
  whenSettled(): Promise<void> {
    return this.allSettled;
  }

  /** Waits for one server; false when it failed, is unknown, or `timeoutMs` passed first. */
  async waitForServer(server: string, timeoutMs?: number): Promise<boolean> {
    const managed = this.servers.get(server);
    if (!managed) return false;
    if (timeoutMs === undefined) return (await managed.settled).ok;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([managed.settled.then((o) => o.ok), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Resolves once every enabled `required` server is ready; rejects, naming each one that is not
   * and why, as the reference fails session start-up.
   */
  async waitForRequired(): Promise<void> {
    const required = [...this.servers.values()].filter((s) => s.config.required);
    const outcomes = await Promise.all(required.map(async (s) => ({ name: s.name, outcome: await s.settled })));
    const failures = outcomes.flatMap(({ name, outcome }) => (outcome.ok ? [] : [`${name}: ${startupFailureRaw(outcome.error)}`]));
    if (failures.length > 0) throw new Error(`required MCP servers failed to initialize: ${failures.join("; ")}`);
  }

  /** Every started server's state once all have settled: its handshake, its tools, or why it failed. */
  async details(): Promise<McpServerDetail[]> {
    await this.allSettled;
    await Promise.all([...this.servers.values()].map((s) => s.reported));
    return [...this.servers.values()].map((server) => {
      const outcome = server.outcome;
      const connection = outcome?.ok ? outcome.connection : null;
      const failure = outcome && !outcome.ok ? outcome.error : null;
      return {
        name: server.name,
        status: server.status,
        error: failure ? startupFailureRaw(failure) : null,
        auth_required: failure?.kind === "auth",
        server_info: connection?.serverInfo ?? null,
        capabilities: connection?.capabilities ?? null,
        tools: (connection?.tools ?? []).filter((tool) => toolAllowed(server.config, tool.name)) as McpToolDefinition[],
      };
    });
  }

  /** Tools of the servers ready now, sorted by qualified name. */
  readyTools(): McpToolInfo[] {
    return [...this.qualified.values()].sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0));
  }

  /** All tools, once every server has settled (a restarted one included). */
  async tools(): Promise<McpToolInfo[]> {
    await this.allSettled;
    await Promise.all([...this.servers.values()].map((s) => s.reported));
    return this.readyTools();
  }

  /** Which server and tool a qualified name stands for (servers not ready yet resolve nothing). */
  resolveTool(qualifiedName: string): McpToolInfo | undefined {
    return this.qualified.get(qualifiedName);
  }

  /** Calls a tool by its qualified name; see `callServerTool`. */
  callTool(qualifiedName: string, args: unknown, signal?: AbortSignal): Promise<McpCallToolResult> {
    const info = this.resolveTool(qualifiedName);
    if (!info) return Promise.reject(new Error(`unknown MCP tool '${qualifiedName}'`));
    return this.callServerTool(info.server, info.tool, args, signal);
  }

  /**
   * Calls `tool` on `server` (waiting for that server if it is still starting), bounded by its
   * `tool_timeout_sec`. Rejects with a context chain ("tool call failed for `srv/tool`" caused by
   * the timeout or the server's error); a result with `isError` is a result, not a rejection.
   */
  async callServerTool(server: string, tool: string, args: unknown, signal?: AbortSignal): Promise<McpCallToolResult> {
    const managed = this.server(server);
    if (!toolAllowed(managed.config, tool)) {
      await managed.connection(); // a server that failed to start says so first
      throw new Error(`tool '${tool}' is disabled for MCP server '${server}'`);
    }
    return this.onServer(server, `tool call failed for \`${server}/${tool}\``, (c) => c.callTool(tool, args, signal));
  }

  async listResources(server: string, cursor?: string, signal?: AbortSignal): Promise<{ resources: Resource[]; nextCursor?: string }> {
    const page = await this.onServer(server, `resources/list failed for \`${server}\``, (c) => c.listResources(cursor, signal));
    return page.nextCursor === undefined ? { resources: page.items } : { resources: page.items, nextCursor: page.nextCursor };
  }

  async listResourceTemplates(
    server: string,
    cursor?: string,
    signal?: AbortSignal,
  ): Promise<{ resourceTemplates: ResourceTemplate[]; nextCursor?: string }> {
    const page = await this.onServer(server, `resources/templates/list failed for \`${server}\``, (c) => c.listResourceTemplates(cursor, signal));
    return page.nextCursor === undefined ? { resourceTemplates: page.items } : { resourceTemplates: page.items, nextCursor: page.nextCursor };
  }

  readResource(server: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.onServer(server, `resources/read failed for \`${server}\` (${uri})`, (c) => c.readResource(uri, signal));
  }

  /**
   * One request to `server` (waiting for it if it is still starting). A failure that asks for a
   * (wider) login gets the interactive sign-in when a front end offers one, a restart and one
   * more try; any other failure rejects with `label` as its context.
   */
  private async onServer<T>(server: string, label: string, run: (c: McpServerConnection) => Promise<T>): Promise<T> {
    const managed = this.server(server);
    const connection = await managed.connection();
    try {
      return await run(connection);
    } catch (err) {
      const retried = await this.afterSignIn(managed, err, run);
      if (retried) return retried.value;
      throw withContext(label, err);
    }
  }

  /**
   * When `err` says the server wants a (wider) login and a front end can ask the user: the
   * sign-in, a restart on the new tokens and `retry` once. Null when none of that applies; a
   * failed sign-in or retry rejects with its own error.
   */
  private async afterSignIn<T>(managed: ManagedServer, err: unknown, retry: (c: McpServerConnection) => Promise<T>): Promise<{ value: T } | null> {
    const wanted = loginRequired(err);
    if (!wanted || !this.signIns || managed.config.transport !== "streamable_http") return null;
    await this.signIns.signIn(managed.name, managed.config, wanted.scopes);
    if (!(await this.restartServer(managed.name))) throw new Error(`MCP server '${managed.name}' did not start again after the sign-in`);
    return { value: await retry(await this.server(managed.name).connection()) };
  }

  /** Every resource of every server that started, all pages, keyed by server in name order; a server that fails to list is left out. */
  listAllResources(signal?: AbortSignal): Promise<Map<string, Resource[]>> {
    return this.collectFromAll((c) => collectPages((cursor) => c.listResources(cursor, signal), "resources/list"));
  }

  listAllResourceTemplates(signal?: AbortSignal): Promise<Map<string, ResourceTemplate[]>> {
    return this.collectFromAll((c) =>
      collectPages((cursor): Promise<PageResult<ResourceTemplate>> => c.listResourceTemplates(cursor, signal), "resources/templates/list"),
    );
  }

  private async collectFromAll<T>(list: (c: McpServerConnection) => Promise<T[]>): Promise<Map<string, T[]>> {
    const names = [...this.servers.keys()].sort();
    const results = await Promise.all(
      names.map(async (name) => {
        const outcome = await this.servers.get(name)?.settled;
        if (!outcome?.ok) return null;
        try {
          return [name, await list(outcome.connection)] as const;
        } catch {
          return null;
        }
      }),
    );
    const out = new Map<string, T[]>();
    for (const entry of results) if (entry) out.set(entry[0], entry[1]);
    return out;
  }

  /** Cancels servers still starting and closes (for stdio: ends) every connection. */
  async shutdown(): Promise<void> {
    this.shutdownController.abort(new Error("MCP startup cancelled"));
    await this.allSettled;
    await Promise.all(
      [...this.servers.values()].map(async (server) => {
        const outcome = server.outcome;
        if (outcome?.ok) await outcome.connection.close();
      }),
    );
    this.qualified = new Map();
  }

  private server(name: string): ManagedServer {
    const managed = this.servers.get(name);
    if (!managed) throw new Error(`unknown MCP server '${name}'`);
    return managed;
  }
}
