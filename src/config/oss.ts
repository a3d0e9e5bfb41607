/**
 * Local open-source model servers (`--oss`): Ollama and LM Studio. As in the reference, their
 * built-in providers listen on http://localhost:<port>/v1, where CODEX_OSS_PORT replaces the
 * default port and CODEX_OSS_BASE_URL replaces the whole URL. Before a run we ask the server for
 * its model list so that a server that is not running gives one clear message instead of a
 * connection error in the middle of a turn.
 */
import type { ModelProvider } from "../model/provider.js";

export const OSS_PROVIDERS = ["ollama", "lmstudio"] as const;
export type OssProviderId = (typeof OSS_PROVIDERS)[number];
export const DEFAULT_OSS_PROVIDER: OssProviderId = "ollama";

const DEFAULT_PORTS: Record<OssProviderId, number> = { ollama: 11434, lmstudio: 1234 };

/** The model `--oss` uses when none is given with `-m` (the reference's choice per server). */
export const DEFAULT_OSS_MODELS: Record<OssProviderId, string> = { ollama: "gpt-oss:20b", lmstudio: "openai/gpt-oss-20b" };

const HEALTH_TIMEOUT_MS = 2000;

export function isOssProvider(id: string): id is OssProviderId {
  return (OSS_PROVIDERS as readonly string[]).includes(id);
}

/** The base URL of a local provider, honouring CODEX_OSS_BASE_URL and CODEX_OSS_PORT. */
export function ossBaseUrl(id: OssProviderId, env: NodeJS.ProcessEnv): string {
  const url = env.CODEX_OSS_BASE_URL?.trim();
  if (url) return url;
  const portText = env.CODEX_OSS_PORT?.trim() ?? "";
  const port = /^\d+$/.test(portText) && Number(portText) > 0 && Number(portText) < 65536 ? Number(portText) : DEFAULT_PORTS[id];
  return `http://localhost:${port}/v1`;
}

const START_HINTS: Record<OssProviderId, string> = {
  ollama: "Start it with `ollama serve`",
  lmstudio: "Start LM Studio's local server (`lms server start`)",
};

/**
 * Whether the provider's server answers `GET {base_url}/models` within 2 s: null when it does,
 * otherwise a message saying what to do.
 */
export async function checkLocalProvider(provider: ModelProvider): Promise<string | null> {
  const base = provider.baseUrl.replace(/\/+$/, "");
  const hint = isOssProvider(provider.id) ? START_HINTS[provider.id] : "Start it";
  let status: number;
  try {
    const response = await fetch(`${base}/models`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    status = response.status;
    await response.body?.cancel();
  } catch {
    return `No ${provider.name} server is answering at ${base}. ${hint}, or pick another provider.`;
  }
  if (status >= 200 && status < 300) return null;
  return `The ${provider.name} server at ${base} answered GET /models with HTTP ${status}; is it an OpenAI-compatible endpoint? Check the URL (CODEX_OSS_BASE_URL), or pick another provider.`;
}
