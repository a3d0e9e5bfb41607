/**
 * Which credentials a run uses, in the reference's order:
 *
 * 1. CODEX_API_KEY (exec only), whatever else is saved;
 * 2. for the built-in `openai` provider, a ChatGPT login in auth.json, unless
 *    `forced_login_method = "api"`, or `preferred_auth_method = "apikey"` and a key is at hand;
 * 3. the provider's env_key (OPENAI_API_KEY for `openai`);
 * 4. the key saved in auth.json (`openai` only).
 *
 * `forced_login_method = "chatgpt"` refuses every API key. Empty or blank variables count as
 * unset and values are trimmed. Credentials go to the model client and nowhere else: they are
 * never copied into process.env, so commands the model runs cannot inherit them.
 */
import { readAuthFile, type ChatgptLogin } from "./auth-file.js";
import { idTokenClaims } from "./jwt.js";

export const CODEX_API_KEY_ENV_VAR = "CODEX_API_KEY";

/** What resolution needs to know about the model provider. */
export interface ProviderAuthInfo {
  id: string;
  /** Environment variable holding the provider's key; null for providers that need none. */
  envKey: string | null;
}

/** config.toml's `forced_login_method`, `preferred_auth_method` and `forced_chatgpt_workspace_id`. */
export interface LoginPolicy {
  forcedLoginMethod: "chatgpt" | "api" | null;
  preferredAuthMethod: "chatgpt" | "apikey" | null;
  /** The ChatGPT workspaces (account ids) a login must belong to; null allows any. */
  forcedWorkspaceIds?: string[] | null;
}

export const NO_LOGIN_POLICY: LoginPolicy = { forcedLoginMethod: null, preferredAuthMethod: null };

export type ResolvedAuth =
  /** `source` names where the key came from: a variable, or "auth.json". */
  | { mode: "api-key"; apiKey: string; source: string }
  | { mode: "chatgpt"; login: ChatgptLogin }
  | { mode: "none" };

/** The configured login method forbids the credentials that are there; the message says what to do. */
export class LoginPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LoginPolicyError";
  }
}

/** Throws AuthFileError for an unusable auth.json and LoginPolicyError for a forbidden method. */
export function resolveAuth(
  provider: ProviderAuthInfo,
  codexHome: string,
  env: NodeJS.ProcessEnv,
  allowCodexApiKey: boolean,
  policy: LoginPolicy = NO_LOGIN_POLICY,
): ResolvedAuth {
  const forced = policy.forcedLoginMethod;
  const codexKey = allowCodexApiKey ? nonBlank(env[CODEX_API_KEY_ENV_VAR]) : null;
  if (codexKey) {
    if (forced === "chatgpt") throw new LoginPolicyError(`forced_login_method = "chatgpt" allows only a ChatGPT login, but ${CODEX_API_KEY_ENV_VAR} is set. Unset it and sign in with \`codex-ts login\`.`);
    return { mode: "api-key", apiKey: codexKey, source: CODEX_API_KEY_ENV_VAR };
  }
  const envKey = provider.envKey ? nonBlank(env[provider.envKey]) : null;
  if (provider.id !== "openai") return envKey && provider.envKey ? { mode: "api-key", apiKey: envKey, source: provider.envKey } : { mode: "none" };

  const saved = readAuthFile(codexHome);
  if (saved?.kind === "chatgpt" && forced !== "api") {
    const preferKey = policy.preferredAuthMethod === "apikey" && forced !== "chatgpt";
    if (!(preferKey && (envKey ?? saved.apiKey))) {
      checkWorkspace(saved, policy.forcedWorkspaceIds ?? null);
      return { mode: "chatgpt", login: saved };
    }
  }
  if (forced === "chatgpt") {
    throw new LoginPolicyError('forced_login_method = "chatgpt" allows only a ChatGPT login. Sign in with `codex-ts login`.');
  }
  if (envKey && provider.envKey) return { mode: "api-key", apiKey: envKey, source: provider.envKey };
  if (saved?.kind === "api-key") return { mode: "api-key", apiKey: saved.apiKey, source: "auth.json" };
  if (saved?.kind === "chatgpt") {
    if (saved.apiKey) return { mode: "api-key", apiKey: saved.apiKey, source: "auth.json" };
    throw new LoginPolicyError(
      'forced_login_method = "api" allows only an API key, but auth.json holds a ChatGPT login. Save a key with `printenv OPENAI_API_KEY | codex-ts login --with-api-key`.',
    );
  }
  return { mode: "none" };
}

/** The policy config.toml sets: unknown values are ignored (the schema check reports them). */
export function loginPolicyFrom(toml: Record<string, unknown>): LoginPolicy {
  const forced = toml.forced_login_method;
  const preferred = toml.preferred_auth_method;
  const workspaces = toml.forced_chatgpt_workspace_id;
  const ids = typeof workspaces === "string" ? [workspaces] : Array.isArray(workspaces) ? workspaces.filter((w): w is string => typeof w === "string") : [];
  return {
    forcedLoginMethod: forced === "chatgpt" || forced === "api" ? forced : null,
    preferredAuthMethod: preferred === "chatgpt" || preferred === "apikey" ? preferred : null,
    forcedWorkspaceIds: ids.length > 0 ? ids : null,
  };
}

/** `forced_chatgpt_workspace_id`: the login's account (from its id token) must be one of these. */
function checkWorkspace(login: ChatgptLogin, allowed: string[] | null): void {
  if (!allowed) return;
  const actual = idTokenClaims(login.tokens.id_token).accountId;
  if (actual && allowed.includes(actual)) return;
  const where = actual ? `belongs to workspace ${actual}` : "names no workspace";
  throw new LoginPolicyError(`forced_chatgpt_workspace_id allows only workspace ${allowed.join(", ")}, but the saved ChatGPT login ${where}. Sign in again with \`codex-ts login\` using an allowed workspace.`);
}

function nonBlank(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** Whether this provider can work without credentials (local servers such as Ollama need none). */
export function providerNeedsKey(provider: ProviderAuthInfo): boolean {
  return provider.envKey !== null;
}
