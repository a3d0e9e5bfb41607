/**
 * One live MCP server: the transport (a child process over stdio, or streamable HTTP), the
 * initialize handshake and the tool list, each bounded by the server's start-up timeout, then
 * tool calls and resource requests bounded by its tool timeout.
 *
 * A stdio server gets a small environment, as in the reference: a few basics from ours (HOME,
 * PATH, LANG, …), the variables named in `env_vars`, then `env`. Its stderr is drained and
 * dropped so it cannot scribble over the terminal.
 */
import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ResultSchema,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { hasStaticCredential, type McpHttpServer, type McpServerConfig, type McpStdioServer } from "../config/mcp.js";
import type { McpCallToolResult, McpServerInfo } from "../protocol/mcp-events.js";
import type { ElicitationAnswer, McpElicitation } from "./elicitation.js";
import { withFormDefaults } from "./form-defaults.js";
import { McpLoginRequiredError, type AuthorizeHandler } from "./oauth/provider.js";
import { collectPages, type PageResult } from "./pages.js";
import { McpStartupError, spawnErrorMessage } from "./startup-errors.js";
import { skipOversizedMessages } from "./stdio-read-buffer.js";
import { formatDuration, McpTimeoutError, sdkTimeoutMs, secondsToMs, withDeadline } from "./time.js";
import { errorCode, errorMessage } from "../util/errors.js";

/** Variables a stdio server inherits from our environment (the reference's list, Unix). */
export const DEFAULT_INHERITED_ENV_VARS = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "USER",
  "__CF_USER_TEXT_ENCODING",
  "LANG",
  "LC_ALL",
  "TERM",
  "TMPDIR",
  "TZ",
];

const SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** Rewrites a stdio server's command line and environment before it starts; may refuse by throwing. */
export type StdioLauncher = (argv: string[], cwd: string, env: Record<string, string>) => Promise<{ argv: string[]; env: Record<string, string> }>;

export interface ConnectOptions {
  /** The session's working directory: a stdio server's default cwd, and what a relative `cwd` is resolved against. */
  cwd: string;
  /** Where `env_vars`, `bearer_token_env_var` and `env_http_headers` are read from. */
  env: NodeJS.ProcessEnv;
  clientVersion: string;
  /** Aborted when the manager shuts down before the server finished starting. */
  signal: AbortSignal;
  /** Wraps stdio servers' command lines (a sandbox hiding the permission profile's denied paths). */
  launchStdio?: StdioLauncher;
  /** Answers the server's elicitation requests (the session asks the user); without it they are declined. */
  onElicitation?: (request: McpElicitation) => Promise<ElicitationAnswer>;
  /**
   * An HTTP server that wants an OAuth sign-in: a front end that can send the user to the
   * authorization URL passes this (with the redirect URI it listens on); without it the start
   * fails with a hint to run `codex-ts mcp login`.
   */
  oauth?: { authorize: AuthorizeHandler; redirectUrl: string; scopes?: string[] };
}

export { collectPages, type PageResult } from "./pages.js";

export function stdioServerEnv(config: McpStdioServer, source: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...DEFAULT_INHERITED_ENV_VARS, ...config.env_vars]) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...config.env };
}

/** Static headers, then headers whose values come from the environment (unset or blank ones skipped), then the bearer token. */
export function httpServerHeaders(server: string, config: McpHttpServer, source: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = { ...config.http_headers };
  for (const [header, variable] of Object.entries(config.env_http_headers)) {
    const value = source[variable];
    if (value !== undefined && value.trim() !== "") headers[header] = value;
  }
  const tokenVar = config.bearer_token_env_var;
  if (tokenVar !== null) {
    const token = source[tokenVar];
    if (token === undefined) throw new McpStartupError(`Environment variable ${tokenVar} for MCP server '${server}' is not set`);
    if (token === "") throw new McpStartupError(`Environment variable ${tokenVar} for MCP server '${server}' is empty`);
    headers.Authorization = `Bearer ${token}`;
  }
  return headers;
}

function isErrno(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && errorCode(err) !== undefined;
}

function message(err: unknown): string {
  return errorMessage(err);
}

export class McpServerConnection {
  private constructor(
    readonly name: string,
    private readonly client: Client,
    /** The server's tools as listed at start-up (unfiltered). */
    readonly tools: Tool[],
    private readonly toolTimeoutMs: number,
  ) {}

