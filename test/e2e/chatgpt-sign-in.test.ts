/**
 * End-to-end: signing in with ChatGPT through the real CLI against a local issuer. The test
 * plays the browser: it reads the printed address, calls the issuer's authorize endpoint and
 * follows its redirect to codex-ts's callback server, then to the page it shows. Also the
 * device-code flow, over HTTP and over HTTPS with a test-made certificate authority
 * (CODEX_CA_CERTIFICATE), `login status`, `logout` and `login --import`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { makeCertificates } from "../support/certificates.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_PATH, makeWorkspace, runCli, testEnv } from "../support/cli.js";
import { follow, get } from "../support/browser.js";
import { DEFAULT_ACCOUNT, startIssuer, type Issuer } from "../support/issuer.js";

interface LoginRun {
  /** Resolves with the authorize URL once the CLI printed it. */
  url: Promise<string>;
  done: Promise<{ code: number | null; stderr: string; stdout: string }>;
}

function startLogin(home: string, issuer: Issuer, extraEnv: Record<string, string> = {}): LoginRun {
  const child = spawn(process.execPath, [CLI_PATH, "login"], {
    env: testEnv(home, { OPENAI_API_KEY: undefined, CODEX_TS_LOGIN_ISSUER: issuer.url, CODEX_TS_LOGIN_PORT: "0", BROWSER: "true", ...extraEnv }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  let found: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (found = resolve));
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    const line = stderr.split("\n").find((l) => l.startsWith(`${issuer.url}/oauth/authorize?`));
    if (line) found(line);
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const done = new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    }),
  );
  return { url, done };
}

function readAuth(home: string): { auth_mode: string; OPENAI_API_KEY: unknown; tokens: Record<string, string>; last_refresh: string } {
  return JSON.parse(readFileSync(join(home, "auth.json"), "utf8")) as { auth_mode: string; OPENAI_API_KEY: unknown; tokens: Record<string, string>; last_refresh: string };
}

void test("browser sign-in: PKCE and state, the callback saves the login (mode 0600), a success page, then status and logout", async () => {
  const issuer = await startIssuer();
  const ws = makeWorkspace();
  // Hold a port so the login server must fall back to another one.
  const blocker = http.createServer((_req, res) => res.end("busy"));
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const busyPort = (blocker.address() as { port: number }).port;
  try {
    const run = startLogin(ws.home, issuer, { CODEX_TS_LOGIN_PORT: String(busyPort) });
    const authorize = await run.url;
    const params = new URL(authorize).searchParams;
    assert.equal(params.get("client_id"), "app_EMoamEEZ73f0CkXaXp7hrann");
    assert.equal(params.get("code_challenge_method"), "S256");
    assert.equal(params.get("response_type"), "code");
    assert.match(params.get("scope") ?? "", /^openid profile email offline_access/);
    assert.match(params.get("state") ?? "", /^[A-Za-z0-9_-]{43}$/);
    const redirect = new URL(params.get("redirect_uri") ?? "");
    assert.equal(redirect.hostname, "localhost");
    assert.equal(redirect.pathname, "/auth/callback");
    assert.notEqual(Number(redirect.port), busyPort, "a busy port falls back to another");

    // A callback that does not carry our state is refused, and the login keeps waiting.
    const forged = await get(`http://127.0.0.1:${redirect.port}/auth/callback?code=x&state=forged`);
    assert.equal(forged.status, 400);

    const atIssuer = await get(authorize);
    assert.equal(atIssuer.status, 302);
    const callback = follow(authorize, atIssuer.location);
    const atCallback = await get(callback);
    assert.equal(atCallback.status, 302);
    const page = await get(follow(callback, atCallback.location));
    assert.equal(page.status, 200);
    assert.match(page.body, /You are signed in with your ChatGPT account/);

    const result = await run.done;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /No browser on this machine\? Run `codex-ts login --device-auth` instead\./);
    assert.match(result.stderr, /Successfully logged in\nAccount: dev@example\.com \(Plus plan\)\n$/);

    const file = join(ws.home, "auth.json");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const saved = readAuth(ws.home);
    assert.deepEqual(Object.keys(saved), ["auth_mode", "OPENAI_API_KEY", "tokens", "last_refresh"]);
    assert.equal(saved.auth_mode, "chatgpt");
    assert.equal(saved.OPENAI_API_KEY, null);
    assert.deepEqual(Object.keys(saved.tokens), ["id_token", "access_token", "refresh_token", "account_id"]);
    assert.equal(saved.tokens.account_id, DEFAULT_ACCOUNT.accountId);
    assert.equal(saved.tokens.access_token, issuer.validAccessToken);
    assert.ok(Math.abs(Date.parse(saved.last_refresh) - Date.now()) < 60_000);
    for (const token of Object.values(saved.tokens)) assert.ok(!result.stderr.includes(token), "no token is printed");
    const exchange = issuer.tokenCalls[0];
    assert.equal(exchange?.contentType, "application/x-www-form-urlencoded");
    assert.equal(exchange?.body.grant_type, "authorization_code");

    const status = await runCli(["login", "status"], { cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: undefined } });
    assert.equal(status.code, 0);
    assert.equal(status.stderr, "Logged in using ChatGPT\nAccount: dev@example.com (Plus plan)\n");
    const logout = await runCli(["logout"], { cwd: ws.dir, home: ws.home, env: { CODEX_TS_LOGIN_ISSUER: issuer.url } });
    assert.equal(logout.stderr, "Successfully logged out\n");
    assert.equal(existsSync(file), false);
    assert.deepEqual(issuer.revokeCalls.map((c) => [c.contentType, c.body]), [
      ["application/json", { token: saved.tokens.refresh_token, token_type_hint: "refresh_token", client_id: "app_EMoamEEZ73f0CkXaXp7hrann" }],
    ]);
  } finally {
    blocker.close();
    await issuer.close();
  }
});

