/**
 * What both sign-in flows share: PKCE codes (S256), exchanging an authorization code for tokens
 * at the issuer's token endpoint (the reference's form fields), and saving the result as a
 * ChatGPT login in auth.json. Also copying a login the reference CLI saved (`login --import`).
 */
import { createHash, randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { authFilePath, chatgptAuthJson, parseAuthJson, readAuthFile, writeAuthText, type ChatgptLogin, type TokenData, AuthFileError } from "./auth-file.js";
import { errorDetail, postForm } from "./auth-http.js";
import { CLIENT_ID, tokenUrl } from "./endpoints.js";
import { idTokenClaims } from "./jwt.js";
import { readTextFile } from "../util/bounded-read.js";
import { errorCode, errorMessage } from "../util/errors.js";

export interface PkceCodes {
  verifier: string;
  challenge: string;
}

/** A 64-byte random verifier and its SHA-256 challenge, both base64url without padding. */
export function generatePkce(): PkceCodes {
  const verifier = randomBytes(64).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export interface IssuedTokens {
  id_token: string;
  access_token: string;
  refresh_token: string;
}

/** Exchanges an authorization code; the error says what the issuer answered (never a token). */
export async function exchangeCode(env: NodeJS.ProcessEnv, code: string, redirectUri: string, verifier: string): Promise<IssuedTokens> {
  const res = await postForm(
    tokenUrl(env),
    { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: CLIENT_ID, code_verifier: verifier },
    env,
  );
  if (res.status < 200 || res.status >= 300) throw new Error(`the token endpoint answered ${res.status}: ${errorDetail(res.text)}`);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    throw new Error("the token endpoint's answer is not JSON");
  }
  const tokens: Partial<IssuedTokens> = {};
  for (const field of ["id_token", "access_token", "refresh_token"] as const) {
    const value = parsed[field];
    if (typeof value !== "string" || value === "") throw new Error(`the token endpoint's answer has no ${field}`);
    tokens[field] = value;
  }
  return tokens as IssuedTokens;
}

/** `forced_chatgpt_workspace_id` at sign-in: throws when the new login's workspace is not allowed. */
export function checkIssuedWorkspace(issued: IssuedTokens, allowed: string[] | null | undefined): void {
  if (!allowed || allowed.length === 0) return;
  const actual = idTokenClaims(issued.id_token).accountId;
  if (actual && allowed.includes(actual)) return;
  throw new Error(`this configuration allows only workspace ${allowed.join(", ")}; sign in with an account of that workspace`);
}

/** Saves freshly issued tokens as the ChatGPT login, replacing whatever auth.json held. */
export function saveChatgptLogin(codexHome: string, issued: IssuedTokens): ChatgptLogin {
  const tokens: TokenData = { ...issued, account_id: idTokenClaims(issued.id_token).accountId };
  const now = new Date();
  const text = chatgptAuthJson(tokens, now);
  writeAuthText(codexHome, text);
  return { kind: "chatgpt", tokens, lastRefresh: now, apiKey: null, raw: JSON.parse(text) as Record<string, unknown> };
}

/** The reference CLI's home when none is named: its default, ~/.codex. */
export function referenceHome(explicit: string | undefined): string {
  return explicit ? resolve(explicit) : join(homedir(), ".codex");
}

/**
 * Copies the login in `sourceHome`/auth.json to `codexHome`/auth.json (mode 0600), after checking
 * it is a usable login. The source is only read. Returns what was copied.
 */
export function importLogin(sourceHome: string, codexHome: string): ChatgptLogin | { kind: "api-key"; apiKey: string } {
  const source = authFilePath(sourceHome);
  if (resolve(source) === resolve(authFilePath(codexHome))) throw new AuthFileError(`${source} is codex-ts's own auth.json; nothing to import`);
  let text: string;
  try {
    text = readTextFile(source);
  } catch (err) {
    const missing = errorCode(err) === "ENOENT";
    throw new AuthFileError(missing ? `no login to import: ${source} does not exist (sign in with the reference CLI first, or name its CODEX_HOME)` : `cannot read ${source}: ${errorMessage(err)}`);
  }
  const saved = parseAuthJson(text, source);
  if (saved.kind === "empty") throw new AuthFileError(`${source} holds no login to import`);
  // The file is copied as it is, so fields codex-ts does not know survive the trip.
  writeAuthText(codexHome, text.endsWith("\n") ? text : `${text}\n`);
  const copied = readAuthFile(codexHome);
  if (!copied || copied.kind === "empty") throw new AuthFileError(`${authFilePath(codexHome)} could not be read back after the import`);
  return copied;
}
