/**
 * `codex-ts login` (ChatGPT in a browser, `--device-auth`, `--with-api-key`, `--import`),
 * `codex-ts login status` and `codex-ts logout`. The flows live in src/auth/; this file reads
 * flags and prints. Everything goes to stderr, as the reference's login commands do, and no
 * token or key is ever printed (status shows a masked key, or the account's email and plan).
 */
import { CODEX_API_KEY_ENV_VAR, loginPolicyFrom, NO_LOGIN_POLICY, resolveAuth, type LoginPolicy } from "../auth/resolve-auth.js";
import { codexHome } from "../config/codex-home.js";
import { deleteAuthFile, readAuthFile, writeApiKeyAuth, type ChatgptLogin, type SavedAuth } from "../auth/auth-file.js";
import { idTokenClaims, planLabel } from "../auth/jwt.js";
import { errorMessage } from "../util/errors.js";

export interface LoginOptions {
  /** `--with-api-key`: read the API key from stdin. */
  withApiKey?: boolean;
  /** `--api-key <KEY>`: the retired way of passing the key; refused, as the reference does. */
  apiKey?: string;
  /** `--device-auth`: sign in with a code typed on another device. */
  deviceAuth?: boolean;
  /** `--import [DIR]`: copy the reference CLI's login (true: from its default home). */
  import?: string | boolean;
}

export interface TextSink {
  write(chunk: string): unknown;
}

/** Where a command reads and writes; defaults to the process's own streams and environment. */
export interface LoginIo {
  env?: NodeJS.ProcessEnv;
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr?: TextSink;
  /** config.toml's login settings (`forced_login_method`, `preferred_auth_method`, `forced_chatgpt_workspace_id`). */
  policy?: LoginPolicy;
}

const PIPE_HINT = "`printenv OPENAI_API_KEY | codex-ts login --with-api-key`";

export const MESSAGES = {
  apiKeyFlagUnsupported: `The --api-key flag is no longer supported. Pipe the key instead, e.g. ${PIPE_HINT}.`,
  stdinIsTerminal: `--with-api-key expects the API key on stdin. Try piping it, e.g. ${PIPE_HINT}.`,
  readingStdin: "Reading API key from stdin...",
  emptyStdin: "No API key provided via stdin.",
  loggedIn: "Successfully logged in",
  notLoggedIn: "Not logged in",
  loggedOut: "Successfully logged out",
  loggedInWithChatgpt: "Logged in using ChatGPT",
  conflictingModes: "Choose one way to sign in: --with-api-key, --device-auth or --import.",
} as const;

/** `sk-proj-1234567890ABCDE` → `sk-proj-***ABCDE`; keys of 13 characters or fewer → `***`. */
export function maskApiKey(key: string): string {
  if (key.length <= 13) return "***";
  return `${key.slice(0, 8)}***${key.slice(-5)}`;
}

/** `codex-ts login [--with-api-key | --device-auth | --import [DIR]]`. Returns the exit code. */
export async function runLoginCommand(opts: LoginOptions, io: LoginIo = {}): Promise<number> {
  const say = line(io);
  if (opts.apiKey !== undefined) {
    say(MESSAGES.apiKeyFlagUnsupported);
    return 1;
  }
  const modes = [opts.withApiKey === true, opts.deviceAuth === true, opts.import !== undefined && opts.import !== false].filter(Boolean);
  if (modes.length > 1) {
    say(MESSAGES.conflictingModes);
    return 1;
  }
  const env = io.env ?? process.env;
  const home = codexHome(env);
  const forced = io.policy?.forcedLoginMethod ?? null;
  const signsInWithChatgpt = opts.withApiKey !== true && (opts.import === undefined || opts.import === false);
  if (forced === "api" && signsInWithChatgpt) {
    say('ChatGPT sign-in is turned off here (forced_login_method = "api"); save an API key instead, e.g. ' + `${PIPE_HINT}.`);
    return 1;
  }
  if (forced === "chatgpt" && opts.withApiKey === true) {
    say('API-key login is turned off here (forced_login_method = "chatgpt"); sign in with `codex-ts login`.');
    return 1;
  }
  try {
    if (opts.withApiKey === true) return await loginWithApiKey(io, home);
    if (opts.deviceAuth === true) return await loginWithDeviceCode(io, home, env);
    if (opts.import !== undefined && opts.import !== false) return await importReferenceLogin(io, home, opts.import);
    return await loginWithBrowser(io, home, env);
  } catch (err) {
    say(`Error logging in: ${errorMessage(err)}`);
    return 1;
  }
}

