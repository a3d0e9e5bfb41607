/**
 * How the credentials a run resolved to shape its model client. An API key is a bearer header.
 * A ChatGPT login sends requests to the Codex backend instead (`chatgpt_base_url` + `/codex`,
 * as the reference does for such accounts, unless `openai_base_url` names another server) with
 * the refreshing bearer token and the account id (the built-in provider already sends `version`).
 */
import type { Config } from "../config/load-config.js";
import { OPENAI_DEFAULT_BASE_URL, type ModelProvider } from "../model/provider.js";
import { DEFAULT_CHATGPT_BASE_URL } from "../auth/endpoints.js";
import { AuthFileError } from "../auth/auth-file.js";
import { loginPolicyFrom, LoginPolicyError, resolveAuth, type ResolvedAuth } from "../auth/resolve-auth.js";

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
export function chatgptModelBaseUrl(config: Config): string {
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
