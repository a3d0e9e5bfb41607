/**
 * The hosted web search end to end, against the scripted model server: which tool object the
 * request offers for each way of configuring it (and none on the Chat wire), the events of a
 * search the model ran, exec's --json items and human lines, the search item resent in later
 * requests, and a resumed thread that resends it and redraws it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load-config.js";
import { ThreadManager } from "../../src/core/thread-manager.js";
import { fnCall, startModelServer, text, turn, webSearch, type JsonObject, type ModelServer } from "../support/model-server.js";
import { exec, jsonLines, makeWorkspace, runCli, withServer } from "../support/cli.js";
import { responseItems, rolloutFiles } from "../support/rollout.js";
import { until, withSession } from "../support/session.js";

const SEARCH = { type: "search", query: "weather berlin", queries: ["weather berlin", "berlin forecast"] };
const OPEN = { type: "open_page", url: "https://example.com/a" };
const FIND = { type: "find_in_page", url: "https://example.com/a", pattern: "rain" };

/** The web_search entries of a recorded request's tools. */
function searchTools(server: ModelServer, n = 0): JsonObject[] {
  return (server.requests[n]?.body.tools ?? []).filter((t) => t.type === "web_search");
}

const CACHED = { type: "web_search", external_web_access: false, search_content_types: ["text", "image"] };
const LIVE = { type: "web_search", external_web_access: true, search_content_types: ["text", "image"] };

void test("the tool offered for each way of configuring web search, with the deprecation notes", async () => {
  const cases: Array<{ name: string; config?: string; args?: string[]; expect: JsonObject[]; note?: RegExp }> = [
    { name: "default", expect: [CACHED] },
    { name: "--search", args: ["--search"], expect: [LIVE] },
    { name: "live", config: 'web_search = "live"', expect: [LIVE] },
    { name: "indexed", config: 'web_search = "indexed"', expect: [{ type: "web_search", external_web_access: true, indexed_web_access: true, search_content_types: ["text", "image"] }] },
    { name: "disabled", config: 'web_search = "disabled"', expect: [] },
    { name: "--search beats config", config: 'web_search = "disabled"', args: ["--search"], expect: [LIVE] },
    { name: "-c", args: ["-c", 'web_search="disabled"'], expect: [] },
    { name: "profile", config: 'profile = "p"\n[profiles.p]\nweb_search = "live"', expect: [LIVE] },
    { name: "old live switch", config: "[features]\nweb_search_request = true", expect: [LIVE], note: /\[features\]\.web_search_request is deprecated/ },
    { name: "old cached switch wins", config: "[features]\nweb_search_request = true\nweb_search_cached = true", expect: [CACHED], note: /\[features\]\.web_search_cached is deprecated/ },
    { name: "top level wins over old switches", config: 'web_search = "disabled"\n[features]\nweb_search_request = true', expect: [], note: /deprecated/ },
    { name: "--enable", args: ["--enable", "web_search_request"], expect: [LIVE], note: /deprecated/ },
    { name: "old boolean does nothing", config: "[tools]\nweb_search = false", expect: [CACHED] },
    {
      name: "tools table",
      config: '[tools.web_search]\ncontext_size = "low"\nallowed_domains = ["example.com"]\nlocation = { country = "US", city = "Boston" }',
      expect: [
        {
          type: "web_search",
          external_web_access: false,
          filters: { allowed_domains: ["example.com"] },
          user_location: { type: "approximate", country: "US", city: "Boston" },
          search_context_size: "low",
          search_content_types: ["text", "image"],
        },
      ],
    },
  ];
  for (const c of cases) {
    await withServer([turn(text("ok"))], async (server) => {
      const ws = makeWorkspace(c.config ? { config: `${c.config}\n` } : {});
      const res = await exec(server, [...(c.args ?? []), "hi"], { cwd: ws.dir, home: ws.home });
      assert.equal(res.code, 0, `${c.name}: ${res.stderr}`);
      assert.deepEqual(searchTools(server), c.expect, c.name);
      // Tool objects are part of the request's bytes: key order as the reference writes them.
      assert.equal(JSON.stringify(searchTools(server)), JSON.stringify(c.expect), c.name);
      if (c.note) assert.match(res.stderr, c.note, c.name);
      else assert.doesNotMatch(res.stderr, /web.search/i, c.name);
    });
  }
});

