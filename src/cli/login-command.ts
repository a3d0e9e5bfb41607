/**
 * `codex-ts login --with-api-key`, `codex-ts login status` and `codex-ts logout`: save, show and
 * remove the API key kept in $CODEX_HOME/auth.json. Messages and exit codes are the reference
 * CLI's (all on stderr). Browser (ChatGPT) login is not implemented: `login` without
 * `--with-api-key` says so and exits 1. The key itself is never printed; status shows a mask.
 */
import { CODEX_API_KEY_ENV_VAR } from "../config/api-key.js";
import { codexHome } from "../config/codex-home.js";
import { deleteAuthFile, readAuthFile, writeApiKeyAuth, type SavedAuth } from "../config/auth-file.js";

export interface LoginOptions {
  /** `--with-api-key`: read the key from stdin. */
  withApiKey?: boolean;
  /** `--api-key <KEY>`: the retired way of passing the key; refused, as the reference does. */
  apiKey?: string;
}

export interface TextSink {
  write(chunk: string): unknown;
}

/** Where a command reads and writes; defaults to the process's own streams and environment. */
export interface LoginIo {
  env?: NodeJS.ProcessEnv;
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr?: TextSink;
}

const PIPE_HINT = "`printenv OPENAI_API_KEY | codex-ts login --with-api-key`";

export const MESSAGES = {
  apiKeyFlagUnsupported: `The --api-key flag is no longer supported. Pipe the key instead, e.g. ${PIPE_HINT}.`,
  chatgptLoginUnsupported:
    `codex-ts supports API-key login only; ChatGPT (browser) login is not available. Pipe your key in instead, e.g. ${PIPE_HINT}.`,
  stdinIsTerminal: `--with-api-key expects the API key on stdin. Try piping it, e.g. ${PIPE_HINT}.`,
  readingStdin: "Reading API key from stdin...",
  emptyStdin: "No API key provided via stdin.",
  loggedIn: "Successfully logged in",
  notLoggedIn: "Not logged in",
  loggedOut: "Successfully logged out",
  loggedInWithChatgpt: "Logged in using ChatGPT",
  chatgptNotUsable: `codex-ts cannot use a ChatGPT login; save an API key with ${PIPE_HINT}.`,
} as const;

/** `sk-proj-1234567890ABCDE` → `sk-proj-***ABCDE`; keys of 13 characters or fewer → `***`. */
export function maskApiKey(key: string): string {
  if (key.length <= 13) return "***";
  return `${key.slice(0, 8)}***${key.slice(-5)}`;
}

/** `codex-ts login [--with-api-key]`. Returns the exit code. */
export async function runLoginCommand(opts: LoginOptions, io: LoginIo = {}): Promise<number> {
  const say = line(io);
  if (opts.apiKey !== undefined) {
    say(MESSAGES.apiKeyFlagUnsupported);
    return 1;
  }
  if (opts.withApiKey !== true) {
    say(MESSAGES.chatgptLoginUnsupported);
    return 1;
  }
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
    say(`Failed to read API key from stdin: ${(err as Error).message}`);
    return 1;
  }
  if (apiKey === "") {
    say(MESSAGES.emptyStdin);
    return 1;
  }
  try {
    writeApiKeyAuth(codexHome(io.env ?? process.env), apiKey);
  } catch (err) {
    say(`Error logging in: ${(err as Error).message}`);
    return 1;
  }
  say(MESSAGES.loggedIn);
  return 0;
}

/** `codex-ts login status`: 0 when a login is saved, 1 when not (or auth.json is unreadable). */
export async function runLoginStatus(io: LoginIo = {}): Promise<number> {
  const say = line(io);
  let auth: SavedAuth | null;
  try {
    auth = readAuthFile(codexHome(io.env ?? process.env));
  } catch (err) {
    say(`Error checking login status: ${(err as Error).message}`);
    return 1;
  }
  // A key in the environment wins over the saved login: say which one runs will use.
  for (const variable of [CODEX_API_KEY_ENV_VAR, "OPENAI_API_KEY"]) {
    const key = (io.env ?? process.env)[variable]?.trim();
    if (!key) continue;
    const who = variable === CODEX_API_KEY_ENV_VAR ? "codex-ts exec uses it" : "runs with the OpenAI provider use it";
    say(`${variable} is set (${maskApiKey(key)}); ${who} instead of a saved login`);
  }
  switch (auth?.kind) {
    case "api-key":
      say(`Logged in using an API key - ${maskApiKey(auth.apiKey)}`);
      return 0;
    case "chatgpt":
      say(MESSAGES.loggedInWithChatgpt);
      say(MESSAGES.chatgptNotUsable);
      return 0;
    default:
      say(MESSAGES.notLoggedIn);
      return 1;
  }
}

/** `codex-ts logout`: removes auth.json. 0 whether or not there was one, 1 on an I/O error. */
export async function runLogout(io: LoginIo = {}): Promise<number> {
  const say = line(io);
  let removed: boolean;
  try {
    removed = deleteAuthFile(codexHome(io.env ?? process.env));
  } catch (err) {
    say(`Error logging out: ${(err as Error).message}`);
    return 1;
  }
  say(removed ? MESSAGES.loggedOut : MESSAGES.notLoggedIn);
  return 0;
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
