/**
 * Our side of the MCP SDK's OAuth client (`OAuthClientProvider`): one per server and process.
 * The SDK's `auth()` does the protocol (discovery, registration, PKCE, the token requests with
 * the `resource` parameter and the client's auth method); this class keeps what it produces and
 * writes it to the credentials store whenever there are tokens, so every later session of the
 * server starts logged in.
 *
 * Sending the user to the authorization server is the caller's business: with an `authorize`
 * handler (the `mcp login` command's browser and callback server, or a test's scripted GET) the
 * URL goes to it and the code it brings back is kept for the second `auth()` call; without one
 * (a session) a needed authorization ends in `McpLoginRequiredError`, which tells the user to
 * run `codex-ts mcp login`.
 */
import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpHttpServer } from "../../config/mcp.js";
import type { OAuthCredentialsStore, StoredOAuthEntry } from "./store.js";

/**
 * How a login obtains its client when none is configured (`--oauth-client-registration`):
 * `auto` a client ID metadata document where configured and accepted, else dynamic
 * registration; `cimd` the metadata document only; `dcr` dynamic registration only.
 */
export type ClientRegistration = "auto" | "cimd" | "dcr";

/** Sends the user to `url`; resolves with the authorization code the redirect brought back. */
export type AuthorizeHandler = (url: URL) => Promise<string>;

/** A server that needs a (new) login, which a session cannot do by itself. */
export class McpLoginRequiredError extends Error {
  constructor(
    readonly server: string,
    readonly scopes: string[] = [],
  ) {
    super(
      scopes.length > 0
        ? `MCP server '${server}' needs more access (scopes: ${scopes.join(" ")}). Run \`codex-ts mcp login ${server} --scopes ${scopes.join(",")}\`.`
        : `The ${server} MCP server is not logged in. Run \`codex-ts mcp login ${server}\`.`,
    );
    this.name = "McpLoginRequiredError";
  }
}

/** What we register as (dynamic registration) and show the user on the consent page. */
export const CLIENT_NAME = "Codex";

export interface ProviderOptions {
  server: string;
  config: McpHttpServer;
  store: OAuthCredentialsStore;
  /** Where the authorization server sends the browser back; needed before the flow starts. */
  redirectUrl: string;
  authorize?: AuthorizeHandler;
  /** Scopes asked for when neither the server's challenge nor its metadata name any. */
  scopes?: string[];
  registration?: ClientRegistration;
}

export class CodexOAuthProvider implements OAuthClientProvider {
  private client: OAuthClientInformationMixed | undefined;
  private current: OAuthTokens | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private pendingCode: Promise<string> | undefined;
  private expectedState: string | undefined;
  /** Set while a step-up runs: the refresh token is hidden so `auth()` asks the user again instead of refreshing the old grant. */
  hideRefreshToken = false;
  authorize: AuthorizeHandler | undefined;

  constructor(private readonly opts: ProviderOptions) {
    this.authorize = opts.authorize;
    const stored = opts.store.load(opts.server, opts.config.url);
    const configured = opts.config.oauth;
    if (configured.client_id !== null) {
      this.client = {
        client_id: configured.client_id,
        ...(configured.client_secret !== null ? { client_secret: configured.client_secret } : {}),
        ...(configured.token_endpoint_auth_method !== null ? { token_endpoint_auth_method: configured.token_endpoint_auth_method } : {}),
        ...(stored?.client_id === configured.client_id && stored.issuer ? { issuer: stored.issuer } : {}),
      };
    } else if (stored && (opts.registration ?? "auto") === "auto") {
      // A login that asks for a registration strategy gets a new client that way.
      this.client = {
        client_id: stored.client_id,
        ...(stored.client_secret ? { client_secret: stored.client_secret } : {}),
        ...(stored.token_endpoint_auth_method ? { token_endpoint_auth_method: stored.token_endpoint_auth_method } : {}),
        ...(stored.issuer ? { issuer: stored.issuer } : {}),
      };
    }
    if (stored && (configured.client_id === null || configured.client_id === stored.client_id)) this.current = tokensOf(stored);
  }

  get redirectUrl(): string {
    return this.opts.redirectUrl;
  }

  /** Used by `auth()` as the client id when the authorization server takes URL ids (CIMD). */
  get clientMetadataUrl(): string | undefined {
    if (this.opts.registration === "dcr") return undefined;
    return this.opts.config.oauth_client_metadata_url ?? undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const method = this.opts.config.oauth.token_endpoint_auth_method ?? "none";
    const scopes = this.opts.scopes ?? [];
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.opts.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: method,
      ...(scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
    };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString("base64url");
    return this.expectedState;
  }

  /** The state sent with the last authorization request, to check the callback against. */
  get lastState(): string | undefined {
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    if (this.opts.registration === "cimd" && info.client_id !== this.clientMetadataUrl) {
      // auth() registered dynamically because the authorization server takes no URL client ids.
      throw new Error(`the authorization server of MCP server '${this.opts.server}' does not accept client ID metadata documents (--oauth-client-registration cimd)`);
    }
    this.client = info;
    this.persist();
  }