void test("browser sign-in the issuer refuses: a failure page naming the reason, exit 1, nothing saved", async () => {
  const issuer = await startIssuer({ denyWith: { error: "access_denied", description: "Codex is not enabled for this workspace" } });
  const ws = makeWorkspace();
  try {
    const run = startLogin(ws.home, issuer);
    const authorize = await run.url;
    const atIssuer = await get(authorize);
    const page = await get(follow(authorize, atIssuer.location));
    assert.equal(page.status, 200);
    assert.match(page.body, /Sign-in did not complete/);
    assert.match(page.body, /Codex is not enabled for this workspace/);
    const result = await run.done;
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Error logging in: Sign-in failed: Codex is not enabled for this workspace\n$/);
    assert.equal(existsSync(join(ws.home, "auth.json")), false);
  } finally {
    await issuer.close();
  }
});

void test("device-code sign-in: prints the page and code, polls until the code is entered, saves the login", async () => {
  const issuer = await startIssuer({ devicePendingPolls: 3 });
  const ws = makeWorkspace();
  try {
    const r = await runCli(["login", "--device-auth"], { cwd: ws.dir, home: ws.home, env: { CODEX_TS_LOGIN_ISSUER: issuer.url, OPENAI_API_KEY: undefined } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`1\\. Open ${issuer.url}/codex/device and sign in\\.`));
    assert.match(r.stderr, /Enter this one-time code \(valid for 15 minutes\): ABCD-1234/);
    assert.match(r.stderr, /Successfully logged in\nAccount: dev@example\.com \(Plus plan\)\n$/);
    assert.equal(issuer.devicePolls, 4, "three pending answers, then the code");
    const exchange = issuer.tokenCalls.at(-1);
    assert.equal(exchange?.body.redirect_uri, `${issuer.url}/deviceauth/callback`);
    assert.equal(readAuth(ws.home).tokens.access_token, issuer.validAccessToken);

    // config.toml's restrictions apply to signing in too.
    const restricted = makeWorkspace({ config: 'forced_chatgpt_workspace_id = "ws-other"\n' });
    const wrongWorkspace = await runCli(["login", "--device-auth"], { cwd: restricted.dir, home: restricted.home, env: { CODEX_TS_LOGIN_ISSUER: issuer.url } });
    assert.equal(wrongWorkspace.code, 1);
    assert.match(wrongWorkspace.stderr, /Error logging in: this configuration allows only workspace ws-other/);
    assert.equal(existsSync(join(restricted.home, "auth.json")), false);
    const apiOnly = makeWorkspace({ config: 'forced_login_method = "api"\n' });
    const refused = await runCli(["login", "--device-auth"], { cwd: apiOnly.dir, home: apiOnly.home, env: { CODEX_TS_LOGIN_ISSUER: issuer.url } });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /ChatGPT sign-in is turned off here \(forced_login_method = "api"\)/);
  } finally {
    await issuer.close();
  }
});

