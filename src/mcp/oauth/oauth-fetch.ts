/**
 * The `fetch` an OAuth-capable streamable HTTP transport uses. It puts the stored access token
 * on every request and refreshes it shortly before it expires. Then, per request:
 *
 * - 401: the token is missing, expired or revoked. `auth()` refreshes it when it can; otherwise
 *   the user has to sign in: with an authorize handler (login, or a front end that can open a
 *   browser) that happens now, scopes taken from the challenge; without one the request fails
 *   with `McpLoginRequiredError`. The request is then sent once more.
 * - 403 with `error="insufficient_scope"`: the token is good but too narrow. One step-up: a new
 *   authorization for the scopes already granted plus the ones the challenge names (never a
 *   refresh, which would only renew the narrow grant), then the request once more. A second
 *   403 goes back to the caller as it is, so a server that keeps asking cannot loop us. Without
 *   a handler the error names the `codex-ts mcp login … --scopes` command to run.
 *
 * We wrap fetch instead of handing the transport an `authProvider` because the transport's own
 * handling can neither wait for a browser round trip nor step up past a refresh token.
 */
import { auth, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CodexOAuthProvider, McpLoginRequiredError, splitScopes } from "./provider.js";
import { REFRESH_SKEW_MS } from "./store.js";

export interface OAuthFetchOptions {
  server: string;
  serverUrl: URL;
  provider: CodexOAuthProvider;
  /** Scopes asked for on top of what the server's challenge names (`--scopes`, `scopes`). */
  extraScopes?: string[];
  /** The `resource` parameter to send instead of the metadata's (`oauth_resource`). */
  resource?: string;
  base?: FetchLike;
}

export interface OAuthFetch {
  fetch: FetchLike;
  /** A new authorization now, whatever is stored (what `mcp login` does with the server's 401 challenge). */
  authorizeNow: (scope?: string, resourceMetadataUrl?: URL) => Promise<void>;
}

export function createOAuthFetch(opts: OAuthFetchOptions): OAuthFetch {
  const base: FetchLike = opts.base ?? ((url, init) => fetch(url, init));
  const { provider } = opts;
  let resourceMetadataUrl: URL | undefined;
  // One authorization at a time: concurrent 401s share it.
  let running: Promise<void> | undefined;

  const withResource: FetchLike = opts.resource
    ? (url, init) => base(url, overrideResource(init, opts.resource as string))
    : base;

  const runAuth = async (scope: string | undefined, forceNew: boolean): Promise<void> => {
    provider.hideRefreshToken = forceNew;
    try {
      const options = { serverUrl: opts.serverUrl, ...(scope ? { scope } : {}), ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), fetchFn: withResource };
      const first = await auth(provider, options);
      if (first === "AUTHORIZED") return;
      const authorizationCode = await provider.takeAuthorizationCode();
      const second = await auth(provider, { ...options, authorizationCode });
      if (second !== "AUTHORIZED") throw new Error(`authorization with MCP server '${opts.server}' did not complete`);
    } finally {
      provider.hideRefreshToken = false;
    }
  };

  const serialized = (work: () => Promise<void>): Promise<void> => {
    const next = (running ?? Promise.resolve()).catch(() => undefined).then(work);
    running = next;
    return next;
  };

  const scopeFor = (challenge: string | undefined, keepGranted: boolean): string | undefined => {
    const wanted = [...(keepGranted ? provider.grantedScopes : []), ...splitScopes(challenge), ...(opts.extraScopes ?? [])];
    const unique = [...new Set(wanted)];
    return unique.length > 0 ? unique.join(" ") : undefined;
  };

  const send = async (url: string | URL, init: RequestInit | undefined): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const token = provider.accessToken;
    if (token !== undefined) headers.set("Authorization", `Bearer ${token}`);
    return base(url, { ...init, headers });
  };

  const refreshIfExpiring = async (): Promise<void> => {
    const at = provider.expiresAtMs;
    if (at === null || Date.now() + REFRESH_SKEW_MS < at || !provider.canRefresh) return;
    // auth() refreshes when it holds a refresh token; a refresh the server refuses falls through
    // to a new authorization (or McpLoginRequiredError without a handler).
    await serialized(() => runAuth(undefined, false));
  };

  const oauthFetch: FetchLike = async (url, init) => {
    await refreshIfExpiring();
    let response = await send(url, init);
    if (response.status === 401) {
      const challenge = extractWWWAuthenticateParams(response);
      if (challenge.resourceMetadataUrl) resourceMetadataUrl = challenge.resourceMetadataUrl;
      await response.body?.cancel();
      if (provider.accessToken === undefined && !provider.authorize) throw new McpLoginRequiredError(opts.server);
      const tokenBefore = provider.accessToken;
      await serialized(async () => {
        // Another request may have renewed the token while this one waited.
        if (provider.accessToken !== tokenBefore && provider.accessToken !== undefined) return;
        await runAuth(scopeFor(challenge.scope, false), false);
      });
      response = await send(url, init);
    }
    // At most one step-up per request, even right after a 401's authorization.
    if (response.status === 403) {
      const challenge = extractWWWAuthenticateParams(response);
      if (challenge.error !== "insufficient_scope") return response;
      if (challenge.resourceMetadataUrl) resourceMetadataUrl = challenge.resourceMetadataUrl;
      const scope = scopeFor(challenge.scope, true);
      await response.body?.cancel();
      if (!provider.authorize) throw new McpLoginRequiredError(opts.server, splitScopes(scope));
      await serialized(() => runAuth(scope, true));
      response = await send(url, init);
    }
    return response;
  };

  return {
    fetch: oauthFetch,
    authorizeNow: (scope, metadataUrl) => {
      if (metadataUrl) resourceMetadataUrl = metadataUrl;
      return serialized(() => runAuth(scopeFor(scope, false), true));
    },
  };
}

/** Sets the `resource` parameter of a token request (a code exchange or a refresh). */
function overrideResource(init: RequestInit | undefined, resource: string): RequestInit | undefined {
  if (!(init?.body instanceof URLSearchParams) || !init.body.has("grant_type")) return init;
  const body = new URLSearchParams(init.body);
  body.set("resource", resource);
  return { ...init, body };
}
