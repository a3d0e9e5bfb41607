import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chatgptAuthJson, readAuthFile, writeAuthText, type ChatgptLogin, type TokenData } from "./auth-file.js";
import { idTokenClaims, jwtExpiresAt } from "./jwt.js";
import { ChatGptCredentials } from "./chatgpt-credentials.js";
import { AUTH_LOCK_OPTIONS, needsRefresh, refreshLogin, REFRESH_INTERVAL_MS, RefreshError } from "./refresh.js";
import { withLockFile } from "../util/lock-file.js";

function jwt(claims: Record<string, unknown>): string {
  const part = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "none" })}.${part(claims)}.sig`;
}

function login(accessClaims: Record<string, unknown>, lastRefresh: Date | null = new Date()): ChatgptLogin {
  const tokens: TokenData = { id_token: jwt({}), access_token: jwt(accessClaims), refresh_token: "rt", account_id: "acct" };
  return { kind: "chatgpt", tokens, lastRefresh, apiKey: null, raw: {} };
}

const now = Date.now();
const seconds = (ms: number): number => Math.floor(ms / 1000);

void test("id token claims: email (or the profile's), plan, account and user ids; exp in milliseconds", () => {
  const claims = idTokenClaims(jwt({ "https://api.openai.com/profile": { email: "p@example.com" }, "https://api.openai.com/auth": { chatgpt_plan_type: "team", chatgpt_account_id: "ws-1", user_id: "u-1" } }));
  assert.deepEqual(claims, { email: "p@example.com", planType: "team", accountId: "ws-1", userId: "u-1" });
  assert.deepEqual(idTokenClaims("not-a-jwt"), { email: null, planType: null, accountId: null, userId: null });
  assert.equal(jwtExpiresAt(jwt({ exp: 1_700_000_000 })), 1_700_000_000_000);
  assert.equal(jwtExpiresAt(jwt({})), null);
});

void test("refresh timing: a few minutes before exp, never while the token has long to live; 8 days after last_refresh without exp", () => {
  assert.equal(needsRefresh(login({ exp: seconds(now + 60_000) }), now), true, "a minute left");
  assert.equal(needsRefresh(login({ exp: seconds(now - 1000) }), now), true, "expired");
  assert.equal(needsRefresh(login({ exp: seconds(now + 3_600_000) }), now), false, "an hour left");
  assert.equal(needsRefresh(login({ exp: seconds(now + 3_600_000) }, new Date(now - 30 * REFRESH_INTERVAL_MS)), now), false, "exp decides when present");
  assert.equal(needsRefresh(login({}, new Date(now - REFRESH_INTERVAL_MS - 1000)), now), true);
  assert.equal(needsRefresh(login({}, new Date(now - REFRESH_INTERVAL_MS + 60_000)), now), false);
  assert.equal(needsRefresh(login({}, null), now), false);
});

void test("under the lock, tokens another process already refreshed are used without asking the token endpoint", async () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-refresh-"));
  const seen = login({ exp: seconds(now - 1000) });
  const newer: TokenData = { ...seen.tokens, access_token: jwt({ exp: seconds(now + 3_600_000), n: 2 }), refresh_token: "rt-2" };
  writeAuthText(home, chatgptAuthJson(newer, new Date()));
  // A token endpoint that cannot be reached: any request would fail the call.
  const env = { CODEX_REFRESH_TOKEN_URL_OVERRIDE: "http://127.0.0.1:9/oauth/token" };
  const result = await refreshLogin(home, env, seen, { force: true, reason: "unauthorized_recovery" });
  assert.equal(result.tokens.access_token, newer.access_token);
  assert.equal(existsSync(join(home, "auth.json.lock")), false, "the lock is released");

  // Signed out meanwhile: a clear, permanent error.
  writeFileSync(join(home, "auth.json"), JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: "sk-x" }));
  await assert.rejects(refreshLogin(home, env, seen, { force: true, reason: "unauthorized_recovery" }), (err: unknown) => err instanceof RefreshError && err.permanent && /codex-ts login/.test(err.message));
  assert.equal(readAuthFile(home)?.kind, "api-key", "the file is left alone");
});

void test("a lock left by a process that has exited is taken over; a live holder is waited for", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-lock-"));
  const lock = join(dir, "auth.json.lock");
  const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
  writeFileSync(lock, `${gone}\n`);
  assert.equal(await withLockFile(lock, async () => readFileSync(lock, "utf8"), AUTH_LOCK_OPTIONS), `${process.pid}\n`);
  assert.equal(existsSync(lock), false);

  const order: string[] = [];
  const first = withLockFile(lock, async () => {
    order.push("first:start");
    await new Promise((resolve) => setTimeout(resolve, 150));
    order.push("first:end");
  }, AUTH_LOCK_OPTIONS);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const second = withLockFile(lock, async () => {
    order.push("second");
  }, AUTH_LOCK_OPTIONS);
  await Promise.all([first, second]);
  assert.deepEqual(order, ["first:start", "first:end", "second"]);
});

void test("the empty auth.json.lock the reference CLI leaves behind is taken over in seconds, not a minute", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-lock-"));
  const lock = join(dir, "auth.json.lock");
  writeFileSync(lock, "");
  const fiveSecondsAgo = new Date(Date.now() - 5_000);
  utimesSync(lock, fiveSecondsAgo, fiveSecondsAgo);
  assert.equal(await withLockFile(lock, async () => readFileSync(lock, "utf8"), AUTH_LOCK_OPTIONS), `${process.pid}\n`);

  // A lock just created (its holder about to write its pid) is still waited for.
  writeFileSync(lock, "");
  let entered = false;
  const waiting = withLockFile(lock, async () => {
    entered = true;
  }, AUTH_LOCK_OPTIONS);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(entered, false);
  await waiting;
  assert.equal(entered, true);
});

void test("a network failure or a 5xx from the token endpoint keeps the current token for the request; auth.json and the lock are left clean", async () => {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      requests.push(body);
      res.writeHead(503, { "content-type": "application/json" }).end('{"error":"temporarily_unavailable"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    for (const url of [`http://127.0.0.1:${port}/oauth/token`, "http://127.0.0.1:9/oauth/token"]) {
      const home = mkdtempSync(join(tmpdir(), "codex-ts-refresh-"));
      const expiring = login({ exp: seconds(Date.now() + 60_000) });
      writeAuthText(home, chatgptAuthJson(expiring.tokens, new Date()));
      const before = readFileSync(join(home, "auth.json"), "utf8");
      const credentials = new ChatGptCredentials(home, { CODEX_REFRESH_TOKEN_URL_OVERRIDE: url }, expiring);
      assert.deepEqual(await credentials.headers(), { authorization: `Bearer ${expiring.tokens.access_token}`, "chatgpt-account-id": "acct" });
      assert.equal(readFileSync(join(home, "auth.json"), "utf8"), before, "the login on disk is untouched");
      assert.deepEqual(readdirSync(home), ["auth.json"], "no lock is left behind");
      // After a 401 there is no token to fall back on: the failure is reported, as passing.
      await assert.rejects(credentials.afterUnauthorized(), (err: unknown) => err instanceof RefreshError && !err.permanent);
    }
    assert.equal(requests.length, 2, "the 5xx endpoint was asked once per attempt");
    assert.match(requests[0] ?? "", /"refresh_token":"rt"/);
  } finally {
    server.close();
  }
});
