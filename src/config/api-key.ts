/**
 * Which API key a run uses: CODEX_API_KEY (exec only), then the provider's env_key, then the
 * key saved in $CODEX_HOME/auth.json. The key goes to the model provider and nowhere else.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelProvider } from "../model/provider.js";

export function resolveApiKey(
  provider: ModelProvider,
  codexHome: string,
  env: NodeJS.ProcessEnv,
  allowCodexApiKey: boolean,
): string | null {
  if (allowCodexApiKey && env.CODEX_API_KEY) return env.CODEX_API_KEY;
  if (provider.envKey && env[provider.envKey]) return env[provider.envKey] ?? null;
  if (provider.id === "openai") return savedKey(codexHome);
  return null;
}

function savedKey(codexHome: string): string | null {
  try {
    const auth = JSON.parse(readFileSync(join(codexHome, "auth.json"), "utf8")) as { OPENAI_API_KEY?: unknown };
    return typeof auth.OPENAI_API_KEY === "string" && auth.OPENAI_API_KEY ? auth.OPENAI_API_KEY : null;
  } catch {
    return null;
  }
}

/** Whether this provider can work without a key (local servers such as Ollama need none). */
export function providerNeedsKey(provider: ModelProvider): boolean {
  return provider.envKey !== null;
}
