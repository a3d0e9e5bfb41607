/**
 * End-to-end: runs that use a ChatGPT login. `codex-ts exec` against the scripted model server
 * (as the Codex backend, via chatgpt_base_url) and a local issuer (the token endpoint):
 * the backend path and headers, refresh shortly before expiry (and not while the token has long
 * to live), one refresh after a 401, two processes refreshing at once, a revoked login, a
 * corrupt auth.json, the login-method settings, and that no token leaks into output, command
 * environments or any file other than auth.json.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { errorTurn, fnCall, text, turn, type ModelServer } from "../support/model-server.js";
import { filesUnder, makeWorkspace, runCli, withServer, type CliResult, type Workspace } from "../support/cli.js";
import { DEFAULT_ACCOUNT, saveChatgptLogin, startIssuer, type Issuer } from "../support/issuer.js";
import { startHttpReceiver } from "../support/otlp-receiver.js";
import { makeCertificates } from "../support/certificates.js";
import http from "node:http";
import https from "node:https";

/** Only auth.json may supply credentials. */
const NO_ENV_KEY = { OPENAI_API_KEY: undefined, CODEX_API_KEY: undefined };

function savedTokens(ws: Workspace): Record<string, string> {
  return (JSON.parse(readFileSync(join(ws.home, "auth.json"), "utf8")) as { tokens: Record<string, string> }).tokens;
}

/** exec with the model server as the Codex backend and the issuer as the token endpoint. */
function execChatgpt(server: ModelServer, issuer: Issuer, ws: Workspace, args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runCli(["exec", "-c", `chatgpt_base_url="${server.chatgptBaseUrl}"`, ...args], {
    cwd: ws.dir,
    home: ws.home,
    env: { ...NO_ENV_KEY, CODEX_REFRESH_TOKEN_URL_OVERRIDE: `${issuer.url}/oauth/token`, ...env },
  });
}

/** No token in the run's output or in any file but auth.json. */
function assertNoTokenLeaks(ws: Workspace, result: CliResult, tokens: string[]): void {
  for (const token of tokens) {
    assert.ok(!result.stdout.includes(token) && !result.stderr.includes(token), "a token leaked into the output");
    for (const file of filesUnder(ws.home)) {
      if (file === join(ws.home, "auth.json")) continue;
      assert.ok(!readFileSync(file, "utf8").includes(token), `a token leaked into ${file}`);
    }
  }
}

