/**
 * $CODEX_HOME/auth.json, the file `codex-ts login --with-api-key` writes and `logout` removes.
 * Its shape follows the reference CLI's, so either tool can read what the other saved:
 *
 *   { "auth_mode": "apikey", "OPENAI_API_KEY": "sk-…" }
 *
 * Older reference builds wrote `"tokens": null, "last_refresh": null` instead of `auth_mode`;
 * both shapes are read. ChatGPT logins (a `tokens` object) are recognised but not usable here.
 * The file is private: it is written atomically (temporary file, then rename) with mode 0600.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync, chmodSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";

export const AUTH_FILE_NAME = "auth.json";

/** What auth.json holds, as far as codex-ts cares. */
export type SavedAuth =
  | { kind: "api-key"; apiKey: string }
  /** A ChatGPT (browser) login saved by the reference CLI; codex-ts cannot use it. */
  | { kind: "chatgpt" }
  /** The file exists but holds neither a key nor tokens. */
  | { kind: "empty" };

export function authFilePath(codexHome: string): string {
  return join(codexHome, AUTH_FILE_NAME);
}

/** The JSON written for an API-key login, in the reference's field order. */
export function apiKeyAuthJson(apiKey: string): string {
  return `${JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: apiKey }, null, 2)}\n`;
}

/**
 * Reads auth.json. Returns null when there is no file; throws when it cannot be read or is not
 * a JSON object (the error never quotes the file's content, which may hold a key).
 */
export function readAuthFile(codexHome: string): SavedAuth | null {
  const file = authFilePath(codexHome);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} does not hold a JSON object`);
  }
  const auth = parsed as { OPENAI_API_KEY?: unknown; tokens?: unknown };
  if (typeof auth.OPENAI_API_KEY === "string" && auth.OPENAI_API_KEY.trim() !== "") {
    return { kind: "api-key", apiKey: auth.OPENAI_API_KEY.trim() };
  }
  if (typeof auth.tokens === "object" && auth.tokens !== null) return { kind: "chatgpt" };
  return { kind: "empty" };
}

/** The saved API key, or null when there is none or the file cannot be read. */
export function savedApiKey(codexHome: string): string | null {
  try {
    const auth = readAuthFile(codexHome);
    return auth?.kind === "api-key" ? auth.apiKey : null;
  } catch {
    return null;
  }
}

/**
 * Saves an API key, replacing whatever auth.json held. The new content goes to a temporary file
 * in the same directory, created with mode 0600, and is renamed over auth.json, so readers see
 * the old file or the new one, never a partial one, and looser permissions of an existing file
 * do not carry over.
 */
export function writeApiKeyAuth(codexHome: string, apiKey: string): void {
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  const target = authFilePath(codexHome);
  const temp = join(codexHome, `.${AUTH_FILE_NAME}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temp, "wx", 0o600);
    // The umask may have removed bits from 0600 (never added any); make it exact.
    chmodSync(temp, 0o600);
    writeSync(fd, apiKeyAuthJson(apiKey));
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(temp, target);
  } catch (err) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // Already renamed or never created.
    }
    throw err;
  }
}

/** Removes auth.json; true when there was one. */
export function deleteAuthFile(codexHome: string): boolean {
  try {
    unlinkSync(authFilePath(codexHome));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}
