/** Doctor check of the credentials the configured provider needs (an API key, or a ChatGPT login). */
import type { Config } from "../../config/load-config.js";
import { providerNeedsKey } from "../../auth/resolve-auth.js";
import { idTokenClaims, jwtExpiresAt } from "../../auth/jwt.js";
import { runCredentials } from "../../host/doctor/credentials.js";
import { fail, ok, type Finding } from "../../host/doctor/report.js";

export function authCheck(config: Config, env: NodeJS.ProcessEnv): Finding {
  const auth = runCredentials(config, env);
  const provider = config.provider;
  if (auth.mode === "error") return fail(auth.message, "run `codex-ts login` again, or fix the setting named");
  if (auth.mode === "api-key") return ok(`API key from ${auth.source}`, { provider: provider.id, key: `${auth.apiKey.slice(0, 3)}…${auth.apiKey.slice(-4)}` });
  if (auth.mode === "chatgpt") {
    const details: Record<string, string> = { provider: provider.id, "auth file": `${config.codexHome}/auth.json` };
    const claims = idTokenClaims(auth.login.tokens.id_token);
    if (claims.email) details.account = claims.email;
    const expires = jwtExpiresAt(auth.login.tokens.access_token);
    if (expires !== null) details["access token expires"] = new Date(expires).toISOString();
    return ok("signed in with ChatGPT", details);
  }
  if (!providerNeedsKey(provider)) return ok(`${provider.name} takes no key`, { provider: provider.id });
  const variable = provider.envKey ?? "OPENAI_API_KEY";
  return fail(`no credentials for ${provider.name}`, provider.id === "openai" ? "run `codex-ts login`, or set OPENAI_API_KEY" : `set ${variable}${provider.envKeyInstructions ? ` (${provider.envKeyInstructions})` : ""}`);
}