  /** Spawns or dials the server, handshakes and lists its tools; throws McpStartupError. */
  static async connect(name: string, config: McpServerConfig, opts: ConnectOptions): Promise<McpServerConnection> {
    if (!SERVER_NAME_PATTERN.test(name)) {
      throw new McpStartupError(`Invalid MCP server name '${name}': must match pattern ${SERVER_NAME_PATTERN.source}`);
    }
    const startupMs = secondsToMs(config.startup_timeout_sec);
    const transport = await createTransport(name, config, opts);
    const client = new Client({ name: "codex-mcp-client", version: opts.clientVersion, title: "Codex" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const params = request.params as { message?: unknown; requestedSchema?: unknown };
      const answer = opts.onElicitation
        ? await opts.onElicitation({
            id: extra.requestId,
            message: typeof params.message === "string" ? params.message : "",
            ...(params.requestedSchema !== undefined ? { requestedSchema: params.requestedSchema } : {}),
          })
        : ({ action: "decline" } as const);
      if (answer.action !== "accept") return { action: answer.action };
      const content = withFormDefaults(params.requestedSchema, answer.content);
      return content ? { action: "accept", content: content as Record<string, string | number | boolean | string[]> } : { action: "accept" };
    });
    try {
      await withDeadline(startupMs, `timed out handshaking with MCP server after ${formatDuration(startupMs)}`, opts.signal, (signal) =>
        client.connect(transport, { signal, timeout: sdkTimeoutMs(startupMs) }),
      ).catch((err: unknown) => {
        throw handshakeError(config, err, opts.signal);
      });
      const tools = await listServerTools(client, startupMs, opts.signal).catch((err: unknown) => {
        throw startupError(err, opts.signal);
      });
      return new McpServerConnection(name, client, tools, secondsToMs(config.tool_timeout_sec));
    } catch (err) {
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
      throw err;
    }
  }

  /** `tools/call`, without the SDK's output-schema validation (the reference passes results through as they are). */
  async callTool(tool: string, args: unknown, signal?: AbortSignal): Promise<McpCallToolResult> {
    const params = args === null || args === undefined ? { name: tool } : { name: tool, arguments: args as Record<string, unknown> };
    const result = await this.request("tools/call", signal, (s, timeout) =>
      this.client.request({ method: "tools/call", params }, CallToolResultSchema, { signal: s, timeout }),
    );
    // Only the fields the reference's CallToolResult has; unknown extras are dropped.
    const { content, structuredContent, isError, _meta } = result;
    const out: McpCallToolResult = { content: content ?? [] };
    if (structuredContent !== undefined) out.structuredContent = structuredContent;
    if (isError !== undefined) out.isError = isError;
    if (_meta !== undefined) out._meta = _meta;
    return out;
  }

  listResources(cursor: string | undefined, signal?: AbortSignal): Promise<PageResult<Resource>> {
    return this.request("resources/list", signal, async (s, timeout) => {
      const page = await this.client.listResources(cursor === undefined ? undefined : { cursor }, { signal: s, timeout });
      return { items: page.resources, nextCursor: page.nextCursor };
    });
  }

  listResourceTemplates(cursor: string | undefined, signal?: AbortSignal): Promise<PageResult<ResourceTemplate>> {
    return this.request("resources/templates/list", signal, async (s, timeout) => {
      const page = await this.client.listResourceTemplates(cursor === undefined ? undefined : { cursor }, { signal: s, timeout });
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    });
  }

  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.request("resources/read", signal, (s, timeout) => this.client.readResource({ uri }, { signal: s, timeout }));
  }

  /** What the server said about itself in the handshake. */
  get serverInfo(): McpServerInfo | null {
    return (this.client.getServerVersion() as McpServerInfo | undefined) ?? null;
  }

  /** The capabilities the server announced in the handshake. */
  get capabilities(): Record<string, unknown> | null {
    return (this.client.getServerCapabilities() as Record<string, unknown> | undefined) ?? null;
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }

  /** One request under the tool timeout; failures read like the reference's ("timed out awaiting tools/call after 60s", "tools/call failed: …"). */
  private async request<T>(label: string, signal: AbortSignal | undefined, run: (signal: AbortSignal, timeout: number) => Promise<T>): Promise<T> {
    const ms = this.toolTimeoutMs;
    try {
      return await withDeadline(ms, `timed out awaiting ${label} after ${formatDuration(ms)}`, signal, (s) => run(s, sdkTimeoutMs(ms)));
    } catch (err) {
      if (err instanceof McpTimeoutError || signal?.aborted) throw err;
      // The cause's text is folded into the message (as the reference words it); the cause is
      // kept for the manager, which signs in again when it is a login the server asks for.
      throw new Error(`${label} failed: ${message(err)}`, { cause: err });
    }
  }
}