async function loginWithApiKey(io: LoginIo, home: string): Promise<number> {
  const say = line(io);
  const stdin = io.stdin ?? process.stdin;
  if (stdin.isTTY === true) {
    say(MESSAGES.stdinIsTerminal);
    return 1;
  }
  say(MESSAGES.readingStdin);
  let apiKey: string;
  try {
    apiKey = (await readAll(stdin)).trim();
  } catch (err) {
    say(`Failed to read API key from stdin: ${errorMessage(err)}`);
    return 1;
  }
  if (apiKey === "") {
    say(MESSAGES.emptyStdin);
    return 1;
  }
  writeApiKeyAuth(home, apiKey);
  say(MESSAGES.loggedIn);
  return 0;
}

async function loginWithBrowser(io: LoginIo, home: string, env: NodeJS.ProcessEnv): Promise<number> {
  const say = line(io);
  const { startChatGptLogin } = await import("../auth/browser-login.js");
  const handle = await startChatGptLogin({
    codexHome: home,
    env,
    allowedWorkspaceIds: io.policy?.forcedWorkspaceIds ?? null,
    onUrl: (url, port) => {
      say(`Waiting for the ChatGPT sign-in on http://localhost:${port}.`);
      say("If no browser opened, open this address to sign in:");
      say("");
      say(url);
      say("");
      say("No browser on this machine? Run `codex-ts login --device-auth` instead.");
    },
  });
  const stop = (): void => handle.cancel();
  process.once("SIGINT", stop);
  try {
    signedIn(say, await handle.done);
  } finally {
    process.off("SIGINT", stop);
  }
  return 0;
}

async function loginWithDeviceCode(io: LoginIo, home: string, env: NodeJS.ProcessEnv): Promise<number> {
  const say = line(io);
  const { requestDeviceCode, completeDeviceLogin } = await import("../auth/device-login.js");
  const device = await requestDeviceCode(env);
  say("To sign in with ChatGPT from another device:");
  say("");
  say(`1. Open ${device.verificationUrl} and sign in.`);
  say(`2. Enter this one-time code (valid for 15 minutes): ${device.userCode}`);
  say("");
  say("Never share this code: whoever enters it gets your login.");
  signedIn(say, await completeDeviceLogin(home, env, device, io.policy?.forcedWorkspaceIds ?? null));
  return 0;
}

async function importReferenceLogin(io: LoginIo, home: string, from: string | true): Promise<number> {
  const say = line(io);
  const { importLogin, referenceHome } = await import("../auth/sign-in.js");
  const source = referenceHome(from === true ? undefined : from);
  const copied = importLogin(source, home);
  say(`Imported the login from ${source}/auth.json (that file was not changed).`);
  if (copied.kind === "chatgpt") signedIn(say, copied);
  else say(`${MESSAGES.loggedIn} (API key ${maskApiKey(copied.apiKey)})`);
  return 0;
}

function signedIn(say: (text: string) => void, login: ChatgptLogin): void {
  say(MESSAGES.loggedIn);
  const account = accountLine(login);
  if (account) say(account);
}