void test("a ChatGPT login sends requests to the Codex backend with its token, account id, originator and version", async () => {
  const issuer = await startIssuer();
  const ws = makeWorkspace();
  const tokens = issuer.issue();
  saveChatgptLogin(ws.home, tokens);
  try {
    await withServer([turn(fnCall("exec_command", { cmd: "env" }, "call_env")), turn(text("Done."))], async (server) => {
      server.requireAuth({ bearer: tokens.access_token, accountId: DEFAULT_ACCOUNT.accountId });
      const r = await execChatgpt(server, issuer, ws, ["-s", "danger-full-access", "-c", "shell_environment_policy.inherit=all", "print env"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Done.\n");
      const first = server.requests[0];
      assert.equal(first?.path, "/backend-api/codex/responses");
      assert.equal(first?.headers.authorization, `Bearer ${tokens.access_token}`);
      assert.equal(first?.headers["chatgpt-account-id"], DEFAULT_ACCOUNT.accountId);
      assert.equal(first?.headers.originator, "codex_exec");
      assert.match(String(first?.headers.version), /^\d+\.\d+\.\d+/);
      assert.match(String(first?.headers["user-agent"]), /^codex_exec\//);
      assert.equal(issuer.refreshCalls().length, 0, "a token with an hour to live is not refreshed");
      const output = String((server.requests[1]?.body.input ?? []).find((i) => i.type === "function_call_output")?.output ?? "");
      assert.match(output, /PATH=/);
      for (const token of Object.values(tokens)) assert.ok(!output.includes(token), "a token reached the command's environment");
      assertNoTokenLeaks(ws, r, Object.values(tokens));
    });
  } finally {
    await issuer.close();
  }
});

void test("a token about to expire is refreshed first; the new tokens are written back atomically with mode 0600", async () => {
  const issuer = await startIssuer();
  const ws = makeWorkspace();
  const old = issuer.issue(60); // Expires within the refresh margin.
  saveChatgptLogin(ws.home, old, new Date(Date.now() - 3_600_000));
  try {
    await withServer([turn(text("Fresh."))], async (server) => {
      server.requireAuth({ bearer: () => issuer.validAccessToken ?? "none", accountId: DEFAULT_ACCOUNT.accountId });
      const r = await execChatgpt(server, issuer, ws, ["hi"]);
      assert.equal(r.code, 0, r.stderr);
      const [refresh, ...more] = issuer.refreshCalls();
      assert.equal(more.length, 0);
      assert.equal(refresh?.contentType, "application/json");
      // The reference's body and headers (captured from its 0.169 binary): the reason, originator and User-Agent.
      assert.deepEqual(refresh?.body, { client_id: "app_EMoamEEZ73f0CkXaXp7hrann", grant_type: "refresh_token", refresh_reason: "proactive_expiry", refresh_token: old.refresh_token });
      assert.equal(refresh?.headers.originator, "codex_exec");
      assert.match(String(refresh?.headers["user-agent"]), /^codex_exec\/\d+\.\d+\.\d+ \(/);
      assert.equal(server.rejected.length, 0, "the request went out with the refreshed token");
      const saved = savedTokens(ws);
      assert.equal(saved.access_token, issuer.validAccessToken);
      assert.notEqual(saved.refresh_token, old.refresh_token);
      assert.equal(saved.account_id, DEFAULT_ACCOUNT.accountId);
      const file = JSON.parse(readFileSync(join(ws.home, "auth.json"), "utf8")) as { last_refresh: string };
      assert.ok(Date.now() - Date.parse(file.last_refresh) < 60_000, "last_refresh is updated");
      assert.equal(statSync(join(ws.home, "auth.json")).mode & 0o777, 0o600);
      assert.deepEqual(readdirSync(ws.home).filter((f) => f.includes("auth")), ["auth.json"], "no temporary or lock file is left");
      assertNoTokenLeaks(ws, r, [...Object.values(old), ...Object.values(saved)]);
    });
  } finally {
    await issuer.close();
  }
});

void test("a 401 from the backend refreshes once and retries; a second 401 ends the run", async () => {
  const issuer = await startIssuer();
  const ws = makeWorkspace();
  const tokens = issuer.issue();
  saveChatgptLogin(ws.home, tokens);
  issuer.expireAccessTokens(); // Still an hour by its exp, but the backend no longer takes it.
  try {
    await withServer([turn(text("Recovered."))], async (server) => {
      server.requireAuth({ bearer: () => issuer.validAccessToken ?? "none" });
      const r = await execChatgpt(server, issuer, ws, ["hi"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Recovered.\n");
      assert.equal(server.rejected.length, 1);
      assert.equal(server.rejected[0]?.headers.authorization, `Bearer ${tokens.access_token}`);
      assert.equal(issuer.refreshCalls().length, 1);
      assert.equal(issuer.refreshCalls()[0]?.body.refresh_reason, "unauthorized_recovery");
      assert.equal(server.requests[0]?.headers.authorization, `Bearer ${issuer.validAccessToken}`);
    });
    await withServer([], async (server) => {
      server.requireAuth({ bearer: "never-valid" });
      const r = await execChatgpt(server, issuer, ws, ["hi"]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /rejected the login even after refreshing it \(HTTP 401\)\. Sign in again with `codex-ts login`\./);
      assert.equal(server.rejected.length, 2, "one retry with refreshed tokens, no more");
      assert.equal(issuer.refreshCalls().length, 2);
    });
  } finally {
    await issuer.close();
  }
});

void test("two processes refreshing at once: one refresh reaches the token endpoint, both runs succeed", async () => {
  const issuer = await startIssuer({ refreshDelayMs: 400 });
  const ws = makeWorkspace();
  saveChatgptLogin(ws.home, issuer.issue(30));
  try {
    await withServer([turn(text("one")), turn(text("two"))], async (server) => {
      server.requireAuth({ bearer: () => issuer.validAccessToken ?? "none" });
      const [a, b] = await Promise.all([execChatgpt(server, issuer, ws, ["first"]), execChatgpt(server, issuer, ws, ["second"])]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      assert.equal(issuer.refreshCalls().length, 1, "the second process used the tokens the first one saved");
      assert.equal(savedTokens(ws).access_token, issuer.validAccessToken);
      assert.deepEqual(readdirSync(ws.home).filter((f) => f.includes("auth")), ["auth.json"]);
    });
  } finally {
    await issuer.close();
  }
});

void test("a revoked refresh token says to sign in again, and leaves auth.json as it was", async () => {
  const issuer = await startIssuer();
  const ws = makeWorkspace();
  const tokens = issuer.issue(10);
  saveChatgptLogin(ws.home, tokens);
  const before = readFileSync(join(ws.home, "auth.json"), "utf8");
  issuer.revokeRefreshTokens();
  try {
    await withServer([], async (server) => {
      const r = await execChatgpt(server, issuer, ws, ["hi"]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /Your ChatGPT login was revoked\. Sign in again with `codex-ts login`\./);
      assert.equal(server.requests.length, 0, "no request goes out with a login that is gone");
      assert.equal(readFileSync(join(ws.home, "auth.json"), "utf8"), before);
      assertNoTokenLeaks(ws, r, Object.values(tokens));
    });
  } finally {
    await issuer.close();
  }
});

void test("a corrupt auth.json is a clear error naming the file, and is not overwritten", async () => {
  const ws = makeWorkspace();
  const file = join(ws.home, "auth.json");
  const corrupt = '{"auth_mode": "chatgpt", "tokens": {"access_token": "secret-partial-token"';
  writeFileSync(file, corrupt);
  await withServer([], async (server) => {
    const r = await runCli(["exec", "-c", `chatgpt_base_url="${server.chatgptBaseUrl}"`, "hi"], { cwd: ws.dir, home: ws.home, env: NO_ENV_KEY });
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not valid JSON`));
    assert.ok(!r.stderr.includes("secret-partial-token"));
    assert.equal(readFileSync(file, "utf8"), corrupt);
  });
  const status = await runCli(["login", "status"], { cwd: ws.dir, home: ws.home, env: NO_ENV_KEY });
  assert.equal(status.code, 1);
  assert.match(status.stderr, /is not valid JSON/);
});

void test("login methods: a ChatGPT login wins over OPENAI_API_KEY unless preferred_auth_method or forced_login_method say otherwise", async () => {
  const issuer = await startIssuer();
  const ws = makeWorkspace();
  const tokens = issuer.issue();
  saveChatgptLogin(ws.home, tokens);
  const loginText = readFileSync(join(ws.home, "auth.json"), "utf8");
  try {
    await withServer([turn(text("a")), turn(text("b")), turn(text("c"))], async (server) => {
      const withKey = { OPENAI_API_KEY: "sk-env-key" };
      const chatgpt = await execChatgpt(server, issuer, ws, ["hi"], withKey);
      assert.equal(chatgpt.code, 0, chatgpt.stderr);
      // The key goes to the provider's own base URL, so point that at the server too.
      const viaKey = ["-c", `openai_base_url="${server.url}"`];
      const preferred = await execChatgpt(server, issuer, ws, [...viaKey, "-c", 'preferred_auth_method="apikey"', "hi"], withKey);
      assert.equal(preferred.code, 0, preferred.stderr);
      const codexKey = await execChatgpt(server, issuer, ws, [...viaKey, "hi"], { CODEX_API_KEY: "sk-codex-key" });
      assert.equal(codexKey.code, 0, codexKey.stderr);
      assert.deepEqual(
        server.requests.map((r) => r.headers.authorization),
        [`Bearer ${tokens.access_token}`, "Bearer sk-env-key", "Bearer sk-codex-key"],
      );

      const forcedApi = await execChatgpt(server, issuer, ws, ["-c", 'forced_login_method="api"', "hi"]);
      assert.equal(forcedApi.code, 1);
      assert.match(forcedApi.stderr, /forced_login_method = "api" allows only an API key, but auth\.json holds a ChatGPT login/);
      // Unlike the reference, which deletes auth.json here ("Logging out"), the login is kept.
      assert.equal(readFileSync(join(ws.home, "auth.json"), "utf8"), loginText);
      const workspace = await execChatgpt(server, issuer, ws, ["-c", 'forced_chatgpt_workspace_id=["ws-other"]', "hi"]);
      assert.equal(workspace.code, 1);
      assert.match(workspace.stderr, /forced_chatgpt_workspace_id allows only workspace ws-other, but the saved ChatGPT login belongs to workspace acct-test-123/);
      assert.equal(readFileSync(join(ws.home, "auth.json"), "utf8"), loginText);
      const other = makeWorkspace();
      const forcedChatgpt = await runCli(["exec", "-c", 'forced_login_method="chatgpt"', "hi"], { cwd: other.dir, home: other.home, env: { OPENAI_API_KEY: "sk-env-key" } });
      assert.equal(forcedChatgpt.code, 1);
      assert.match(forcedChatgpt.stderr, /forced_login_method = "chatgpt" allows only a ChatGPT login\. Sign in with `codex-ts login`\./);
      assert.equal(server.requests.length, 3);
    });
  } finally {
    await issuer.close();
  }
});

void test("telemetry of a ChatGPT run carries auth_mode and the account id on every event, and no token", async () => {
  const issuer = await startIssuer();
  const receiver = await startHttpReceiver();
  const ws = makeWorkspace({ config: `[otel]\nexporter = { otlp-http = { endpoint = "${receiver.endpoint}", protocol = "json" } }\n` });
  const tokens = issuer.issue();
  saveChatgptLogin(ws.home, tokens);
  try {
    await withServer([turn(text("ok"))], async (server) => {
      const r = await execChatgpt(server, issuer, ws, ["hi"]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(receiver.records.length > 0);
      for (const record of receiver.records) {
        assert.equal(record.attributes.auth_mode, "chatgpt");
        assert.equal(record.attributes["user.account_id"], DEFAULT_ACCOUNT.accountId);
      }
      const everything = JSON.stringify({ records: receiver.records, headers: receiver.headers });
      for (const token of Object.values(tokens)) assert.ok(!everything.includes(token), "no token is exported");
    });
  } finally {
    await receiver.close();
    await issuer.close();
  }
});

void test("CODEX_CA_CERTIFICATE: the refresh and the model request go over HTTPS trusting the named bundle", async (t) => {
  const certs = makeCertificates();
  if (!certs) return t.skip("openssl is not installed");
  const issuer = await startIssuer({ tls: { key: certs.key, cert: certs.cert } });
  const ws = makeWorkspace();
  saveChatgptLogin(ws.home, issuer.issue(30));
  try {
    await withServer([turn(text("Secure."))], async (server) => {
      server.requireAuth({ bearer: () => issuer.validAccessToken ?? "none" });
      // The backend over HTTPS: a TLS front for the scripted server.
      const target = new URL(server.chatgptBaseUrl);
      const front = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
        const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        req.pipe(upstream);
      });
      await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
      const secureBase = `https://127.0.0.1:${(front.address() as { port: number }).port}/backend-api/`;
      try {
        const r = await runCli(["exec", "-c", `chatgpt_base_url="${secureBase}"`, "hi"], {
          cwd: ws.dir,
          home: ws.home,
          env: { ...NO_ENV_KEY, CODEX_REFRESH_TOKEN_URL_OVERRIDE: `${issuer.url}/oauth/token`, CODEX_CA_CERTIFICATE: certs.caFile, SSL_CERT_FILE: undefined, NODE_EXTRA_CA_CERTS: undefined },
        });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, "Secure.\n");
        assert.equal(issuer.refreshCalls().length, 1);
        assert.equal(server.requests.length, 1);
      } finally {
        front.close();
        front.closeAllConnections();
      }
    });
  } finally {
    await issuer.close();
  }
});

void test("a ChatGPT login the backend refuses (403) is told in terms of the login, not of an API key", async () => {
  const issuer = await startIssuer();
  const ws = makeWorkspace();
  saveChatgptLogin(ws.home, issuer.issue());
  try {
    const refusal = { error: { message: "Your workspace does not allow Codex", type: "invalid_request_error", code: "forbidden" } };
    await withServer([errorTurn(403, {}, refusal)], async (server) => {
      const r = await execChatgpt(server, issuer, ws, ["hi"]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /The Codex backend refused this ChatGPT login \(HTTP 403: Your workspace does not allow Codex\)\. Check that your plan includes Codex, or sign in again with `codex-ts login`\./);
      assert.doesNotMatch(r.stderr, /OPENAI_API_KEY|API key/);
      assert.equal(issuer.refreshCalls().length, 0, "a 403 is not a reason to refresh");
    });
  } finally {
    await issuer.close();
  }
});
