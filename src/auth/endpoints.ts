/**
 * Where ChatGPT sign-in and refresh go. The client id, issuer, paths and the refresh override
 * variable are the reference's; CODEX_TS_LOGIN_ISSUER is ours (the reference has no knob for
 * the issuer), so tests and proxies can point sign-in at another server.
 */

/** The OAuth client the reference registers for its CLI; the issuer only accepts its redirects. */
export const CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
export const DEFAULT_ISSUER = "https://auth.openai.com";
export const ISSUER_ENV_VAR = "CODEX_TS_LOGIN_ISSUER";
export const REFRESH_URL_OVERRIDE_ENV_VAR = "CODEX_REFRESH_TOKEN_URL_OVERRIDE";
export const REVOKE_URL_OVERRIDE_ENV_VAR = "CODEX_REVOKE_TOKEN_URL_OVERRIDE";
/** The reference's default `chatgpt_base_url`; model requests go to `<it>/codex/responses`. */
export const DEFAULT_CHATGPT_BASE_URL = "https://chatgpt.com/backend-api/";

export function issuerUrl(env: NodeJS.ProcessEnv): string {
  return (env[ISSUER_ENV_VAR]?.trim() || DEFAULT_ISSUER).replace(/\/+$/, "");
}

/** The token endpoint the authorization code is exchanged at. */
export function tokenUrl(env: NodeJS.ProcessEnv): string {
  return `${issuerUrl(env)}/oauth/token`;
}

/** The token endpoint refreshes go to: the override when set, else the issuer's. */
export function refreshUrl(env: NodeJS.ProcessEnv): string {
  return env[REFRESH_URL_OVERRIDE_ENV_VAR]?.trim() || tokenUrl(env);
}

/**
 * Where `logout` revokes tokens: the override when set, else `/oauth/revoke` on the refresh
 * override's server (as the reference derives it), else the issuer's.
 */
export function revokeUrl(env: NodeJS.ProcessEnv): string {
  const explicit = env[REVOKE_URL_OVERRIDE_ENV_VAR]?.trim();
  if (explicit) return explicit;
  const refresh = env[REFRESH_URL_OVERRIDE_ENV_VAR]?.trim();
  if (refresh) {
    try {
      const url = new URL(refresh);
      return `${url.origin}/oauth/revoke`;
    } catch {
      // Not a URL: fall back to the issuer.
    }
  }
  return `${issuerUrl(env)}/oauth/revoke`;
}