/** "Account: a@b.c (Plus plan)", from the id token's claims; null when it names neither. */
function accountLine(login: ChatgptLogin): string | null {
  const claims = idTokenClaims(login.tokens.id_token);
  const plan = claims.planType ? `${planLabel(claims.planType)} plan` : null;
  if (!claims.email && !plan) return null;
  return `Account: ${[claims.email, plan && (claims.email ? `(${plan})` : plan)].filter(Boolean).join(" ")}`;
}

/** `codex-ts login status`: 0 when a login is saved, 1 when not (or auth.json is unusable). */
export async function runLoginStatus(io: LoginIo = {}): Promise<number> {
  const say = line(io);
  const env = io.env ?? process.env;
  const home = codexHome(env);
  let auth: SavedAuth | null;
  try {
    auth = readAuthFile(home);
  } catch (err) {
    say(`Error checking login status: ${errorMessage(err)}`);
    return 1;
  }
  const codexKey = env[CODEX_API_KEY_ENV_VAR]?.trim();
  if (codexKey) say(`${CODEX_API_KEY_ENV_VAR} is set (${maskApiKey(codexKey)}); codex-ts exec uses it instead of a saved login`);
  const envKey = env.OPENAI_API_KEY?.trim();
  if (envKey) {
    // Say what runs with the OpenAI provider will use, under the configured policy.
    let used: string;
    try {
      used = resolveAuth({ id: "openai", envKey: "OPENAI_API_KEY" }, home, env, false, io.policy ?? NO_LOGIN_POLICY).mode;
    } catch {
      used = "error";
    }
    say(
      used === "chatgpt"
        ? `OPENAI_API_KEY is set (${maskApiKey(envKey)}), but runs use the saved ChatGPT login (preferred_auth_method = "apikey" uses the key)`
        : `OPENAI_API_KEY is set (${maskApiKey(envKey)}); runs with the OpenAI provider use it instead of a saved login`,
    );
  }
  switch (auth?.kind) {
    case "api-key":
      say(`Logged in using an API key - ${maskApiKey(auth.apiKey)}`);
      return 0;
    case "chatgpt": {
      say(MESSAGES.loggedInWithChatgpt);
      const account = accountLine(auth);
      if (account) say(account);
      return 0;
    }
    default:
      say(MESSAGES.notLoggedIn);
      return 1;
  }
}

/** config.toml's login policy (for status and sign-in); a config that does not load leaves the defaults. */
export async function loginPolicyForStatus(env: NodeJS.ProcessEnv): Promise<LoginPolicy> {
  try {
    const { loadConfig } = await import("../config/load-config.js");
    return loginPolicyFrom(loadConfig({ cwd: process.cwd(), overrides: [], env }).toml);
  } catch {
    return NO_LOGIN_POLICY;
  }
}

/**
 * `codex-ts logout`: revokes a ChatGPT login's tokens (best effort), then removes auth.json.
 * 0 whether or not there was one, 1 on an I/O error.
 */
export async function runLogout(io: LoginIo = {}): Promise<number> {
  const say = line(io);
  const env = io.env ?? process.env;
  const home = codexHome(env);
  let removed: boolean;
  try {
    const saved = readSavedForLogout(home);
    if (saved?.kind === "chatgpt") {
      const { revokeLogin } = await import("../auth/revoke.js");
      const problem = await revokeLogin(saved, env);
      if (problem) say(`Warning: the tokens could not be revoked (${problem}); removing the local login anyway.`);
    }
    removed = deleteAuthFile(home);
  } catch (err) {
    say(`Error logging out: ${errorMessage(err)}`);
    return 1;
  }
  say(removed ? MESSAGES.loggedOut : MESSAGES.notLoggedIn);
  return 0;
}

/** What logout would revoke; an unreadable file is simply removed. */
function readSavedForLogout(home: string): SavedAuth | null {
  try {
    return readAuthFile(home);
  } catch {
    return null;
  }
}

function line(io: LoginIo): (text: string) => void {
  const sink = io.stderr ?? process.stderr;
  return (text) => {
    sink.write(`${text}\n`);
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
