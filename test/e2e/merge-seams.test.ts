/**
 * Where features built apart meet: each test drives two of them together through the real CLI
 * or core, against the scripted model server, to catch what neither feature's own tests see.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { text, turn } from "../support/model-server.js";
import { makeWorkspace, runCli, withServer, type Workspace } from "../support/cli.js";
import { DEFAULT_ACCOUNT, startIssuer, type Tokens } from "../support/issuer.js";

function saveChatgptLogin(ws: Workspace, tokens: Tokens): void {
  const auth = { auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { ...tokens, account_id: DEFAULT_ACCOUNT.accountId }, last_refresh: new Date().toISOString() };
  writeFileSync(join(ws.home, "auth.json"), JSON.stringify(auth, null, 2), { mode: 0o600 });
}

void test("ChatGPT login × server-side compaction: /responses/compact carries the login, and a 401 there refreshes it", async () => {
  const issuer = await startIssuer();
  const ws = makeWorkspace();
  saveChatgptLogin(ws, issuer.issue());
  issuer.expireAccessTokens(); // The first request of each kind meets a 401; the refresh must cover compaction too.
  try {
    await withServer([turn(text("Compacted and done."))], async (server) => {
      server.requireAuth({ bearer: () => issuer.validAccessToken ?? "none", accountId: DEFAULT_ACCOUNT.accountId });
      // A threshold below the base instructions alone: the turn compacts before its first request.
      const r = await runCli(["exec", "-c", `chatgpt_base_url="${server.chatgptBaseUrl}"`, "-c", "model_auto_compact_token_limit=100", "hi"], {
        cwd: ws.dir,
        home: ws.home,
        env: { OPENAI_API_KEY: undefined, CODEX_API_KEY: undefined, CODEX_REFRESH_TOKEN_URL_OVERRIDE: `${issuer.url}/oauth/token` },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Compacted and done.\n");
      assert.equal(server.compactions.length, 1);
      assert.equal(server.compactions[0]?.path, "/backend-api/codex/responses/compact");
      assert.equal(server.compactions[0]?.headers.authorization, `Bearer ${issuer.validAccessToken}`);
      assert.equal(server.compactions[0]?.headers["chatgpt-account-id"], DEFAULT_ACCOUNT.accountId);
      assert.equal(server.rejected.length, 1, "one 401, then the refreshed token everywhere");
      assert.equal(issuer.refreshCalls().length, 1);
    });
  } finally {
    await issuer.close();
  }
});
