/**
 * $CODEX_HOME/auth.json, in the reference CLI's shape so either tool reads what the other saved:
 *
 *   { "auth_mode": "apikey", "OPENAI_API_KEY": "sk-…" }
 *   { "auth_mode": "chatgpt", "OPENAI_API_KEY": null,
 *     "tokens": { "id_token": "…", "access_token": "…", "refresh_token": "…", "account_id": "…" },
 *     "last_refresh": "2025-01-01T00:00:00.000Z" }
 *
 * Older reference builds wrote no `auth_mode`; then a key means an API-key login and tokens a
 * ChatGPT one, as the reference decides. The file is private: every write goes to a temporary
 * file created with mode 0600 and is renamed over auth.json, so a reader sees the old file or
 * the new one, never a partial one. Errors name the file and never quote its content.
 */
import { mkdirSync, unlinkSync } from "node:fs";
import { readTextFile } from "../util/bounded-read.js";
import { join } from "node:path";
import { PRIVATE_DIR_MODE, writeFileAtomic } from "../util/atomic-write.js";
import { errorCode, errorMessage } from "../util/errors.js";

export const AUTH_FILE_NAME = "auth.json";

/** The `tokens` object of a ChatGPT login. */
export interface TokenData {
  id_token: string;
  access_token: string;
  refresh_token: string;
  account_id: string | null;
}

/** A ChatGPT login as read from auth.json. */
export interface ChatgptLogin {
  kind: "chatgpt";
  tokens: TokenData;
  /** When the tokens were last obtained or refreshed; null when the file does not say. */
  lastRefresh: Date | null;
  /** A key saved beside the tokens (the reference may store one from the sign-in). */
  apiKey: string | null;
  /** Every field of the file, so a rewrite keeps what codex-ts does not know. */
  raw: Record<string, unknown>;
}

/** What auth.json holds, as far as codex-ts cares. */
export type SavedAuth = { kind: "api-key"; apiKey: string } | ChatgptLogin | { kind: "empty" };

/** auth.json exists but cannot be used; `message` names the file and the problem. */
export class AuthFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthFileError";
  }
}

export function authFilePath(codexHome: string): string {
  return join(codexHome, AUTH_FILE_NAME);
}

/** The JSON written for an API-key login, in the reference's field order. */
export function apiKeyAuthJson(apiKey: string): string {
  return serialize({ auth_mode: "apikey", OPENAI_API_KEY: apiKey });
}

/** The JSON of a ChatGPT login, in the reference's field order, keeping fields we do not know. */
export function chatgptAuthJson(tokens: TokenData, lastRefresh: Date, extra: Record<string, unknown> = {}): string {
  const { auth_mode: _mode, OPENAI_API_KEY: apiKey, tokens: _tokens, last_refresh: _last, ...rest } = extra;
  const ordered: TokenData = {
    id_token: tokens.id_token,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    account_id: tokens.account_id,
  };
  return serialize({
    auth_mode: "chatgpt",
    OPENAI_API_KEY: typeof apiKey === "string" ? apiKey : null,
    tokens: ordered,
    last_refresh: lastRefresh.toISOString(),
    ...rest,
  });
}

/** Reads auth.json: null when there is none; throws AuthFileError when it is unusable. */
export function readAuthFile(codexHome: string): SavedAuth | null {
  const file = authFilePath(codexHome);
  let text: string;
  try {
    text = readTextFile(file);
  } catch (err) {
    if (errorCode(err) === "ENOENT") return null;
    throw new AuthFileError(`cannot read ${file}: ${errorMessage(err)}`);
  }
  return parseAuthJson(text, file);
}

/** Parses auth.json's text; `file` only names it in errors. */
export function parseAuthJson(text: string, file: string): SavedAuth {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AuthFileError(`${file} is not valid JSON; fix it, or remove it and sign in again with \`codex-ts login\``);
  }
  if (!isObject(parsed)) throw new AuthFileError(`${file} does not hold a JSON object`);
  const apiKey = typeof parsed.OPENAI_API_KEY === "string" && parsed.OPENAI_API_KEY.trim() !== "" ? parsed.OPENAI_API_KEY.trim() : null;
  const mode = typeof parsed.auth_mode === "string" ? parsed.auth_mode : apiKey ? "apikey" : parsed.tokens ? "chatgpt" : null;
  if (mode === "apikey") return apiKey ? { kind: "api-key", apiKey } : { kind: "empty" };
  if (mode === null) return { kind: "empty" };
  if (mode !== "chatgpt") throw new AuthFileError(`${file}: auth_mode "${mode}" is not supported by codex-ts (use "chatgpt" or "apikey")`);
  const tokens = parsed.tokens;
  if (!isObject(tokens)) throw new AuthFileError(`${file}: a ChatGPT login needs a "tokens" object`);
  for (const field of ["id_token", "access_token", "refresh_token"] as const) {
    if (typeof tokens[field] !== "string" || tokens[field] === "") throw new AuthFileError(`${file}: tokens.${field} is missing`);
  }
  const lastRefresh = typeof parsed.last_refresh === "string" ? new Date(parsed.last_refresh) : null;
  return {
    kind: "chatgpt",
    tokens: {
      id_token: tokens.id_token as string,
      access_token: tokens.access_token as string,
      refresh_token: tokens.refresh_token as string,
      account_id: typeof tokens.account_id === "string" ? tokens.account_id : null,
    },
    lastRefresh: lastRefresh && !Number.isNaN(lastRefresh.getTime()) ? lastRefresh : null,
    apiKey,
    raw: parsed,
  };
}

/** Saves an API key, replacing whatever auth.json held. */
export function writeApiKeyAuth(codexHome: string, apiKey: string): void {
  writeAuthText(codexHome, apiKeyAuthJson(apiKey));
}

/**
 * Replaces auth.json with `text`: written to a temporary file in the same directory, created
 * with mode 0600 (so looser permissions of an old file do not carry over), synced, then renamed.
 */
export function writeAuthText(codexHome: string, text: string): void {
  mkdirSync(codexHome, { recursive: true, mode: PRIVATE_DIR_MODE });
  writeFileAtomic(authFilePath(codexHome), text, 0o600);
}

/** Removes auth.json; true when there was one. */
export function deleteAuthFile(codexHome: string): boolean {
  try {
    unlinkSync(authFilePath(codexHome));
    return true;
  } catch (err) {
    if (errorCode(err) === "ENOENT") return false;
    throw err;
  }
}

function serialize(value: Record<string, unknown>): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
