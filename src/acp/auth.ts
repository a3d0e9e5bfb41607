/**
 * Signing in from the editor. `initialize` offers two methods; `authenticate` runs one:
 *
 * - `chatgpt`: a ChatGPT login. One saved already is used as it is; otherwise the browser
 *   sign-in starts (the system browser opens, and the address goes to stderr, which editors keep
 *   in their agent logs) and the request answers once it is done.
 * - `api-key`: an OpenAI API key. One given in the request's `_meta.apiKey` is saved as
 *   `codex-ts login --with-api-key` saves it; otherwise OPENAI_API_KEY in the agent's environment
 *   (set in the editor's agent settings) is used, and nothing is saved.
 *
 * config.toml's `forced_login_method` and `forced_chatgpt_workspace_id` apply as they do to
 * `codex-ts login`. `session/new` asks for authentication (error -32000) when the configured
 * provider has no credentials.
 */
import { RequestError, type AuthenticateRequest, type AuthMethod } from "@agentclientprotocol/sdk";
import { readAuthFile, writeApiKeyAuth } from "../auth/auth-file.js";
import type { LoginPolicy } from "../auth/resolve-auth.js";
import { codexHome } from "../config/codex-home.js";
import { errorMessage } from "../util/errors.js";

export const CHATGPT_METHOD = "chatgpt";
export const API_KEY_METHOD = "api-key";

export const AUTH_METHODS: AuthMethod[] = [
  { id: CHATGPT_METHOD, name: "Sign in with ChatGPT", description: "use your ChatGPT plan (opens the sign-in page in your browser)" },
  { id: API_KEY_METHOD, name: "OpenAI API key", description: "use the key in OPENAI_API_KEY (set it in the agent's environment)" },
];

export interface AuthEnvironment {
  env: NodeJS.ProcessEnv;
  policy: LoginPolicy;
  /** Where the sign-in address is written for the user (stderr). */
  say(line: string): void;
}

export async function authenticate(request: AuthenticateRequest, where: AuthEnvironment): Promise<void> {
  const home = codexHome(where.env);
  const forced = where.policy.forcedLoginMethod;
  if (request.methodId === CHATGPT_METHOD) {
    if (forced === "api") throw RequestError.invalidParams(undefined, 'ChatGPT sign-in is turned off here (forced_login_method = "api"); use an API key');
    if (savedLogin(home) === "chatgpt") return;
    await signInWithChatgpt(home, where);
    return;
  }
  if (request.methodId === API_KEY_METHOD) {
    if (forced === "chatgpt") throw RequestError.invalidParams(undefined, 'API keys are turned off here (forced_login_method = "chatgpt"); sign in with ChatGPT');
    const given = request._meta?.apiKey;
    if (typeof given === "string" && given.trim() !== "") {
      writeApiKeyAuth(home, given.trim());
      return;
    }
    if (where.env.OPENAI_API_KEY?.trim()) return;
    if (savedLogin(home) === "api-key") return;
    throw RequestError.authRequired(undefined, "OPENAI_API_KEY is not set in the agent's environment; add it to the agent server's env in the editor's settings");
  }
  throw RequestError.invalidParams({ methodId: request.methodId }, `unknown auth method '${request.methodId}' (${CHATGPT_METHOD} or ${API_KEY_METHOD})`);
}

/** The kind of login auth.json holds; an unreadable file counts as none (signing in replaces it). */
function savedLogin(home: string): "chatgpt" | "api-key" | null {
  try {
    const saved = readAuthFile(home);
    return saved?.kind === "chatgpt" || saved?.kind === "api-key" ? saved.kind : null;
  } catch {
    return null;
  }
}

async function signInWithChatgpt(home: string, where: AuthEnvironment): Promise<void> {
  const { startChatGptLogin } = await import("../auth/browser-login.js");
  const handle = await startChatGptLogin({
    codexHome: home,
    env: where.env,
    allowedWorkspaceIds: where.policy.forcedWorkspaceIds ?? null,
    onUrl: (url) => where.say(`codex-ts: to sign in with ChatGPT, open ${url}`),
  });
  try {
    await handle.done;
  } catch (err) {
    throw RequestError.authRequired(undefined, errorMessage(err));
  }
}
