/**
 * MCP OAuth as the CLI's `mcp add | list | get | login | logout` use it, outside any thread: how
 * each server authenticates, whether one offers OAuth, signing in and out. The sign-in code (and
 * the MCP SDK behind it) loads only when one of these runs. A running thread signs in with the
 * `mcp_sign_in` op instead.
 */
import type { McpHttpServer, McpServerConfig } from "../config/mcp.js";
import type { McpAuthStatus } from "../protocol/mcp-events.js";
import type { LoginOptions } from "../mcp/oauth/login.js";

export { AUTH_STATUS_TEXT } from "../mcp/oauth/auth-status-text.js";
export { callbackId } from "../mcp/oauth/redirect.js";
export type { ClientRegistration } from "../mcp/oauth/provider.js";
export type { LoginOptions };

/** How the server authenticates (a bounded metadata discovery for an HTTP server with nothing stored). */
export async function mcpAuthStatus(name: string, server: McpServerConfig, env: NodeJS.ProcessEnv): Promise<McpAuthStatus> {
  return (await import("../mcp/oauth/status.js")).mcpAuthStatus(name, server, env);
}

/** Whether the server publishes OAuth metadata (`unknown` when it could not be asked). */
export async function oauthSupport(url: string): Promise<"supported" | "unsupported" | "unknown"> {
  return (await import("../mcp/oauth/status.js")).oauthSupport(url);
}

/** The browser sign-in; throws `{ loginRequired: true }`-marked errors as McpLoginRequiredError, others as they come. */
export async function loginMcpServer(name: string, server: McpHttpServer, opts: LoginOptions): Promise<void> {
  const { loginMcpServer: login } = await import("../mcp/oauth/login.js");
  await login(name, server, opts);
}

/** Whether a sign-in failed because the server needs the user's login again (its message says how). */
export async function isLoginRequired(err: unknown): Promise<boolean> {
  const { McpLoginRequiredError } = await import("../mcp/oauth/provider.js");
  return err instanceof McpLoginRequiredError;
}

/** Removes the stored tokens; false when there were none. */
export async function logoutMcpServer(name: string, server: McpHttpServer, env: NodeJS.ProcessEnv): Promise<boolean> {
  return (await import("../mcp/oauth/login.js")).logoutMcpServer(name, server, env);
}

export type { McpSignInRequest } from "../mcp/sign-in.js";

/** Opens a URL in $BROWSER, else the system's opener; false when nothing could be started. */
export async function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return (await import("../mcp/oauth/browser.js")).openInBrowser(url, env);
}
