import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { entryUsable, needsRefresh, OAuthCredentialsStore, REFRESH_SKEW_MS, storeKey, type StoredOAuthEntry } from "./store.js";

const entry = (over: Partial<StoredOAuthEntry> = {}): StoredOAuthEntry => ({
  server_name: "y",
  server_url: "http://127.0.0.1:9/mcp",
  client_id: "cid",
  access_token: "at",
  expires_at: Date.now() + 3_600_000,
  refresh_token: "rt",
  scopes: [],
  ...over,
});

void test("the store key is the reference's (checked against `codex mcp logout`, which deletes by key)", () => {
  assert.equal(storeKey("y", "http://127.0.0.1:9/mcp"), "y|e49b00bf48cb4d25");
  assert.notEqual(storeKey("y", "http://127.0.0.1:9/mcp"), storeKey("y", "http://127.0.0.1:10/mcp"));
});

void test("save, load and delete: one entry per server name and URL, mode 0600, written by rename, the file removed with its last entry", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-store-"));
  const store = new OAuthCredentialsStore(home, "file");
  assert.equal(store.load("y", "http://127.0.0.1:9/mcp"), null);
  store.save(entry());
  store.save(entry({ server_url: "http://127.0.0.1:10/mcp", access_token: "other" }));
  assert.equal(statSync(store.path).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(home), [".credentials.json"]);
  assert.equal(store.load("y", "http://127.0.0.1:9/mcp")?.access_token, "at");
  assert.equal(store.load("y", "http://127.0.0.1:10/mcp")?.access_token, "other");
  assert.equal(store.delete("y", "http://127.0.0.1:9/mcp"), true);
  assert.equal(store.delete("y", "http://127.0.0.1:9/mcp"), false);
  assert.equal(store.delete("y", "http://127.0.0.1:10/mcp"), true);
  assert.deepEqual(readdirSync(home), []);
});

void test("an entry is found by what it says even under another key; a broken file is an error naming it", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-store-"));
  const store = new OAuthCredentialsStore(home, "auto");
  writeFileSync(store.path, JSON.stringify({ "written-elsewhere": entry() }));
  assert.equal(store.load("y", "http://127.0.0.1:9/mcp")?.client_id, "cid");
  writeFileSync(store.path, "{not json");
  assert.throws(() => store.load("y", "x"), new RegExp(`failed to parse credentials file at ${store.path.replace(/[.]/g, "\\.")}`));
  assert.equal(readFileSync(store.path, "utf8"), "{not json", "nothing is lost");
});

void test("keyring mode warns once and uses the file", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-store-"));
  const warnings: string[] = [];
  new OAuthCredentialsStore(home, "keyring", (t) => warnings.push(t));
  new OAuthCredentialsStore(home, "keyring", (t) => warnings.push(t));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? "", /no OS keyring support; MCP OAuth tokens are kept in .*\.credentials\.json \(mode 0600\)/);
});

void test("refresh margin and usability follow the reference", () => {
  const now = 1_000_000;
  assert.equal(needsRefresh({ expires_at: null }, now), false);
  assert.equal(needsRefresh({ expires_at: now + REFRESH_SKEW_MS + 1 }, now), false);
  assert.equal(needsRefresh({ expires_at: now + REFRESH_SKEW_MS - 1 }, now), true);
  assert.equal(entryUsable(entry({ expires_at: 0 }), now), true, "expired but refreshable");
  assert.equal(entryUsable(entry({ expires_at: 0, refresh_token: null }), now), false);
  assert.equal(entryUsable(entry({ client_id: " " }), now), false);
  assert.equal(entryUsable(entry({ expires_at: null, refresh_token: null }), now), true);
});
