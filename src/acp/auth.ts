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
 * An editor that can run the agent in a terminal (`auth.terminal`) is also offered a terminal
 * sign-in: it runs `codex-ts acp --login` there, which is `codex-ts login` (the browser sign-in,
 * its address printed for a machine where no browser opens), and never passes it to
 * `authenticate`.
 *
 * config.toml's `forced_login_method` and `forced_chatgpt_workspace_id` apply as they do to
 * `codex-ts login`. `session/new` asks for authentication (error -32000) when the configured
 * provider has no credentials.
 */
import { RequestError, type AuthenticateRequest, type AuthMethod, type ClientCapabilities } from "@agentclientprotocol/sdk";
import { readAuthFile, writeApiKeyAuth } from "../auth/auth-file.js";
import type { LoginPolicy } from "../auth/resolve-auth.js";
import { codexHome } from "../config/codex-home.js";
import { errorMessage } from "../util/errors.js";

export const CHATGPT_METHOD = "chatgpt";
export const API_KEY_METHOD = "api-key";

export const TERMINAL_METHOD = "chatgpt-terminal";
/** What the editor appends to the agent's command line for the terminal sign-in. */
export const TERMINAL_LOGIN_ARGS = ["--login"];

const AUTH_METHODS: AuthMethod[] = [
  { id: CHATGPT_METHOD, name: "Sign in with ChatGPT", description: "use your ChatGPT plan (opens the sign-in page in your browser)" },
  { id: API_KEY_METHOD, name: "OpenAI API key", description: "use the key in OPENAI_API_KEY (set it in the agent's environment)" },
];

/** The sign-in methods offered to a client with these capabilities. */
export function authMethodsFor(capabilities: ClientCapabilities): AuthMethod[] {
  if (capabilities.auth?.terminal !== true) return AUTH_METHODS;
  const terminal: AuthMethod = {
    type: "terminal",
    id: TERMINAL_METHOD,
    name: "Sign in with ChatGPT in a terminal",
    description: "run the sign-in in a terminal, which prints the address to open when no browser opens here",
    args: TERMINAL_LOGIN_ARGS,
  };
  return [...AUTH_METHODS, terminal];
}

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
  if (request.methodId === TERMINAL_METHOD) throw RequestError.invalidParams({ methodId: request.methodId }, `${TERMINAL_METHOD} runs in a terminal (codex-ts acp ${TERMINAL_LOGIN_ARGS.join(" ")}), not through authenticate`);
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
