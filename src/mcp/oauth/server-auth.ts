/**
 * Whether a streamable HTTP server is dialled with OAuth, and the pieces that do it. A server
 * with a static credential (`bearer_token_env_var`, or an `Authorization` header of its own)
 * never is; any other HTTP server gets the OAuth fetch, which costs nothing until the server
 * answers 401, and uses stored tokens when there are some.
 */
import { codexHome } from "../../config/codex-home.js";
import type { McpHttpServer } from "../../config/mcp.js";
import { createOAuthFetch, type OAuthFetch } from "./oauth-fetch.js";
import { type AuthorizeHandler, type ClientRegistration, CodexOAuthProvider } from "./provider.js";
import { OAuthCredentialsStore } from "./store.js";

/** A redirect URI for sessions: they never start an authorization, but the SDK wants one to exist. */
const SESSION_REDIRECT_URL = "http://127.0.0.1/callback";

export interface ServerAuthOptions {
  env: NodeJS.ProcessEnv;
  /** The front end can send the user to a URL and bring the code back (login, a TUI). */
  authorize?: AuthorizeHandler;
  redirectUrl?: string;
  /** Scopes asked for besides the server's (`--scopes`); defaults to the configured `scopes`. */
  scopes?: string[];
  registration?: ClientRegistration;
}

export interface ServerAuth extends OAuthFetch {
  provider: CodexOAuthProvider;
  store: OAuthCredentialsStore;
}

export function credentialsStore(config: McpHttpServer, env: NodeJS.ProcessEnv): OAuthCredentialsStore {
  return new OAuthCredentialsStore(codexHome(env), config.oauth_credentials_store);
}

export function serverAuth(server: string, config: McpHttpServer, opts: ServerAuthOptions): ServerAuth {
  const store = credentialsStore(config, opts.env);
  const scopes = opts.scopes ?? config.scopes;
  const provider = new CodexOAuthProvider({
    server,
    config,
    store,
    redirectUrl: opts.redirectUrl ?? SESSION_REDIRECT_URL,
    scopes,
    ...(opts.authorize ? { authorize: opts.authorize } : {}),
    ...(opts.registration ? { registration: opts.registration } : {}),
  });
  const oauth = createOAuthFetch({
    server,
    serverUrl: new URL(config.url),
    provider,
    extraScopes: scopes,
    ...(config.oauth_resource !== null ? { resource: config.oauth_resource } : {}),
  });
  return { ...oauth, provider, store };
}
