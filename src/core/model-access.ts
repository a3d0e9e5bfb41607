/**
 * How a thread reaches its model, worked out in one place when it opens: the credentials (an API
 * key, a ChatGPT login, or none), the provider they imply, the model client for its wire, and for
 * a ChatGPT login the account's model list, which may settle the model. An API key is a bearer
 * header. A ChatGPT login sends requests to the Codex backend instead (`chatgpt_base_url` +
 * `/codex`, as the reference does for such accounts, unless `openai_base_url` names another
 * server) with the refreshing bearer token and the account id (the built-in provider already
 * sends `version`).
 */
import type { Config } from "../config/load-config.js";
import { OPENAI_DEFAULT_BASE_URL, providerHeaders, type ModelProvider } from "../model/provider.js";
import type { ModelClient } from "../model/prompt.js";
import { ResponsesClient, type ClientIdentity } from "../model/responses-client.js";
import { DEFAULT_CHATGPT_BASE_URL } from "../auth/endpoints.js";
import { AuthFileError } from "../auth/auth-file.js";
import { ChatGptCredentials } from "../auth/chatgpt-credentials.js";
import { loginPolicyFrom, LoginPolicyError, resolveAuth, type ResolvedAuth } from "../auth/resolve-auth.js";
import { packageVersion } from "../util/version.js";
import { accountModels, settleModel, type AccountModel } from "./account-models.js";

/** What a thread opens with: its model client, the config as the account settled it, and the account's models. */
export interface ModelAccess {
  client: ModelClient;
  /** The config, with the model the account's list picked when the user chose none. */
  config: Config;
  /** The account's models (a ChatGPT login), or null: only the built-in catalog is known. */
  accountModels: AccountModel[] | null;
  /** Said once as the thread starts (a model the account does not list). */
  warning: string | null;
}

/** What opening needs besides the config: credentials already resolved, who we are, and the process's shared login. */
export interface ModelAccessRequest {
  config: Config;
  auth: ResolvedAuth;
  identity: Omit<ClientIdentity, "apiKey">;
  env: NodeJS.ProcessEnv;
  /** One refreshing login per process: returned as given, or made from `auth` when absent. */
  chatgpt: ChatGptCredentials | null;
}

/**
 * The model client for the config's provider and resolved credentials; with a ChatGPT login also
 * the account's models and the config they settle (see account-models.ts). `onLogin` receives
 * the login the process keeps for its later threads.
 */
export async function openModelAccess(req: ModelAccessRequest, onLogin: (login: ChatGptCredentials) => void): Promise<ModelAccess> {
  const { config, auth, identity } = req;
  if (auth.mode !== "chatgpt") {
    const client = await modelClientFor(config.provider, { ...identity, apiKey: auth.mode === "api-key" ? auth.apiKey : null });
    return { client, config, accountModels: null, warning: null };
  }
  const clientHeaders = { originator: identity.originator, "user-agent": identity.userAgent };
  const credentials = req.chatgpt ?? new ChatGptCredentials(config.codexHome, req.env, auth.login, clientHeaders);
  onLogin(credentials);
  const provider = providerForChatgpt(config);
  const models = await accountModels({
    codexHome: config.codexHome,
    baseUrl: provider.baseUrl,
    clientVersion: packageVersion(),
    accountId: credentials.accountId,
    headers: async () => ({ ...clientHeaders, ...providerHeaders(provider, req.env), ...(await credentials.headers()) }),
    env: req.env,
  });
  const client = await modelClientFor(provider, { ...identity, apiKey: null, credentials });
  return { client, accountModels: models, ...settleModel(config, models) };
}

/** The Responses client, or (loaded only when needed) the Chat Completions one. */
async function modelClientFor(provider: ModelProvider, identity: ClientIdentity): Promise<ModelClient> {
  if (provider.wireApi !== "chat") return new ResponsesClient(provider, identity);
  const { ChatClient } = await import("../model/chat-client.js");
  return new ChatClient(provider, identity);
}

/** Resolution's own errors (a broken auth.json, a forbidden login method), as plain messages. */
export function resolveRunAuth(config: Config, env: NodeJS.ProcessEnv, readCodexApiKey: boolean): ResolvedAuth | { mode: "error"; message: string } {
  try {
    return resolveAuth(config.provider, config.codexHome, env, readCodexApiKey, loginPolicyFrom(config.toml));
  } catch (err) {
    if (err instanceof AuthFileError || err instanceof LoginPolicyError) return { mode: "error", message: err.message };
    throw err;
  }
}

/** The Codex backend's base URL for a ChatGPT login. */
function chatgptModelBaseUrl(config: Config): string {
  const configured = typeof config.toml.chatgpt_base_url === "string" ? config.toml.chatgpt_base_url : DEFAULT_CHATGPT_BASE_URL;
  return `${configured.replace(/\/+$/, "")}/codex`;
}

/** The provider as a ChatGPT login uses it. */
export function providerForChatgpt(config: Config): ModelProvider {
  const provider = config.provider;
  // An explicit openai_base_url (or OPENAI_BASE_URL) wins, as the reference's provider base_url does.
  const baseUrl = provider.baseUrl === OPENAI_DEFAULT_BASE_URL ? chatgptModelBaseUrl(config) : provider.baseUrl;
  return { ...provider, baseUrl, wireApi: "responses" };
}

/**
 * The request that lists the provider's models with the credentials a session would send (for
 * `codex-ts doctor`): the base URL, the list's URL, the headers, and whether a ChatGPT login
 * goes to the Codex backend.
 */
export function modelListRequest(config: Config, env: NodeJS.ProcessEnv): { base: string; url: string; headers: Record<string, string>; chatgpt: boolean } {
  const auth = resolveRunAuth(config, env, true);
  const base = auth.mode === "chatgpt" ? providerForChatgpt(config).baseUrl : config.provider.baseUrl;
  const headers: Record<string, string> = { ...providerHeaders(config.provider, env) };
  if (auth.mode === "api-key") headers.authorization = `Bearer ${auth.apiKey}`;
  if (auth.mode === "chatgpt") {
    headers.authorization = `Bearer ${auth.login.tokens.access_token}`;
    if (auth.login.tokens.account_id) headers["chatgpt-account-id"] = auth.login.tokens.account_id;
  }
  return { base, url: `${base.replace(/\/+$/, "")}/models`, headers, chatgpt: auth.mode === "chatgpt" };
}
