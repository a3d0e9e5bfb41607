/**
 * Refreshing a ChatGPT login: when to (the access token is about to expire, or, for tokens
 * without an expiry, the last refresh is older than the reference's 8 days; and after a 401),
 * the request to the token endpoint (the reference's JSON body and client id), how failures are
 * sorted (the reference's error codes mean the login is gone for good), and writing the new
 * tokens back under a lock, re-reading auth.json first in case another process already did.
 */
import { join } from "node:path";
import { AUTH_FILE_NAME, chatgptAuthJson, readAuthFile, writeAuthText, type ChatgptLogin, type TokenData } from "./auth-file.js";
import { errorDetail, postJson } from "./auth-http.js";
import { CLIENT_ID, refreshUrl } from "./endpoints.js";
import { jwtExpiresAt } from "./jwt.js";
import { LockBusyError, withLockFile, type LockFileOptions } from "../util/lock-file.js";
import { errorMessage } from "../util/errors.js";

/** Refresh this long before the access token expires, so no request goes out with a dying one. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** Tokens without an `exp` are refreshed after this long, as the reference does. */
export const REFRESH_INTERVAL_MS = 8 * 24 * 60 * 60_000;

const SIGN_IN_AGAIN = "Sign in again with `codex-ts login`.";

/** Why a refresh failed; `permanent` means retrying cannot help and the user must sign in again. */
export class RefreshError extends Error {
  constructor(
    readonly permanent: boolean,
    message: string,
  ) {
    super(message);
    this.name = "RefreshError";
  }
}

/** Whether the login should be refreshed before its next request. */
export function needsRefresh(login: ChatgptLogin, now = Date.now()): boolean {
  const expiresAt = jwtExpiresAt(login.tokens.access_token);
  if (expiresAt !== null) return expiresAt - REFRESH_MARGIN_MS <= now;
  if (login.lastRefresh === null) return false;
  return now - login.lastRefresh.getTime() > REFRESH_INTERVAL_MS;
}

export interface RefreshOptions {
  /** Refresh even if the tokens look fresh (the server just answered 401). */
  force: boolean;
  /**
   * Sent as `refresh_reason`, as the reference does: "proactive_expiry" before the token expires,
   * "unauthorized_recovery" after a 401.
   */
  reason: "proactive_expiry" | "unauthorized_recovery";
  /** The client's `originator` and `User-Agent` headers, which the reference sends on refreshes too. */
  clientHeaders?: Record<string, string>;
}

/**
 * `auth.json.lock`: the issuer rotates refresh tokens, so a second process refreshing with the same
 * token would lose the login. The reference CLI locks auth.json with the OS instead and leaves an
 * empty `auth.json.lock` behind in a CODEX_HOME it shares with codex-ts: our holders write their
 * pid at once, so an empty one older than a moment is that leftover.
 */
export const AUTH_LOCK_OPTIONS: LockFileOptions = { waitLimitMs: 45_000, emptyStaleAfterMs: 2_000 };

/**
 * Brings the login in `codexHome` up to date and returns it. Under the lock, auth.json is read
 * again: when its access token differs from `seen`'s, another process refreshed already and its
 * tokens are used as they are; only otherwise does a request reach the token endpoint. A lock
 * held too long by another process is a passing failure, like the network's.
 */
export async function refreshLogin(codexHome: string, env: NodeJS.ProcessEnv, seen: ChatgptLogin, opts: RefreshOptions): Promise<ChatgptLogin> {
  try {
    return await withLockFile(join(codexHome, `${AUTH_FILE_NAME}.lock`), () => refreshUnderLock(codexHome, env, seen, opts), AUTH_LOCK_OPTIONS);
  } catch (err) {
    if (err instanceof LockBusyError) throw new RefreshError(false, `Could not refresh the ChatGPT login: ${err.message}; try again`);
    throw err;
  }
}

async function refreshUnderLock(codexHome: string, env: NodeJS.ProcessEnv, seen: ChatgptLogin, opts: RefreshOptions): Promise<ChatgptLogin> {
  const current = readAuthFile(codexHome);
  if (current?.kind !== "chatgpt" || current.tokens.account_id !== seen.tokens.account_id) {
    throw new RefreshError(true, `The ChatGPT login changed while codex-ts was running (signed out, or another account signed in). ${SIGN_IN_AGAIN}`);
  }
  if (current.tokens.access_token !== seen.tokens.access_token) return current;
  if (!opts.force && !needsRefresh(current)) return current;
  const fresh = await requestRefresh(current.tokens.refresh_token, env, opts);
  const tokens: TokenData = {
    ...current.tokens,
    id_token: fresh.id_token ?? current.tokens.id_token,
    access_token: fresh.access_token ?? current.tokens.access_token,
    refresh_token: fresh.refresh_token ?? current.tokens.refresh_token,
  };
  const now = new Date();
  writeAuthText(codexHome, chatgptAuthJson(tokens, now, current.raw));
  return { ...current, tokens, lastRefresh: now };
}

interface RefreshAnswer {
  id_token?: string;
  access_token?: string;
  refresh_token?: string;
}

async function requestRefresh(refreshToken: string, env: NodeJS.ProcessEnv, opts: RefreshOptions): Promise<RefreshAnswer> {
  // The reference's field order.
  const body = { client_id: CLIENT_ID, grant_type: "refresh_token", refresh_reason: opts.reason, refresh_token: refreshToken };
  let res;
  try {
    res = await postJson(refreshUrl(env), body, env, { headers: opts.clientHeaders ?? {} });
  } catch (err) {
    throw new RefreshError(false, `Could not reach the token endpoint to refresh the ChatGPT login: ${errorMessage(err)}`);
  }
  if (res.status >= 200 && res.status < 300) {
    try {
      const parsed = JSON.parse(res.text) as Record<string, unknown>;
      const pick = (k: string): string | undefined => (typeof parsed[k] === "string" && parsed[k] !== "" ? (parsed[k] as string) : undefined);
      return { id_token: pick("id_token"), access_token: pick("access_token"), refresh_token: pick("refresh_token") };
    } catch {
      throw new RefreshError(false, "The token endpoint's answer to a refresh is not JSON");
    }
  }
  const reasonText = permanentReason(res.text);
  if (reasonText !== null || res.status === 401) {
    throw new RefreshError(true, `${reasonText ?? "Your ChatGPT login could not be refreshed."} ${SIGN_IN_AGAIN}`);
  }
  throw new RefreshError(false, `Refreshing the ChatGPT login failed (HTTP ${res.status}): ${errorDetail(res.text)}`);
}

/** The reference's refresh error codes, each meaning the refresh token is unusable. */
function permanentReason(text: string): string | null {
  switch (errorCode(text)?.toLowerCase()) {
    case "refresh_token_expired":
      return "Your ChatGPT login has expired.";
    case "refresh_token_reused":
      return "Your ChatGPT login could not be refreshed: its refresh token was already used.";
    case "refresh_token_invalidated":
      return "Your ChatGPT login was revoked.";
    default:
      return null;
  }
}

/** `{"error": "code"}`, `{"error": {"code": "code"}}` or `{"code": "code"}`. */
function errorCode(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; code?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
    if (typeof parsed.error === "object" && parsed.error !== null) {
      const code = (parsed.error as { code?: unknown }).code;
      if (typeof code === "string") return code;
    }
    return typeof parsed.code === "string" ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}