void test("a bad web_search value is a config error naming the key; nothing is sent", async () => {
  for (const config of ['web_search = "sometimes"', '[tools.web_search]\ncontext_size = "huge"']) {
    await withServer([], async (server) => {
      const ws = makeWorkspace({ config: `${config}\n` });
      const res = await exec(server, ["hi"], { cwd: ws.dir, home: ws.home });
      assert.equal(res.code, 2, res.stderr);
      assert.match(res.stderr, /config\.toml:\d+: (web_search|tools\.web_search\.context_size)/);
      assert.equal(server.requests.length, 0);
    });
  }
});

void test("a Chat Completions provider is never offered web search; asking for it draws one warning", async () => {
  const chatConfig = (url: string, extra: string): string =>
    [extra, 'model_provider = "local"', "[model_providers.local]", 'name = "local"', `base_url = "${url}"`, 'wire_api = "chat"', ""].join("\n");
  for (const [extra, args, warned] of [["", [], false], ['web_search = "live"', [], true], ["", ["--search"], true]] as const) {
    await withServer([turn(text("ok"))], async (server) => {
      const ws = makeWorkspace({ config: chatConfig(server.url, extra) });
      const res = await runCli(["exec", ...args, "hi"], { cwd: ws.dir, home: ws.home });
      assert.equal(res.code, 0, res.stderr);
      assert.equal(server.requests[0]?.wire, "chat");
      assert.ok(!JSON.stringify(server.requests[0]?.body.tools ?? []).includes("web_search"));
      const warnings = res.stderr.split("\n").filter((l) => /web search is not offered/.test(l));
      assert.equal(warnings.length, warned ? 1 : 0, res.stderr);
      if (warned) assert.match(warnings[0] ?? "", /Chat Completions/);
    });
  }
});

void test("searches become begin/end events in order, and their items go back verbatim (minus ids) in the next request", async () => {
  await withSession(
    [turn(webSearch(SEARCH), webSearch(OPEN), webSearch(FIND), fnCall("exec_command", { cmd: "echo hi" }, "call_1")), turn(text("It rains."))],
    async (session, server) => {
      const id = session.submit({ type: "user_input", items: [{ type: "text", text: "weather?" }] });
      const events = await until(session, id, "task_complete");
      const searchEvents = events.filter((e) => e.msg.type === "web_search_begin" || e.msg.type === "web_search_end").map((e) => e.msg);
      assert.deepEqual(searchEvents, [
        { type: "web_search_begin", call_id: "ws_1" },
        { type: "web_search_end", call_id: "ws_1", query: "weather berlin", action: SEARCH },
        { type: "web_search_begin", call_id: "ws_2" },
        { type: "web_search_end", call_id: "ws_2", query: "https://example.com/a", action: OPEN },
        { type: "web_search_begin", call_id: "ws_3" },
        { type: "web_search_end", call_id: "ws_3", query: "'rain' in https://example.com/a", action: FIND },
      ]);
      // The searches come before the command the same response asked for.
      const order = events.map((e) => e.msg.type);
      assert.ok(order.lastIndexOf("web_search_end") < order.indexOf("exec_command_begin"));
      const resent = (server.requests[1]?.body.input ?? []).filter((i) => i.type === "web_search_call");
      assert.equal(
        JSON.stringify(resent),
        JSON.stringify([SEARCH, OPEN, FIND].map((action) => ({ type: "web_search_call", status: "completed", action }))),
      );
    },
  );
});

