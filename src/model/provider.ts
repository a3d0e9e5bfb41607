/**
 * Model providers: where requests go and how they authenticate. The built-in `openai` provider
 * can be pointed elsewhere with `openai_base_url` or OPENAI_BASE_URL; any other provider comes
 * from a `[model_providers.<id>]` table in config.toml.
 */
import { packageVersion } from "../util/version.js";

export type WireApi = "responses" | "chat";

export interface ModelProvider {
  id: string;
  name: string;
  baseUrl: string;
  /** Environment variable that holds the API key; absent for providers that need none. */
  envKey: string | null;
  envKeyInstructions: string | null;
  wireApi: WireApi;
  queryParams: Record<string, string>;
  httpHeaders: Record<string, string>;
  /** Header name → environment variable whose value is sent when set. */
  envHttpHeaders: Record<string, string>;
  requestMaxRetries: number;
  streamMaxRetries: number;
  streamIdleTimeoutMs: number;
}

export const DEFAULT_REQUEST_MAX_RETRIES = 4;
export const DEFAULT_STREAM_MAX_RETRIES = 5;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;
/** Upper bound on retries, whatever config asks, so a typo cannot retry forever. */
export const MAX_RETRIES_CAP = 100;

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

export function builtinProviders(openaiBaseUrl: string | undefined): Record<string, ModelProvider> {
  const base = (over: Partial<ModelProvider> & Pick<ModelProvider, "id" | "name" | "baseUrl">): ModelProvider => ({
    envKey: null,
    envKeyInstructions: null,
    wireApi: "responses",
    queryParams: {},
    httpHeaders: {},
    envHttpHeaders: {},
    requestMaxRetries: DEFAULT_REQUEST_MAX_RETRIES,
    streamMaxRetries: DEFAULT_STREAM_MAX_RETRIES,
    streamIdleTimeoutMs: DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    ...over,
  });
  return {
    openai: base({
      id: "openai",
      name: "OpenAI",
      baseUrl: openaiBaseUrl ?? OPENAI_DEFAULT_BASE_URL,
      envKey: "OPENAI_API_KEY",
      envKeyInstructions: "Set OPENAI_API_KEY (or CODEX_API_KEY for exec) to your OpenAI API key.",
      // The reference's built-in OpenAI provider sends its version with every request, whatever the login.
      httpHeaders: { version: packageVersion() },
    }),
    ollama: base({ id: "ollama", name: "Ollama", baseUrl: "http://localhost:11434/v1", wireApi: "chat" }),
    lmstudio: base({ id: "lmstudio", name: "LM Studio", baseUrl: "http://localhost:1234/v1", wireApi: "chat" }),
  };
}

/** The full URL of an endpoint, with the provider's query parameters (Azure's api-version). */
export function endpointUrl(provider: ModelProvider, path: string): string {
  const url = new URL(provider.baseUrl.replace(/\/+$/, "") + path);
  for (const [k, v] of Object.entries(provider.queryParams)) url.searchParams.set(k, v);
  return url.toString();
}

export function providerHeaders(provider: ModelProvider, env: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = { ...provider.httpHeaders };
  for (const [header, variable] of Object.entries(provider.envHttpHeaders)) {
    const value = env[variable];
    if (value) headers[header] = value;
  }
  return headers;
}