  tokens(): OAuthTokens | undefined {
    if (!this.current) return undefined;
    if (!this.hideRefreshToken) return this.current;
    const { refresh_token: _hidden, ...rest } = this.current;
    return rest;
  }

  saveTokens(tokens: OAuthTokens): void {
    // A refresh may answer without a new refresh token: the old one stays good.
    const refresh = tokens.refresh_token ?? this.current?.refresh_token;
    this.current = { ...tokens, ...(refresh !== undefined ? { refresh_token: refresh } : {}), expires_at_ms: expiresAt(tokens) } as OAuthTokens;
    this.persist();
  }

  /** The access token, its scopes and when it expires (null: unknown). */
  get accessToken(): string | undefined {
    return this.current?.access_token;
  }

  get grantedScopes(): string[] {
    return splitScopes(this.current?.scope);
  }

  get expiresAtMs(): number | null {
    return expiresAtOf(this.current);
  }

  get canRefresh(): boolean {
    return (this.current?.refresh_token ?? "") !== "";
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (!this.authorize) throw new McpLoginRequiredError(this.opts.server, splitScopes(authorizationUrl.searchParams.get("scope") ?? undefined));
    const resource = this.opts.config.oauth_resource;
    if (resource !== null) authorizationUrl.searchParams.set("resource", resource);
    this.pendingCode = this.authorize(authorizationUrl);
    // Read later by takeAuthorizationCode; keep an early failure from being reported as unhandled.
    this.pendingCode.catch(() => undefined);
  }

  /** The code the last redirect brought back. */
  async takeAuthorizationCode(): Promise<string> {
    const pending = this.pendingCode;
    this.pendingCode = undefined;
    if (!pending) throw new Error("no authorization is in progress");
    return pending;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("no PKCE code verifier was saved for this authorization");
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
    // Tokens written by the reference (or an older codex-ts) carry no issuer; bind them to the
    // authorization server found now, as the SDK binds an unstamped client, so it neither
    // warns about them nor treats them as another server's.
    if (this.current && this.current.issuer == null) this.current = { ...this.current, issuer: state.authorizationServerUrl };
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") this.current = undefined;
    if (scope === "all" || scope === "client") {
      // A client from config cannot be re-registered; keep it.
      if (this.opts.config.oauth.client_id === null) this.client = undefined;
    }
    if (scope === "all" || scope === "verifier") this.verifier = undefined;
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
    if (scope === "all" || scope === "tokens") this.opts.store.delete(this.opts.server, this.opts.config.url);
  }

  /** Writes client and tokens together; nothing is stored before there are tokens. */
  private persist(): void {
    const tokens = this.current;
    const client = this.client;
    if (!tokens || !client) return;
    const entry: StoredOAuthEntry = {
      server_name: this.opts.server,
      server_url: this.opts.config.url,
      client_id: client.client_id,
      access_token: tokens.access_token,
      expires_at: expiresAtOf(tokens),
      refresh_token: tokens.refresh_token ?? null,
      scopes: splitScopes(tokens.scope),
      ...(client.client_secret ? { client_secret: client.client_secret } : {}),
      ...("token_endpoint_auth_method" in client && typeof client.token_endpoint_auth_method === "string"
        ? { token_endpoint_auth_method: client.token_endpoint_auth_method }
        : {}),
      ...(typeof tokens.issuer === "string" ? { issuer: tokens.issuer } : typeof client.issuer === "string" ? { issuer: client.issuer } : {}),
      token_type: tokens.token_type,
    };
    this.opts.store.save(entry);
  }
}

export function splitScopes(scope: string | undefined | null): string[] {
  return (scope ?? "").split(" ").filter((s) => s !== "");
}

/** Tokens as the SDK reads them, from a stored entry. */
function tokensOf(entry: StoredOAuthEntry): OAuthTokens {
  const tokens: OAuthTokens & { expires_at_ms?: number } = { access_token: entry.access_token, token_type: entry.token_type ?? "Bearer" };
  if (entry.refresh_token) tokens.refresh_token = entry.refresh_token;
  if (entry.scopes.length > 0) tokens.scope = entry.scopes.join(" ");
  if (entry.issuer) tokens.issuer = entry.issuer;
  if (entry.expires_at !== null) {
    tokens.expires_at_ms = entry.expires_at;
    tokens.expires_in = Math.max(0, Math.floor((entry.expires_at - Date.now()) / 1000));
  }
  return tokens;
}

function expiresAt(tokens: OAuthTokens): number | undefined {
  return typeof tokens.expires_in === "number" ? Date.now() + tokens.expires_in * 1000 : undefined;
}

function expiresAtOf(tokens: OAuthTokens | undefined): number | null {
  const at = (tokens as { expires_at_ms?: unknown } | undefined)?.expires_at_ms;
  return typeof at === "number" ? at : null;
}
