/**
 * Interactive OAuth sign-in for a session. A front end that can put a URL in front of the user
 * (the TUI) passes an `McpSignInHandler` in the manager's (the session's) options; when an HTTP
 * server then wants a login (a 401 at start-up with nothing to refresh, or a 403
 * `insufficient_scope` in the middle of a call), the manager runs the same flow as
 * `codex-ts mcp login` (src/mcp/oauth/login.ts: its callback server, PKCE, the token store) with
 * the handler in the browser's place, and starts the server again on the new tokens.
 *
 * Without a handler (exec, mcp-server) nothing here runs and the server fails with the
 * `codex-ts mcp login NAME` hint.
 */
import type { McpHttpServer } from "../config/mcp.js";
import { McpLoginRequiredError } from "./oauth/provider.js";

export interface McpSignInRequest {
  server: string;
  /** The authorization URL to open or show. The local callback server is already listening. */
  url: string;
  /** The scopes a step-up asks for; empty for a first sign-in (the server's own scopes). */
  scopes: string[];
}

/** Shows or opens `request.url`; resolve true to wait for the browser, false to decline the sign-in. */
export type McpSignInHandler = (request: McpSignInRequest) => Promise<boolean>;

export class McpSignInDeclinedError extends Error {
  constructor(server: string) {
    super(`sign-in to MCP server '${server}' was declined`);
    this.name = "McpSignInDeclinedError";
  }
}

/** The login a failed request asks for, or null: `err` or one of its causes is a McpLoginRequiredError. */
export function loginRequired(err: unknown): McpLoginRequiredError | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof McpLoginRequiredError) return e;
  }
  return null;
}

/**
 * Runs one sign-in to completion (tokens stored) through `handler`; concurrent requests for the
 * same server share it.
 */
export class McpSignIns {
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly handler: McpSignInHandler,
    private readonly env: NodeJS.ProcessEnv,
    /** How long the callback server waits for the browser; the login's default when absent. */
    private readonly timeoutMs?: number,
  ) {}

  signIn(server: string, config: McpHttpServer, scopes: string[]): Promise<void> {
    const existing = this.running.get(server);
    if (existing) return existing;
    const work = this.run(server, config, scopes).finally(() => this.running.delete(server));
    this.running.set(server, work);
    return work;
  }

  private async run(server: string, config: McpHttpServer, scopes: string[]): Promise<void> {
    const { loginMcpServer } = await import("./oauth/login.js");
    const quiet = (): void => undefined;
    await loginMcpServer(server, config, {
      env: this.env,
      out: quiet,
      err: quiet,
      ...(scopes.length > 0 ? { scopes } : {}),
      ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}),
      openUrl: async (url) => {
        if (!(await this.handler({ server, url, scopes }))) throw new McpSignInDeclinedError(server);
        return true;
      },
    });
  }
}