/** The server's tools, all pages, under the start-up timeout; none when it offers no tools (a resources-only server still works). */
async function listServerTools(client: Client, startupMs: number, outer: AbortSignal): Promise<Tool[]> {
  if (client.getServerCapabilities()?.tools === undefined) return [];
  return withDeadline(startupMs, `timed out awaiting tools/list after ${formatDuration(startupMs)}`, outer, (signal) =>
    collectPages(async (cursor) => {
      // Read loosely: the SDK's own tools/list schema rejects input schemas the reference accepts
      // (a boolean property schema, say); only the tool names have to be sound.
      const params = cursor === undefined ? {} : { cursor };
      const page = await client.request({ method: "tools/list", params }, ResultSchema, { signal, timeout: sdkTimeoutMs(startupMs) });
      return { items: toolsOf(page), nextCursor: typeof page.nextCursor === "string" ? page.nextCursor : undefined };
    }, "tools/list"),
  );
}

function toolsOf(page: Record<string, unknown>): Tool[] {
  if (!Array.isArray(page.tools)) throw new Error("tools/list result has no tools array");
  return page.tools.map((tool: unknown, i) => {
    if (typeof tool !== "object" || tool === null || typeof (tool as { name?: unknown }).name !== "string") {
      throw new Error(`tools/list result: tool ${i} has no name`);
    }
    return tool as Tool;
  });
}

async function createTransport(name: string, config: McpServerConfig, opts: ConnectOptions): Promise<Transport> {
  if (config.transport === "stdio") {
    const cwd = resolve(opts.cwd, config.cwd ?? ".");
    let argv = [config.command, ...config.args];
    let env = stdioServerEnv(config, opts.env);
    if (opts.launchStdio) {
      try {
        ({ argv, env } = await opts.launchStdio(argv, cwd, env));
      } catch (err) {
        throw new McpStartupError(`MCP server '${name}' was not started: ${message(err)}`);
      }
    }
    const [command = config.command, ...args] = argv;
    const transport = new StdioClientTransport({
      command,
      args,
      env,
      cwd,
      stderr: "pipe",
    });
    transport.stderr?.on("data", () => undefined);
    skipOversizedMessages(transport);
    return transport;
  }
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    throw new McpStartupError(`invalid URL for MCP server '${name}': ${config.url}`);
  }
  const requestInit = { headers: httpServerHeaders(name, config, opts.env) };
  if (hasStaticCredential(config)) return new StreamableHTTPClientTransport(url, { requestInit });
  // The OAuth code (and the SDK's auth client) loads only for servers that may need it.
  const { serverAuth } = await import("./oauth/server-auth.js");
  const { fetch } = serverAuth(name, config, {
    env: opts.env,
    ...(opts.oauth ? { authorize: opts.oauth.authorize, redirectUrl: opts.oauth.redirectUrl, ...(opts.oauth.scopes ? { scopes: opts.oauth.scopes } : {}) } : {}),
  });
  return new StreamableHTTPClientTransport(url, { requestInit, fetch });
}

function startupError(err: unknown, signal: AbortSignal): McpStartupError {
  if (err instanceof McpStartupError) return err;
  if (err instanceof McpLoginRequiredError) return new McpStartupError(err.message, "auth");
  if (signal.aborted) return new McpStartupError("MCP startup cancelled", "cancelled");
  if (err instanceof McpTimeoutError) return new McpStartupError(err.message, "timeout");
  return new McpStartupError(message(err));
}

function handshakeError(config: McpServerConfig, err: unknown, signal: AbortSignal): McpStartupError {
  if (err instanceof McpStartupError || err instanceof McpTimeoutError || err instanceof McpLoginRequiredError || signal.aborted) {
    return startupError(err, signal);
  }
  if (config.transport === "stdio" && isErrno(err) && (err.syscall?.startsWith("spawn") ?? false)) {
    return new McpStartupError(spawnErrorMessage(config.command, err));
  }
  // A 401 without a configured token is a server that wants a login; with a token, the token is wrong.
  const unauthorized = err instanceof StreamableHTTPError && err.code === 401;
  const wantsLogin = unauthorized && config.transport === "streamable_http" && !hasStaticCredential(config);
  return new McpStartupError(`handshaking with MCP server failed: ${message(err)}`, wantsLogin ? "auth" : "other");
}
