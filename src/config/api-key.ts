/**
 * Which API key a run uses: CODEX_API_KEY (exec only), then the provider's env_key, then the
 * key saved in $CODEX_HOME/auth.json (built-in openai provider only). A variable that is empty or
 * only whitespace counts as unset, and values are trimmed, as the reference does. The key goes
 * to the model provider and nowhere else: it is never copied into process.env, so commands the
 * model runs cannot inherit a saved key, and it is never logged.
 */
import type { ModelProvider } from "../model/provider.js";
import { savedApiKey } from "./auth-file.js";

export const CODEX_API_KEY_ENV_VAR = "CODEX_API_KEY";

export function resolveApiKey(
  provider: ModelProvider,
  codexHome: string,
  env: NodeJS.ProcessEnv,
  allowCodexApiKey: boolean,
): string | null {
  if (allowCodexApiKey) {
    const fromCodex = nonBlank(env[CODEX_API_KEY_ENV_VAR]);
    if (fromCodex) return fromCodex;
  }
  if (provider.envKey) {
    const fromEnv = nonBlank(env[provider.envKey]);
    if (fromEnv) return fromEnv;
  }
  if (provider.id === "openai") return savedApiKey(codexHome);
  return null;
}

function nonBlank(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** Whether this provider can work without a key (local servers such as Ollama need none). */
export function providerNeedsKey(provider: ModelProvider): boolean {
  return provider.envKey !== null;
}
