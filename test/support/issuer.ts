/**
 * A stand-in for OpenAI's auth server, for the sign-in and refresh tests: the browser flow's
 * authorize endpoint (redirecting to the callback with a code, or with an error), the token
 * endpoint (authorization code with PKCE S256 checked, refresh tokens rotated on every use and
 * refused once used or revoked, with the reference's error codes) and the device-code endpoints.
 * Tokens are unsigned JWTs carrying the claims codex-ts reads. Serves HTTP on 127.0.0.1, or
 * HTTPS when given a key and certificate.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import http from "node:http";
import https from "node:https";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readRequestText, sendJson as json } from "./http-util.js";

export const TEST_CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";

export interface Account {
  email: string;
  plan: string;
  accountId: string;
}

export interface IssuerOptions {
  account?: Account;
  /** Lifetime of issued access tokens, in seconds (default an hour). */
  accessTtlSec?: number;
  /** Delay before answering a refresh, to widen races between processes. */
  refreshDelayMs?: number;
  /** Answer the authorize step with this OAuth error instead of a code. */
  denyWith?: { error: string; description?: string };
  /** Polls of the device-code token endpoint answered 403 before the code counts as entered. */
  devicePendingPolls?: number;
  tls?: { key: string; cert: string };
}

export interface RecordedCall {
  path: string;
  contentType: string;
  body: Record<string, string>;
  /** The request's headers (originator and User-Agent are checked on refreshes). */
  headers: Record<string, string | string[] | undefined>;
}

export interface Tokens {
  id_token: string;
  access_token: string;
  refresh_token: string;
}

