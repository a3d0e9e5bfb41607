/**
 * Signing in to a streamable HTTP MCP server, and signing out. `loginMcpServer` is what
 * `codex-ts mcp login` runs and what a front end (the TUI) can call: it asks the server without
 * credentials to read its 401 challenge (at `initialize`, or at `tools/list` for a server that
 * lets `initialize` through), then runs a fresh authorization through the
 * MCP SDK (discovery, registration or the configured client, PKCE, the scopes the challenge or
 * the metadata name plus `--scopes`), with the browser and a local callback server standing in
 * for the user agent. The tokens land in the credentials store.
 */
import { createInterface } from "node:readline";
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import type { McpHttpServer } from "../../config/mcp.js";
import { httpServerHeaders } from "../connection.js";
import { openInBrowser } from "./browser.js";
import { DEFAULT_CALLBACK_TIMEOUT_MS, startCallbackServer } from "./callback-server.js";
import type { ClientRegistration } from "./provider.js";
import { callbackAddress } from "./redirect.js";
import { credentialsStore, serverAuth } from "./server-auth.js";

export class McpLoginError extends Error {}

export interface LoginOptions {
  env: NodeJS.ProcessEnv;
  /** Scopes to ask for besides the server's; defaults to the configured `scopes`. */
  scopes?: string[];
  /** Where the URL and progress are shown. */
  out: (text: string) => void;
  err: (text: string) => void;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
  /** Opens the URL; the default honours $BROWSER, then the platform's opener. */
  openUrl?: (url: string) => Promise<boolean>;
  /** `--oauth-client-registration`, for a server without a configured client. */
  registration?: ClientRegistration;
  /**
   * `--no-browser`: lines typed here may be the redirect pasted from the browser's address bar,
   * for a browser on another machine (an SSH session) whose redirect cannot reach this one.
   */
  pastedRedirects?: NodeJS.ReadableStream;
}

/** Resolves when the server's tokens are stored; throws McpLoginError (or the flow's error) otherwise. */
export async function loginMcpServer(server: string, config: McpHttpServer, opts: LoginOptions): Promise<void> {
  if (opts.registration === "cimd" && config.oauth.client_id === null && config.oauth_client_metadata_url === null) {
    throw new McpLoginError("--oauth-client-registration cimd needs mcp_oauth_client_metadata_url (the https URL of your client ID metadata document)");
  }
  const challenge = await readChallenge(server, config, opts.env);
  const callback = await startCallbackServer(callbackAddress(config), opts.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS);
  const pasted = opts.pastedRedirects ? createInterface({ input: opts.pastedRedirects, terminal: false }) : null;
  pasted?.on("line", (line) => {
    if (line.trim() !== "" && !callback.deliverPasted(line)) opts.err("That is not the redirect codex-ts waits for; paste the whole address the browser was sent to.\n");
  });
  try {
    const open = opts.openUrl ?? ((url: string) => openInBrowser(url, opts.env));
    const authFlow = serverAuth(server, config, {
      env: opts.env,
      redirectUrl: callback.redirectUrl,
      ...(opts.scopes ? { scopes: opts.scopes } : {}),
      ...(opts.registration ? { registration: opts.registration } : {}),
      authorize: async (url) => {
        opts.out(`Authorize \`${server}\` by opening this URL in your browser:\n${url.href}\n\n`);
        if (!(await open(url.href))) opts.err("(Browser launch failed; please copy the URL above manually.)\n");
        return callback.waitForCode(url.searchParams.get("state") ?? undefined);
      },
    });
    await authFlow.authorizeNow(challenge.scope, challenge.resourceMetadataUrl);
    if (authFlow.provider.accessToken === undefined) throw new McpLoginError(`MCP server '${server}' returned no access token`);
  } finally {
    pasted?.close();
    await callback.close();
  }
}

/** Removes the stored tokens; false when there were none. */
export function logoutMcpServer(server: string, config: McpHttpServer, env: NodeJS.ProcessEnv): boolean {
  return credentialsStore(config, env).delete(server, config.url);
}

interface Challenge {
  scope?: string;
  resourceMetadataUrl?: URL;
}

/**
 * What the server says without credentials. Most OAuth servers answer the `initialize` itself
 * with a 401 naming their metadata; some let `initialize` through and ask only from the next
 * request on (`tools/list`), so when `initialize` succeeds the session it opened is asked for
 * its tools too, and that challenge is the one used.
 */
async function readChallenge(server: string, config: McpHttpServer, env: NodeJS.ProcessEnv): Promise<Challenge> {
  const headers: Record<string, string> = {
    ...httpServerHeaders(server, { ...config, bearer_token_env_var: null }, env),
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
  };
  const post = async (body: unknown, extra: Record<string, string> = {}): Promise<Response> => {
    try {
      return await fetch(config.url, { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      throw new McpLoginError(`cannot reach MCP server '${server}' at ${config.url}: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`);
    }
  };
  const initialize = await post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "codex-mcp-client", version: "0" } },
  });
  await initialize.body?.cancel();
  if (initialize.status === 401) return challengeOf(initialize);
  if (!initialize.ok) throw new McpLoginError(`MCP server '${server}' answered HTTP ${initialize.status} instead of an OAuth challenge.`);
  const session = initialize.headers.get("mcp-session-id");
  const sessionHeaders: Record<string, string> = { "mcp-protocol-version": LATEST_PROTOCOL_VERSION, ...(session !== null ? { "mcp-session-id": session } : {}) };
  const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionHeaders);
  await initialized.body?.cancel();
  const list = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, sessionHeaders);
  await list.body?.cancel();
  if (session !== null) {
    // The probe's session is of no further use; servers that do not allow DELETE just say so.
    await fetch(config.url, { method: "DELETE", headers: { ...headers, ...sessionHeaders }, signal: AbortSignal.timeout(5_000) }).then((r) => r.body?.cancel(), () => undefined);
  }
  if (list.status === 401) return challengeOf(list);
  if (list.ok) throw new McpLoginError(`MCP server '${server}' does not ask for a login: it answered without credentials.`);
  throw new McpLoginError(`MCP server '${server}' answered HTTP ${list.status} instead of an OAuth challenge.`);
}

function challengeOf(response: Response): Challenge {
  const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
  return { ...(scope ? { scope } : {}), ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) };
}
