/**
 * End-to-end: the model list of a ChatGPT account. `codex-ts exec` with a ChatGPT login against
 * the scripted model server acting as the Codex backend (`GET …/codex/models`): the request as
 * the reference sends it, the default model taken from the list, the models_cache.json it
 * leaves and reuses, a stale cache used at once, a failing or absent list falling back to the
 * built-in default without a word, and a warning for a model the account does not list. Also:
 * an API key sends `version` and asks for no list, as the reference does.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listedModel, startModelServer, text, turn, type ModelListScript, type ModelServer } from "../support/model-server.js";
import { makeWorkspace, runCli, type CliResult, type Workspace } from "../support/cli.js";
import { DEFAULT_ACCOUNT, startIssuer, type Issuer } from "../support/issuer.js";
import { DEFAULT_MODEL } from "../../src/config/load-config.js";
import { packageVersion } from "../../src/util/version.js";

const ACCOUNT_MODELS = [listedModel("zz-hidden", 0, "hide"), listedModel("acct-model-b", 5), listedModel("acct-model-a", 2)];

interface Setup {
  server: ModelServer;
  issuer: Issuer;
  ws: Workspace;
  accessToken: string;
}

async function withChatgpt(list: ModelListScript | undefined, turns: number, body: (s: Setup) => Promise<void>): Promise<void> {
  const issuer = await startIssuer();
  const server = await startModelServer(
    Array.from({ length: turns }, () => turn(text("ok"))),
    list ? { models: list } : {},
  );
  const ws = makeWorkspace();
  const tokens = issuer.issue();
  const auth = { auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { ...tokens, account_id: DEFAULT_ACCOUNT.accountId }, last_refresh: new Date().toISOString() };
  writeFileSync(join(ws.home, "auth.json"), JSON.stringify(auth), { mode: 0o600 });
  try {
    await body({ server, issuer, ws, accessToken: tokens.access_token });
    assert.deepEqual(server.violations, []);
  } finally {
    await server.close();
    await issuer.close();
  }
}

function run(s: Setup, args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runCli(["exec", "-c", `chatgpt_base_url="${s.server.chatgptBaseUrl}"`, ...args, "hi"], {
    cwd: s.ws.dir,
    home: s.ws.home,
    env: { OPENAI_API_KEY: undefined, CODEX_API_KEY: undefined, CODEX_REFRESH_TOKEN_URL_OVERRIDE: `${s.issuer.url}/oauth/token`, ...env },
  });
}

function cacheFile(ws: Workspace): Record<string, unknown> {
  return JSON.parse(readFileSync(join(ws.home, "models_cache.json"), "utf8")) as Record<string, unknown>;
}

void test("with no model configured, a ChatGPT run takes the account's default from the backend's list and caches the list", async () => {
  await withChatgpt({ models: ACCOUNT_MODELS, etag: '"list-v1"' }, 2, async (s) => {
    const first = await run(s, []);
    assert.equal(first.code, 0, first.stderr);
    // The reference's default: the highest-priority model its picker lists (hidden ones skipped).
    assert.equal(s.server.requests[0]?.body.model, "acct-model-a");
    const [list, ...more] = s.server.modelLists;
    assert.equal(more.length, 0);
    assert.equal(list?.path, "/backend-api/codex/models");
    assert.equal(list?.query, `client_version=${packageVersion()}`);
    assert.equal(list?.headers.authorization, `Bearer ${s.accessToken}`);
    assert.equal(list?.headers["chatgpt-account-id"], DEFAULT_ACCOUNT.accountId);
    assert.equal(list?.headers.originator, "codex_exec");
    assert.equal(list?.headers.version, packageVersion());
    assert.match(String(list?.headers["user-agent"]), /^codex_exec\//);

    const cache = cacheFile(s.ws);
    assert.equal(cache.etag, '"list-v1"');
    assert.equal(cache.client_version, packageVersion());
    assert.ok(Date.now() - Date.parse(String(cache.fetched_at)) < 60_000);
    assert.deepEqual(cache.models, ACCOUNT_MODELS, "the entries are kept as the backend sent them");
    assert.ok(!readFileSync(join(s.ws.home, "models_cache.json"), "utf8").includes(s.accessToken), "no token in the cache");

    // A fresh cache is used as it is: no second request.
    const second = await run(s, []);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(s.server.requests[1]?.body.model, "acct-model-a");
    assert.equal(s.server.modelLists.length, 1);
  });
});

void test("a stale cache is used at once (and refreshed in the background); a cache of another account is not", async () => {
  await withChatgpt({ models: [listedModel("fresh-model", 1)] }, 2, async (s) => {
    const stale = {
      fetched_at: new Date(Date.now() - 3_600_000).toISOString(),
      client_version: packageVersion(),
      account_id: DEFAULT_ACCOUNT.accountId,
      models: [listedModel("cached-model", 1)],
    };
    writeFileSync(join(s.ws.home, "models_cache.json"), JSON.stringify(stale));
    const first = await run(s, []);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(s.server.requests[0]?.body.model, "cached-model");

    writeFileSync(join(s.ws.home, "models_cache.json"), JSON.stringify({ ...stale, fetched_at: new Date().toISOString(), account_id: "acct-someone-else" }));
    const second = await run(s, []);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(s.server.requests[1]?.body.model, "fresh-model");
    assert.equal(cacheFile(s.ws).account_id, DEFAULT_ACCOUNT.accountId);
  });
});

void test("a failing or missing model list falls back to the built-in default silently (one note under NODE_DEBUG)", async () => {
  await withChatgpt({ models: ACCOUNT_MODELS, status: 500 }, 2, async (s) => {
    const r = await run(s, []);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "ok\n");
    assert.equal(s.server.requests[0]?.body.model, DEFAULT_MODEL);
    assert.doesNotMatch(r.stderr, /model list|HTTP 500/);
    assert.equal(existsSync(join(s.ws.home, "models_cache.json")), false);

    const debug = await run(s, [], { NODE_DEBUG: "codex-ts" });
    assert.equal(debug.code, 0, debug.stderr);
    assert.equal(debug.stderr.match(/model list could not be fetched \(HTTP 500\)/g)?.length, 1);
  });
  // No backend list at all (the endpoint answers 404): the same.
  await withChatgpt(undefined, 1, async (s) => {
    const r = await run(s, []);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(s.server.requests[0]?.body.model, DEFAULT_MODEL);
  });
});

void test("a configured model is kept; one the account does not list gets a warning", async () => {
  await withChatgpt({ models: ACCOUNT_MODELS }, 2, async (s) => {
    const unknown = await run(s, ["-m", "gpt-nope"]);
    assert.equal(unknown.code, 0, unknown.stderr);
    assert.equal(s.server.requests[0]?.body.model, "gpt-nope");
    assert.match(unknown.stderr, /Model "gpt-nope" is not among the models your ChatGPT account may use \(it offers acct-model-b, acct-model-a\)/);

    const known = await run(s, ["-c", 'model="acct-model-b"']);
    assert.equal(known.code, 0, known.stderr);
    assert.equal(s.server.requests[1]?.body.model, "acct-model-b");
    assert.doesNotMatch(known.stderr, /is not among/);
  });
});

void test("an API key sends the version header and asks for no model list, as the reference does", async () => {
  const server = await startModelServer([turn(text("ok"))], { models: { models: ACCOUNT_MODELS } });
  const ws = makeWorkspace();
  try {
    const r = await runCli(["exec", "-c", `openai_base_url="${server.url}"`, "hi"], { cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: "sk-test", CODEX_API_KEY: undefined } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[0]?.headers.version, packageVersion());
    assert.equal(server.requests[0]?.body.model, DEFAULT_MODEL);
    assert.equal(server.modelLists.length, 0);
  } finally {
    await server.close();
  }
});
