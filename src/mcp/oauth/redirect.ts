/**
 * Where the browser comes back after an MCP sign-in, as the reference (0.169) decides it:
 *
 * - each server gets its own path, `/callback/<id>`, the id being the first 12 base64url
 *   characters of the SHA-256 of the server's URL (stable across logins, so a pre-registered
 *   client can register it once, and the same for every server name that shares a URL);
 * - a pre-registered client's `[mcp_servers.NAME.oauth] callback_url` is used exactly as written;
 *   `mcp_oauth_callback_url` (top level) is a base the id is appended to; otherwise
 *   `http://127.0.0.1:<port>/callback/<id>`;
 * - a loopback redirect URI without a port gets the listener's port (another host, a proxy in
 *   front of the listener, keeps its default port).
 *
 * The listener always binds 127.0.0.1: on `mcp_oauth_callback_port`, else (our choice, where the
 * reference picks a free port the URL does not name) the port a loopback callback URL names,
 * else a free port.
 */
import { createHash } from "node:crypto";
import type { McpHttpServer } from "../../config/mcp.js";

export interface CallbackAddress {
  /** The port to listen on; null: any free port. */
  listenPort: number | null;
  /** The redirect URI, once the listener's port is known. */
  redirectUrl: (boundPort: number) => string;
}

/** The per-server path segment: derived from the URL only, so a login never changes it. */
export function callbackId(serverUrl: string): string {
  return createHash("sha256").update(serverUrl).digest("base64url").slice(0, 12);
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function callbackAddress(config: Pick<McpHttpServer, "url" | "oauth" | "oauth_callback_port" | "oauth_callback_url">): CallbackAddress {
  const id = callbackId(config.url);
  const configured = config.oauth.callback_url ?? (config.oauth_callback_url !== null ? joinPath(config.oauth_callback_url, id) : null);
  if (configured === null) {
    return { listenPort: config.oauth_callback_port, redirectUrl: (port) => `http://127.0.0.1:${port}/callback/${id}` };
  }
  let parsed: URL;
  try {
    parsed = new URL(configured);
  } catch {
    throw new Error(`the OAuth callback URL '${configured}' is not a valid URL (mcp_oauth_callback_url or oauth.callback_url)`);
  }
  const namedPort = parsed.port !== "" && LOOPBACK_HOSTS.has(parsed.hostname) ? Number(parsed.port) : null;
  return {
    listenPort: config.oauth_callback_port ?? namedPort,
    redirectUrl: (port) => {
      const url = new URL(parsed.href);
      if (url.port === "" && LOOPBACK_HOSTS.has(url.hostname)) url.port = String(port);
      return url.href;
    },
  };
}

function joinPath(base: string, id: string): string {
  return `${base.replace(/\/+$/, "")}/${id}`;
}