export interface Issuer {
  url: string;
  /** Every POST to /oauth/token, in order. */
  tokenCalls: RecordedCall[];
  /** The refresh requests among them. */
  refreshCalls(): RecordedCall[];
  /** Every POST to /oauth/revoke. */
  revokeCalls: RecordedCall[];
  /** Every poll of the device-code token endpoint. */
  devicePolls: number;
  /** The access token the model server should accept now (null once expired by the test). */
  validAccessToken: string | null;
  /** Issues a fresh set, as a sign-in would (the refresh token becomes the only valid one). */
  issue(accessTtlSec?: number): Tokens;
  /** Makes every access token issued so far unacceptable (the model server then answers 401). */
  expireAccessTokens(): void;
  /** Revokes every refresh token: refreshing then fails with `refresh_token_invalidated`. */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

export function jwt(claims: Record<string, unknown>): string {
  const part = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.c2lnbmF0dXJl`;
}

export const DEFAULT_ACCOUNT: Account = { email: "dev@example.com", plan: "plus", accountId: "acct-test-123" };

/** Writes `$CODEX_HOME/auth.json` holding a ChatGPT login with these tokens, as a sign-in leaves it. */
export function saveChatgptLogin(codexHome: string, tokens: Tokens, lastRefresh = new Date()): void {
  const auth = { auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { ...tokens, account_id: DEFAULT_ACCOUNT.accountId }, last_refresh: lastRefresh.toISOString() };
  writeFileSync(join(codexHome, "auth.json"), JSON.stringify(auth, null, 2), { mode: 0o600 });
}

export async function startIssuer(opts: IssuerOptions = {}): Promise<Issuer> {
  const account = opts.account ?? DEFAULT_ACCOUNT;
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  /** Refresh tokens: true while usable, false once used (rotated). */
  const refreshTokens = new Map<string, boolean>();
  let revoked = false;
  let serial = 0;
  const tokenCalls: RecordedCall[] = [];
  const revokeCalls: RecordedCall[] = [];
  const device = { id: `dev-${randomBytes(4).toString("hex")}`, userCode: "ABCD-1234", verifier: "", challenge: "" };

  const issue = (ttl = opts.accessTtlSec ?? 3600): Tokens => {
    serial += 1;
    const now = Math.floor(Date.now() / 1000);
    const auth = { chatgpt_plan_type: account.plan, chatgpt_account_id: account.accountId, chatgpt_user_id: "user-test" };
    const tokens = {
      id_token: jwt({ iss: "test-issuer", email: account.email, exp: now + 3600, "https://api.openai.com/auth": auth }),
      access_token: jwt({ iss: "test-issuer", exp: now + ttl, n: serial, "https://api.openai.com/auth": auth }),
      refresh_token: `rt-${serial}-${randomBytes(8).toString("hex")}`,
    };
    refreshTokens.set(tokens.refresh_token, true);
    state.validAccessToken = tokens.access_token;
    return tokens;
  };

  const state: Issuer = {
    url: "",
    tokenCalls,
    revokeCalls,
    refreshCalls: () => tokenCalls.filter((c) => c.body.grant_type === "refresh_token"),
    devicePolls: 0,
    validAccessToken: null,
    issue,
    expireAccessTokens: () => {
      state.validAccessToken = null;
    },
    revokeRefreshTokens: () => {
      revoked = true;
    },
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://issuer");
    const raw = await readRequestText(req);
    const contentType = req.headers["content-type"] ?? "";
    const body: Record<string, string> = contentType.startsWith("application/json")
      ? (JSON.parse(raw || "{}") as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(raw));

    if (req.method === "GET" && url.pathname === "/oauth/authorize") {
      const q = url.searchParams;
      const redirect = new URL(q.get("redirect_uri") ?? "");
      if (q.get("client_id") !== TEST_CLIENT_ID || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge") || q.get("response_type") !== "code") {
        return json(res, 400, { error: "invalid_request" });
      }
      redirect.searchParams.set("state", q.get("state") ?? "");
      if (opts.denyWith) {
        redirect.searchParams.set("error", opts.denyWith.error);
        if (opts.denyWith.description) redirect.searchParams.set("error_description", opts.denyWith.description);
      } else {
        const code = `code-${randomBytes(8).toString("hex")}`;
        codes.set(code, { challenge: q.get("code_challenge") ?? "", redirectUri: q.get("redirect_uri") ?? "" });
        redirect.searchParams.set("code", code);
      }
      res.writeHead(302, { location: redirect.toString() });
      res.end();
      return;
    }

    if (req.method === "POST" && url.pathname === "/oauth/token") {
      tokenCalls.push({ path: url.pathname, contentType, body, headers: { ...req.headers } });
      if (body.client_id !== TEST_CLIENT_ID) return json(res, 400, { error: "invalid_client" });
      if (body.grant_type === "authorization_code") {
        const grant = codes.get(body.code ?? "");
        codes.delete(body.code ?? "");
        const challenge = createHash("sha256").update(body.code_verifier ?? "").digest("base64url");
        if (!grant || grant.challenge !== challenge || grant.redirectUri !== body.redirect_uri) {
          return json(res, 400, { error: "invalid_grant", error_description: "the code, verifier or redirect_uri does not match" });
        }
        return json(res, 200, issue());
      }
      if (body.grant_type === "refresh_token") {
        if (opts.refreshDelayMs) await new Promise((resolve) => setTimeout(resolve, opts.refreshDelayMs));
        const usable = refreshTokens.get(body.refresh_token ?? "");
        if (revoked) return json(res, 401, { error: { message: "revoked", code: "refresh_token_invalidated" } });
        if (usable === false) return json(res, 401, { error: { message: "already used", code: "refresh_token_reused" } });
        if (usable !== true) return json(res, 401, { error: { message: "unknown", code: "refresh_token_expired" } });
        refreshTokens.set(body.refresh_token ?? "", false);
        return json(res, 200, issue());
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }

    if (req.method === "POST" && url.pathname === "/oauth/revoke") {
      revokeCalls.push({ path: url.pathname, contentType, body, headers: { ...req.headers } });
      if (body.token_type_hint === "refresh_token") refreshTokens.set(body.token ?? "", false);
      return json(res, 200, {});
    }
    if (req.method === "POST" && url.pathname === "/api/accounts/deviceauth/usercode") {
      if (body.client_id !== TEST_CLIENT_ID) return json(res, 400, { error: "invalid_client" });
      device.verifier = randomBytes(32).toString("base64url");
      device.challenge = createHash("sha256").update(device.verifier).digest("base64url");
      return json(res, 200, { device_auth_id: device.id, user_code: device.userCode, interval: "0" });
    }
    if (req.method === "POST" && url.pathname === "/api/accounts/deviceauth/token") {
      state.devicePolls += 1;
      if (body.device_auth_id !== device.id || body.user_code !== device.userCode) return json(res, 400, { error: "bad device code" });
      if (state.devicePolls <= (opts.devicePendingPolls ?? 2)) return json(res, 403, { error: "authorization_pending" });
      const code = `code-${randomBytes(8).toString("hex")}`;
      codes.set(code, { challenge: device.challenge, redirectUri: `${state.url}/deviceauth/callback` });
      return json(res, 200, { authorization_code: code, code_challenge: device.challenge, code_verifier: device.verifier });
    }
    json(res, 404, { error: "not_found" });
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((err: unknown) => json(res, 500, { error: String(err) }));
  };
  const server: Server = opts.tls ? https.createServer(opts.tls, listener) : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("issuer: no TCP address");
  state.url = `${opts.tls ? "https" : "http"}://127.0.0.1:${address.port}`;
  return state;
}