void test("CODEX_CA_CERTIFICATE: sign-in over HTTPS trusts the named bundle, and fails without it", async (t) => {
  const certs = makeCertificates();
  if (!certs) return t.skip("openssl is not installed");
  const issuer = await startIssuer({ tls: { key: certs.key, cert: certs.cert }, devicePendingPolls: 0 });
  try {
    const ws = makeWorkspace();
    const env = { CODEX_TS_LOGIN_ISSUER: issuer.url, OPENAI_API_KEY: undefined, SSL_CERT_FILE: undefined, NODE_EXTRA_CA_CERTS: undefined };
    const untrusted = await runCli(["login", "--device-auth"], { cwd: ws.dir, home: ws.home, env });
    assert.equal(untrusted.code, 1);
    assert.match(untrusted.stderr, /^Error logging in: .*certificate/m);
    const trusted = await runCli(["login", "--device-auth"], { cwd: ws.dir, home: ws.home, env: { ...env, CODEX_CA_CERTIFICATE: certs.caFile } });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(readAuth(ws.home).auth_mode, "chatgpt");
    const missing = await runCli(["login", "--device-auth"], { cwd: ws.dir, home: ws.home, env: { ...env, CODEX_CA_CERTIFICATE: join(ws.home, "nope.pem") } });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /CODEX_CA_CERTIFICATE: cannot read .*nope\.pem/);
  } finally {
    await issuer.close();
  }
});

void test("login --import copies the reference's login without touching its file; a missing one is a clear error", async () => {
  const issuer = await startIssuer();
  try {
    const ws = makeWorkspace();
    const fakeHome = mkdtempSync(join(tmpdir(), "codex-ts-userhome-"));
    const referenceHome = join(fakeHome, ".codex");
    mkdirSync(referenceHome);
    const text = `${JSON.stringify({ auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { ...issuer.issue(), account_id: DEFAULT_ACCOUNT.accountId }, last_refresh: "2025-06-01T10:00:00.123456789Z", agent_identity: null }, null, 2)}`;
    const source = join(referenceHome, "auth.json");
    writeFileSync(source, text, { mode: 0o600 });
    const before = statSync(source);

    const r = await runCli(["login", "--import"], { cwd: ws.dir, home: ws.home, env: { HOME: fakeHome } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `Imported the login from ${referenceHome}/auth.json (that file was not changed).\nSuccessfully logged in\nAccount: dev@example.com (Plus plan)\n`);
    assert.equal(readFileSync(join(ws.home, "auth.json"), "utf8"), `${text}\n`, "copied as it is, unknown fields included");
    assert.equal(statSync(join(ws.home, "auth.json")).mode & 0o777, 0o600);
    assert.equal(readFileSync(source, "utf8"), text);
    assert.equal(statSync(source).mtimeMs, before.mtimeMs);

    const other = makeWorkspace();
    const named = await runCli(["login", "--import", referenceHome], { cwd: other.dir, home: other.home, env: { HOME: "/nonexistent" } });
    assert.equal(named.code, 0, named.stderr);

    const none = await runCli(["login", "--import", join(fakeHome, "missing")], { cwd: ws.dir, home: makeWorkspace().home });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^Error logging in: no login to import: .*missing\/auth\.json does not exist/);
  } finally {
    await issuer.close();
  }
});