void test("exec --json writes web_search items as the reference does, byte for byte", async () => {
  await withServer([turn(webSearch(SEARCH), webSearch({ type: "search", query: "", queries: ["a", "b"] }), webSearch(FIND), text("It rains."))], async (server) => {
    const ws = makeWorkspace();
    const res = await exec(server, ["--json", "weather?"], { cwd: ws.dir, home: ws.home });
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout.split("\n").filter((l) => l.includes('"web_search"'));
    assert.deepEqual(lines, [
      '{"type":"item.started","item":{"id":"item_0","type":"web_search","id":"ws_1","query":"","action":{"type":"other"}}}',
      '{"type":"item.completed","item":{"id":"item_0","type":"web_search","id":"ws_1","query":"weather berlin","action":{"type":"search","query":"weather berlin","queries":["weather berlin","berlin forecast"]}}}',
      '{"type":"item.started","item":{"id":"item_1","type":"web_search","id":"ws_2","query":"","action":{"type":"other"}}}',
      '{"type":"item.completed","item":{"id":"item_1","type":"web_search","id":"ws_2","query":"a ...","action":{"type":"search","query":"","queries":["a","b"]}}}',
      '{"type":"item.started","item":{"id":"item_2","type":"web_search","id":"ws_3","query":"","action":{"type":"other"}}}',
      '{"type":"item.completed","item":{"id":"item_2","type":"web_search","id":"ws_3","query":"\'rain\' in https://example.com/a","action":{"type":"find_in_page","url":"https://example.com/a","pattern":"rain"}}}',
    ]);
    // Every line still parses, and the final message keeps counting item ids on.
    const events = jsonLines(res.stdout);
    assert.deepEqual(events.at(-2), { type: "item.completed", item: { id: "item_3", type: "agent_message", text: "It rains." } });
  });
});

void test("exec's human output prints a 'web search:' line when a search starts and one with what it did", async () => {
  await withServer([turn(webSearch(SEARCH), webSearch(OPEN), text("It rains."))], async (server) => {
    const ws = makeWorkspace();
    const res = await exec(server, ["weather?"], { cwd: ws.dir, home: ws.home });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, "It rains.\n");
    const lines = res.stderr.split("\n").filter((l) => l.startsWith("web search:"));
    assert.deepEqual(lines, ["web search: ", "web search: weather berlin", "web search: ", "web search: https://example.com/a"]);
  });
});

void test("the rollout keeps the search item as sent, and exec resume resends it", async () => {
  await withServer([turn(webSearch(SEARCH), text("It rains.")), turn(text("Still raining."))], async (server) => {
    const ws = makeWorkspace();
    const first = await exec(server, ["weather?"], { cwd: ws.dir, home: ws.home });
    assert.equal(first.code, 0, first.stderr);
    const [file] = rolloutFiles(ws.home);
    assert.ok(file);
    const recorded = responseItems(file).filter((i) => i.type === "web_search_call");
    assert.deepEqual(recorded, [{ type: "web_search_call", status: "completed", action: SEARCH }]);
    const again = await exec(server, ["resume", "--last", "and now?"], { cwd: ws.dir, home: ws.home });
    assert.equal(again.code, 0, again.stderr);
    const resent = JSON.stringify(server.requests[1]?.body.input ?? []);
    assert.ok(resent.includes(JSON.stringify(recorded[0])), resent);
  });
});

void test("initial_messages of a resumed thread include its web searches, in place", async () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-search-"));
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-search-cwd-"));
  const server = await startModelServer([turn(webSearch(SEARCH), text("It rains.")), turn(text("Again."))]);
  const env = { CODEX_HOME: home, OPENAI_API_KEY: "sk-test" };
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.toml"), `openai_base_url = "${server.url}"\n`);
  const manager = new ThreadManager({ env, source: "exec", originator: "codex_exec", userAgentProduct: "codex_exec", readCodexApiKey: true });
  const config = loadConfig({ cwd, overrides: [], env, approvalPolicy: "never" });
  try {
    const started = await manager.startThread({ config });
    await manager.waitUntilReady(started);
    const id = started.session.submit({ type: "user_input", items: [{ type: "text", text: "weather?" }] });
    await until(started.session, id, "task_complete");
    await manager.closeThread(started.threadId);

    const resumed = await manager.startThread({ config, target: { kind: "resume", sessionId: started.threadId, last: false, all: false } });
    const configured = await resumed.session.nextEvent();
    assert.ok(configured?.msg.type === "session_configured");
    const redraw = (configured.msg.initial_messages ?? []).filter((m) => m.type !== "token_count");
    assert.deepEqual(redraw.map((m) => m.type), ["task_started", "user_message", "web_search_end", "agent_message", "task_complete"]);
    assert.deepEqual(redraw[2], { type: "web_search_end", call_id: "ws_1", query: "weather berlin", action: SEARCH });
    await manager.closeAll();
    assert.deepEqual(server.violations, []);
  } finally {
    await server.close();
  }
});
