/**
 * A session's MCP servers: started in the background when the session starts (their progress
 * comes as mcp_startup_* events), offered to each turn once every server has settled, restarted
 * on request, listed, and ended at shutdown. A session without enabled servers has no runtime
 * and never loads the MCP code.
 */
import type { EventMsg } from "../protocol/events.js";
import type { McpServerConfig } from "../config/mcp.js";
import type { McpConnectionManager } from "../mcp/manager.js";
import type { McpElicitationHandler } from "../mcp/elicitation.js";
import type { McpSignInHandler } from "../mcp/sign-in.js";
import { withMcpToolSpecs, type McpToolset } from "../mcp/toolset.js";
import type { McpApprovalHook } from "../approval/mcp-tool-approval.js";
import type { McpCallToolResult, McpListToolsResponse } from "../protocol/mcp-events.js";
import type { ToolExtension } from "../tools/registry.js";
import type { SessionOptions } from "./session-options.js";
import type { FileSystemGuard } from "../sandbox/fs-guard.js";
import { errorMessage } from "../util/errors.js";

interface Loaded {
  manager: McpConnectionManager;
  /** The MCP tools for one turn; waits until every server has settled, as the reference does. */
  toolset(approve: McpApprovalHook | undefined): Promise<McpToolset>;
}

export interface McpRuntimeHooks {
  onEvent(msg: EventMsg): void;
  onElicitation: McpElicitationHandler;
  warn(message: string): void;
  /** The session's denied paths, hidden from stdio servers as from commands (mcp-launch.ts). */
  guard: FileSystemGuard;
}

export class McpRuntime {
  private constructor(
    /** Never rejects: a load failure is a warning and null. */
    private readonly loaded: Promise<Loaded | null>,
    private readonly servers: Record<string, McpServerConfig>,
  ) {}

  /** Null when no server is enabled (nothing of MCP is loaded then). */
  static start(options: SessionOptions, cwd: string, hooks: McpRuntimeHooks): McpRuntime | null {
    const servers = options.mcpServers ?? {};
    if (!Object.values(servers).some((s) => s.enabled)) return null;
    const loaded = load(servers, cwd, hooks, options.mcpSignIn).catch((err: unknown) => {
      hooks.warn(`MCP servers could not be started: ${errorMessage(err)}`);
      return null;
    });
    return new McpRuntime(loaded, servers);
  }

  /** Resolves once every `required` server is ready; rejects naming the ones that are not. */
  async ready(): Promise<void> {
    await (await this.loaded)?.manager.waitForRequired();
  }

  /** The turn's MCP tools placed among the built-in ones; an abort stops the wait for servers. */
  async toolset(approve: McpApprovalHook | undefined, signal: AbortSignal): Promise<ToolExtension | null> {
    const tools = await untilAborted(
      this.loaded.then((runtime) => runtime?.toolset(approve) ?? null),
      signal,
    );
    return tools && { place: (builtin, deferTo) => withMcpToolSpecs(builtin, tools, deferTo), handlers: tools.handlers };
  }

  /** Names of the servers the session runs (empty until loaded, or when loading failed). */
  async serverNames(): Promise<string[]> {
    return (await this.loaded)?.manager.serverNames() ?? [];
  }

  async restart(server: string): Promise<void> {
    await (await this.loaded)?.manager.restartServer(server);
  }

  /** Every server's tools, resources and auth status (see mcp-snapshot.ts). */
  async snapshot(env: NodeJS.ProcessEnv): Promise<McpListToolsResponse> {
    const [{ mcpSnapshot }, loaded] = await Promise.all([import("./mcp-snapshot.js"), this.loaded]);
    return mcpSnapshot(loaded?.manager ?? null, this.servers, env);
  }

  /** A resource of `server`, for the front end; throws naming what went wrong. */
  async readResource(server: string, uri: string): Promise<unknown[]> {
    return (await this.manager(server)).readResource(server, uri).then((read) => read.contents);
  }

  /** A call of `server`'s `tool` on the front end's behalf; throws naming what went wrong. */
  async callTool(server: string, tool: string, args: unknown): Promise<McpCallToolResult> {
    return (await this.manager(server)).callServerTool(server, tool, args);
  }

  private async manager(server: string): Promise<McpConnectionManager> {
    const loaded = await this.loaded;
    if (!loaded || !loaded.manager.serverNames().includes(server)) throw new Error(`unknown MCP server '${server}'`);
    return loaded.manager;
  }

  /** Stdio servers are our children: ended here, or they keep the front end's process alive. */
  async shutdown(): Promise<void> {
    await (await this.loaded)?.manager.shutdown();
  }
}

/** The MCP answer for a session without servers: nothing, and every configured server's auth status. */
export async function emptyMcpSnapshot(servers: Record<string, McpServerConfig>, env: NodeJS.ProcessEnv): Promise<McpListToolsResponse> {
  const { mcpSnapshot } = await import("./mcp-snapshot.js");
  return mcpSnapshot(null, servers, env);
}

/** Loads the MCP code and starts every enabled server in the background. */
async function load(servers: Record<string, McpServerConfig>, cwd: string, hooks: McpRuntimeHooks, signIn: McpSignInHandler | undefined): Promise<Loaded> {
  const [{ McpConnectionManager }, { mcpToolset }, { McpApprovalMemory }, { mcpStdioLauncher }] = await Promise.all([
    import("../mcp/manager.js"),
    import("../mcp/tools.js"),
    import("../approval/mcp-tool-approval.js"),
    import("./mcp-launch.js"),
  ]);
  const manager = McpConnectionManager.start(servers, {
    cwd,
    onEvent: hooks.onEvent,
    onElicitation: hooks.onElicitation,
    launchStdio: mcpStdioLauncher(hooks.guard),
    ...(signIn ? { signIn } : {}),
  });
  // "Allow for this session" answers outlive the turn that gave them.
  const approvalMemory = new McpApprovalMemory();
  return {
    manager,
    toolset: (approve) => mcpToolset(manager, approve ? { approvalMemory, approve } : { approvalMemory }),
  };
}

/** `work`, or a rejection as soon as `signal` aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
