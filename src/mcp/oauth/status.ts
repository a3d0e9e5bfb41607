/**
 * A server's auth status as `mcp list` / `mcp get` show it, with the reference's values: a stdio
 * server is `unsupported`; an HTTP server with a static credential is `bearer_token`; one with
 * stored OAuth tokens is `o_auth` (`not_logged_in` when they are expired with no refresh token); otherwise we look for OAuth metadata (the MCP SDK's discovery:
 * protected-resource metadata, then the authorization server's, with the older fallbacks,
 * bounded by a few seconds): found means `not_logged_in`, anything else `unsupported`.
 */
import { discoverOAuthServerInfo } from "@modelcontextprotocol/sdk/client/auth.js";
import { hasStaticCredential, type McpServerConfig } from "../../config/mcp.js";
import type { McpAuthStatus } from "./auth-status-text.js";
import { credentialsStore } from "./server-auth.js";
import { entryUsable } from "./store.js";

const DISCOVERY_TIMEOUT_MS = 5_000;

export async function mcpAuthStatus(server: string, config: McpServerConfig, env: NodeJS.ProcessEnv): Promise<McpAuthStatus> {
  if (config.transport === "stdio") return "unsupported";
  const authorizationFromEnv = Object.entries(config.env_http_headers).some(
    ([header, variable]) => header.toLowerCase() === "authorization" && (env[variable] ?? "").trim() !== "",
  );
  if (hasStaticCredential(config) || authorizationFromEnv) return "bearer_token";
  const stored = credentialsStore(config, env).load(server, config.url);
  // Tokens that are past use (expired, nothing to refresh them with) mean a new login.
  if (stored) return entryUsable(stored) ? "o_auth" : "not_logged_in";
  return (await oauthSupport(config.url)) === "supported" ? "not_logged_in" : "unsupported";
}

/** Whether the server publishes OAuth metadata; `unknown` when nothing answered (unreachable, too slow). */
export async function oauthSupport(serverUrl: string): Promise<"supported" | "unsupported" | "unknown"> {
  // The SDK's discovery takes a failed request for "no metadata there", so count the answers.
  let answered = 0;
  try {
    const signal = AbortSignal.timeout(DISCOVERY_TIMEOUT_MS);
    const info = await discoverOAuthServerInfo(serverUrl, {
      fetchFn: async (url, init) => {
        const response = await fetch(url, { ...init, signal });
        answered++;
        return response;
      },
    });
    if (info.authorizationServerMetadata?.authorization_endpoint) return "supported";
  } catch {
    // An answer that could not be used: no OAuth we can work with.
  }
  return answered > 0 ? "unsupported" : "unknown";
}
