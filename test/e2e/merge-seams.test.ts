/**
 * Where features built apart meet: each test drives two of them together through the real CLI
 * or core, against the scripted model server, to catch what neither feature's own tests see.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inputTexts, startModelServer, text, turn, webSearch, type JsonObject } from "../support/model-server.js";
import { makeWorkspace, runCli, withServer } from "../support/cli.js";
import { DEFAULT_ACCOUNT, saveChatgptLogin, startIssuer } from "../support/issuer.js";
import { until } from "../support/session.js";
import { recordedSession, resumedSession } from "../support/recorded-session.js";
import { COMPACTION_SUMMARY_PREFIX } from "../../src/rollout/reconstruct.js";
import { loadConfig, type Config } from "../../src/config/load-config.js";
import { tuiSettings } from "../../src/tui/settings.js";

void test("ChatGPT login × server-side compaction: /responses/compact carries the login, and a 401 there refreshes it", async () => {
  const issuer = await startIssuer();
  const ws = makeWorkspace();
  saveChatgptLogin(ws.home, issuer.issue());
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

const BASE = "You are a test agent.";

for (const remote of [false, true]) {
  void test(`web search × ${remote ? "server-side" : "local"} compaction × rollback × resume: the searches go to the compactor, the rollback keeps the compacted history, a resume sends what the live session did`, async () => {
    const server = await startModelServer([
      turn(webSearch({ type: "search", query: "node release schedule" }), text("Node 24 is the LTS.")),
      ...(remote ? [] : [turn(text("SUMMARY: the user asked about Node releases; 24 is the LTS."))]),
      turn(text("a2")),
      turn(text("a3")),
      turn(text("a4")),
    ]);
    // One working directory for both processes, as a real resume has: nothing changed, so no new context is sent.
    const cwd = mkdtempSync(join(tmpdir(), "codex-ts-seams-"));
    const { session, path } = recordedSession(server, { baseInstructionsOverride: BASE, remoteCompaction: remote, settings: { cwd } });
    const ask = (t: string): string => session.submit({ type: "user_input", items: [{ type: "text", text: t }] });
    let live: JsonObject[] = [];
    try {
      await until(session, ask("which node is lts"), "task_complete");
      await until(session, session.submit({ type: "compact" }), "task_complete");
      const compactorInput = remote ? server.compactions[0]?.body.input : server.requests[1]?.body.input;
      assert.ok(Array.isArray(compactorInput) && compactorInput.some((i) => i.type === "web_search_call" && !("id" in i)), "the compactor reads the search, without its provider id");
      const after = remote ? 1 : 2;
      await until(session, ask("u2"), "task_complete");
      const compacted = server.requests[after]?.body.input ?? [];
      assert.ok(!compacted.some((i) => i.type === "web_search_call"), "compaction replaced the search");
      assert.equal(inputTexts(compacted).at(-1), "u2");
      if (!remote) assert.ok(inputTexts(compacted).some((t) => t.startsWith(COMPACTION_SUMMARY_PREFIX)));
      else assert.ok(compacted.some((i) => i.type === "compaction"));
      // Dropping the turn after the compaction leaves the compacted history as it was.
      await until(session, session.submit({ type: "thread_rollback", num_turns: 1 }), "thread_rolled_back");
      await until(session, ask("u3"), "task_complete");
      live = server.requests[after + 1]?.body.input ?? [];
      assert.deepEqual(live.slice(0, -1), compacted.slice(0, -1));
      assert.equal(inputTexts(live).at(-1), "u3");
    } catch (err) {
      await server.close();
      throw err;
    } finally {
      session.submit({ type: "shutdown" });
    }
    const resumed = resumedSession(server, path, { baseInstructionsOverride: BASE, remoteCompaction: remote, settings: { cwd } });
    try {
      await until(resumed, resumed.submit({ type: "user_input", items: [{ type: "text", text: "u4" }] }), "task_complete");
      const next = server.requests.at(-1)?.body.input ?? [];
      // The resumed session's request starts with everything the live one last sent, and its answer.
      assert.deepEqual(next.slice(0, live.length), live);
      assert.deepEqual(inputTexts(next.slice(live.length)), ["a3", "u4"]);
      assert.deepEqual(server.violations, []);
    } finally {
      resumed.submit({ type: "shutdown" });
      await server.close();
    }
  });
}

void test("profile file × -c × [tui]: the TUI's settings come from the merged layers, table by table, and --alt-screen wins", () => {
  const ws = makeWorkspace({ config: '[tui]\nnotifications = false\nalternate_screen = false\n' });
  writeFileSync(join(ws.home, "work.config.toml"), '[tui]\nalternate_screen = true\nnotifications = ["approval-requested"]\n');
  const load = (overrides: string[] = []): Config => loadConfig({ cwd: ws.dir, overrides, profile: "work", env: { CODEX_HOME: ws.home } });
  const fromProfile = tuiSettings(load().toml, {});
  assert.equal(fromProfile.alternateScreen, true);
  assert.deepEqual([...fromProfile.notifications], ["approval-requested"]);
  assert.deepEqual(fromProfile.warnings, []);
  // -c replaces one key of the table; the profile's other key stays.
  const overridden = tuiSettings(load(["tui.alternate_screen=false"]).toml, {});
  assert.equal(overridden.alternateScreen, false);
  assert.deepEqual([...overridden.notifications], ["approval-requested"]);
  assert.equal(tuiSettings(load(["tui.alternate_screen=false"]).toml, { altScreen: true }).alternateScreen, true);
  // [tui] is the reference's open table: the loader lets a wrong type through and the TUI says so.
  assert.deepEqual(tuiSettings(load(['tui.alternate_screen="yes"']).toml, {}).warnings, ["tui.alternate_screen must be true or false; using false"]);
});
