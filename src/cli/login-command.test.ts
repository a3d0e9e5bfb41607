import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { MESSAGES, maskApiKey, runLoginCommand, runLoginStatus, runLogout, type LoginIo } from "./login-command.js";
import { resolveAuth, type ProviderAuthInfo } from "../auth/resolve-auth.js";
import { apiKeyAuthJson, readAuthFile, writeApiKeyAuth } from "../auth/auth-file.js";
import { builtinProviders, type ModelProvider } from "../model/provider.js";
import { createCommandEnv } from "../exec/env.js";

const KEY = "sk-proj-1234567890abcdefghijABCDE";

/** The API key a run would use, or null (a ChatGPT login or nothing). */
function resolveApiKey(provider: ProviderAuthInfo, codexHome: string, env: NodeJS.ProcessEnv, allowCodexApiKey: boolean): string | null {
  const auth = resolveAuth(provider, codexHome, env, allowCodexApiKey);
  return auth.mode === "api-key" ? auth.apiKey : null;
}

/** An unsigned JWT with these claims (codex-ts reads claims, it never checks signatures). */
function jwt(claims: Record<string, unknown>): string {
  const part = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "none" })}.${part(claims)}.sig`;
}

function home(): string {
  return mkdtempSync(join(tmpdir(), "codex-ts-login-"));
}

interface Captured extends LoginIo {
  err: () => string;
}

function io(codexHome: string, stdin?: string | null, extraEnv: NodeJS.ProcessEnv = {}): Captured {
  let err = "";
  const stream = stdin === null ? undefined : Readable.from(stdin === undefined ? [] : [Buffer.from(stdin)]);
  return {
    env: { CODEX_HOME: codexHome, ...extraEnv },
    stdin: stream,
    stderr: { write: (s: string) => (err += s) },
    err: () => err,
  };
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

void test("login --with-api-key saves the trimmed key from stdin in the reference's auth.json shape, mode 0600", async () => {
  const h = home();
  const c = io(h, `  ${KEY}\n`);
  assert.equal(await runLoginCommand({ withApiKey: true }, c), 0);
  assert.equal(c.err(), `${MESSAGES.readingStdin}\n${MESSAGES.loggedIn}\n`);
  const file = join(h, "auth.json");
  assert.equal(mode(file), 0o600);
  const text = readFileSync(file, "utf8");
  assert.equal(text, `{\n  "auth_mode": "apikey",\n  "OPENAI_API_KEY": "${KEY}"\n}\n`);
  assert.deepEqual(Object.keys(JSON.parse(text) as object), ["auth_mode", "OPENAI_API_KEY"]);
  assert.deepEqual(readdirSync(h), ["auth.json"], "no temporary file is left behind");
  assert.ok(!c.err().includes(KEY), "the key is never echoed");
});

void test("login creates a missing CODEX_HOME and replaces an existing auth.json atomically with mode 0600", async () => {
  const h = join(home(), "nested", "home");
  assert.equal(await runLoginCommand({ withApiKey: true }, io(h, "sk-first-key-000000")), 0);
  const file = join(h, "auth.json");
  chmodSync(file, 0o644);
  writeFileSync(file, '{"OPENAI_API_KEY":"old","tokens":{"id_token":"x"},"last_refresh":null}');
  chmodSync(file, 0o666);
  assert.equal(await runLoginCommand({ withApiKey: true }, io(h, KEY)), 0);
  assert.equal(mode(file), 0o600, "looser permissions of the old file do not survive");
  assert.equal(readFileSync(file, "utf8"), apiKeyAuthJson(KEY));
  assert.deepEqual(readdirSync(h), ["auth.json"]);
});

void test("login --with-api-key with empty or blank stdin fails with exit 1 and writes nothing", async () => {
  for (const input of ["", "  \n\t\n"]) {
    const h = home();
    const c = io(h, input);
    assert.equal(await runLoginCommand({ withApiKey: true }, c), 1);
    assert.equal(c.err(), `${MESSAGES.readingStdin}\n${MESSAGES.emptyStdin}\n`);
    assert.equal(existsSync(join(h, "auth.json")), false);
  }
});

void test("login --with-api-key refuses a terminal as stdin", async () => {
  const h = home();
  const c = io(h, null);
  const tty = Object.assign(Readable.from([]), { isTTY: true });
  assert.equal(await runLoginCommand({ withApiKey: true }, { ...c, stdin: tty }), 1);
  assert.equal(c.err(), `${MESSAGES.stdinIsTerminal}\n`);
  assert.match(c.err(), /printenv OPENAI_API_KEY \| codex-ts login --with-api-key/);
});

void test("--api-key is refused, and so is asking for two ways of signing in at once", async () => {
  const h = home();
  const flag = io(h, "");
  assert.equal(await runLoginCommand({ apiKey: KEY, withApiKey: true }, flag), 1);
  assert.equal(flag.err(), `${MESSAGES.apiKeyFlagUnsupported}\n`);
  assert.ok(!flag.err().includes(KEY));
  const both = io(h, KEY);
  assert.equal(await runLoginCommand({ withApiKey: true, deviceAuth: true }, both), 1);
  assert.equal(both.err(), `${MESSAGES.conflictingModes}\n`);
  assert.equal(existsSync(join(h, "auth.json")), false);
});

void test("login status: masked key and 0 when logged in, 'Not logged in' and 1 otherwise", async () => {
  const h = home();
  const before = io(h);
  assert.equal(await runLoginStatus(before), 1);
  assert.equal(before.err(), "Not logged in\n");

  writeApiKeyAuth(h, KEY);
  const after = io(h);
  assert.equal(await runLoginStatus(after), 0);
  assert.equal(after.err(), "Logged in using an API key - sk-proj-***ABCDE\n");
  assert.ok(!after.err().includes(KEY));

  // Status reports what is saved (exit 1 without a login, as the reference), and says which
  // environment key runs will use instead.
  const envOnly = io(home(), undefined, { OPENAI_API_KEY: KEY, CODEX_API_KEY: KEY });
  assert.equal(await runLoginStatus(envOnly), 1);
  assert.equal(
    envOnly.err(),
    "CODEX_API_KEY is set (sk-proj-***ABCDE); codex-ts exec uses it instead of a saved login\nOPENAI_API_KEY is set (sk-proj-***ABCDE); runs with the OpenAI provider use it instead of a saved login\nNot logged in\n",
  );
  assert.ok(!envOnly.err().includes(KEY));
});

void test("login status reads the older reference shape, recognises a ChatGPT login, and reports a broken file", async () => {
  const old = home();
  writeFileSync(join(old, "auth.json"), JSON.stringify({ OPENAI_API_KEY: KEY, tokens: null, last_refresh: null }));
  const o = io(old);
  assert.equal(await runLoginStatus(o), 0);
  assert.equal(o.err(), "Logged in using an API key - sk-proj-***ABCDE\n");

  // The older shape without auth_mode: tokens make it a ChatGPT login; status shows the account.
  const chatgpt = home();
  const idToken = jwt({ email: "dev@example.com", "https://api.openai.com/auth": { chatgpt_plan_type: "pro", chatgpt_account_id: "acct-1" } });
  const tokens = { id_token: idToken, access_token: "secret-access-token", refresh_token: "secret-refresh-token", account_id: "acct-1" };
  writeFileSync(join(chatgpt, "auth.json"), JSON.stringify({ OPENAI_API_KEY: null, tokens, last_refresh: "2025-01-01T00:00:00Z" }));
  const g = io(chatgpt, undefined, { OPENAI_API_KEY: KEY });
  assert.equal(await runLoginStatus(g), 0);
  assert.equal(
    g.err(),
    `OPENAI_API_KEY is set (sk-proj-***ABCDE), but runs use the saved ChatGPT login (preferred_auth_method = "apikey" uses the key)\n${MESSAGES.loggedInWithChatgpt}\nAccount: dev@example.com (Pro plan)\n`,
  );
  for (const secret of ["secret-access-token", "secret-refresh-token", idToken]) assert.ok(!g.err().includes(secret), "no token is printed");
  assert.equal(resolveApiKey(openai(), chatgpt, {}, true), null);
  const preferKey = resolveAuth(openai(), chatgpt, { OPENAI_API_KEY: KEY }, true, { forcedLoginMethod: null, preferredAuthMethod: "apikey" });
  assert.equal(preferKey.mode === "api-key" && preferKey.apiKey, KEY, "preferred_auth_method = apikey takes the key when there is one");

  const noIdToken = home();
  writeFileSync(join(noIdToken, "auth.json"), JSON.stringify({ auth_mode: "chatgpt", tokens: { access_token: "secret-token" } }));
  const n = io(noIdToken);
  assert.equal(await runLoginStatus(n), 1);
  assert.match(n.err(), /^Error checking login status: .*auth\.json: tokens\.id_token is missing\n$/);

  const broken = home();
  writeFileSync(join(broken, "auth.json"), `{"OPENAI_API_KEY": "${KEY}"`);
  const b = io(broken);
  assert.equal(await runLoginStatus(b), 1);
  assert.match(b.err(), /^Error checking login status: .*auth\.json is not valid JSON; fix it, or remove it and sign in again with `codex-ts login`\n$/);
  assert.ok(!b.err().includes(KEY), "the error never quotes the file");

  const blank = home();
  writeFileSync(join(blank, "auth.json"), JSON.stringify({ OPENAI_API_KEY: "", tokens: null }));
  assert.deepEqual(readAuthFile(blank), { kind: "empty" });
  const e = io(blank);
  assert.equal(await runLoginStatus(e), 1);
  assert.equal(e.err(), "Not logged in\n");
});

void test("logout removes auth.json; without one it says 'Not logged in' and still exits 0", async () => {
  const h = home();
  writeApiKeyAuth(h, KEY);
  const first = io(h);
  assert.equal(await runLogout(first), 0);
  assert.equal(first.err(), "Successfully logged out\n");
  assert.equal(existsSync(join(h, "auth.json")), false);
  const second = io(h);
  assert.equal(await runLogout(second), 0);
  assert.equal(second.err(), "Not logged in\n");
  const status = io(h);
  assert.equal(await runLoginStatus(status), 1);
});

void test("logout of a ChatGPT login still removes it when the tokens cannot be revoked, and says so", async () => {
  const h = home();
  const tokens = { id_token: jwt({}), access_token: "secret-access", refresh_token: "secret-refresh", account_id: null };
  writeFileSync(join(h, "auth.json"), JSON.stringify({ auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens }));
  const out = io(h, undefined, { CODEX_REVOKE_TOKEN_URL_OVERRIDE: "http://127.0.0.1:9/oauth/revoke" });
  assert.equal(await runLogout(out), 0);
  assert.match(out.err(), /^Warning: the tokens could not be revoked \(.*\); removing the local login anyway\.\nSuccessfully logged out\n$/);
  assert.ok(!out.err().includes("secret-"));
  assert.equal(existsSync(join(h, "auth.json")), false);
});

void test("maskApiKey keeps 8 leading and 5 trailing characters, and hides short keys entirely", () => {
  assert.equal(maskApiKey("sk-proj-1234567890ABCDE"), "sk-proj-***ABCDE");
  assert.equal(maskApiKey("sk-proj-12345"), "***");
  assert.equal(maskApiKey("sk-proj-123456"), "sk-proj-***23456");
  assert.equal(maskApiKey(""), "***");
});

// ---------------------------------------------------------------- key precedence

const openai = (): ModelProvider => {
  const p = builtinProviders(undefined).openai;
  assert.ok(p);
  return p;
};
const custom: ModelProvider = { ...openai(), id: "az", name: "Azure", envKey: "AZ_KEY" };

void test("key precedence: CODEX_API_KEY (exec only), then the provider's env_key, then auth.json", () => {
  const h = home();
  writeApiKeyAuth(h, "sk-from-auth-json");
  const all = { CODEX_API_KEY: "sk-from-codex", OPENAI_API_KEY: "sk-from-env" };
  assert.equal(resolveApiKey(openai(), h, all, true), "sk-from-codex");
  assert.equal(resolveApiKey(openai(), h, all, false), "sk-from-env", "CODEX_API_KEY only counts for exec");
  assert.equal(resolveApiKey(openai(), h, { OPENAI_API_KEY: "sk-from-env" }, true), "sk-from-env");
  assert.equal(resolveApiKey(openai(), h, {}, true), "sk-from-auth-json");
  assert.equal(resolveApiKey(openai(), home(), {}, true), null, "no key anywhere");
});

void test("key precedence: blank variables count as unset and values are trimmed", () => {
  const h = home();
  writeApiKeyAuth(h, "sk-from-auth-json");
  assert.equal(resolveApiKey(openai(), h, { CODEX_API_KEY: "  ", OPENAI_API_KEY: "" }, true), "sk-from-auth-json");
  assert.equal(resolveApiKey(openai(), h, { CODEX_API_KEY: " sk-codex\n" }, true), "sk-codex");
  assert.equal(resolveApiKey(openai(), h, { OPENAI_API_KEY: "sk-env\n" }, true), "sk-env");
});

void test("key precedence: a custom provider uses its env_key and never the OpenAI key saved in auth.json", () => {
  const h = home();
  writeApiKeyAuth(h, "sk-from-auth-json");
  assert.equal(resolveApiKey(custom, h, { AZ_KEY: "az-key", OPENAI_API_KEY: "sk-env" }, false), "az-key");
  assert.equal(resolveApiKey(custom, h, { OPENAI_API_KEY: "sk-env" }, false), null);
  assert.equal(resolveApiKey(custom, h, { CODEX_API_KEY: "sk-codex" }, true), "sk-codex");
  const local: ModelProvider = { ...custom, id: "ollama", envKey: null };
  assert.equal(resolveApiKey(local, h, {}, true), null);
});

void test("a saved key never reaches a command's environment, whatever shell_environment_policy says", () => {
  const h = home();
  writeApiKeyAuth(h, KEY);
  const env: NodeJS.ProcessEnv = { PATH: "/usr/bin", HOME: "/home/u" };
  assert.equal(resolveApiKey(openai(), h, env, true), KEY);
  assert.deepEqual(env, { PATH: "/usr/bin", HOME: "/home/u" }, "resolving the key leaves the environment alone");
  for (const policy of [{}, { inherit: "all" as const, ignore_default_excludes: true }, { inherit: "core" as const }]) {
    const child = createCommandEnv(policy, env);
    assert.ok(!Object.values(child).includes(KEY), JSON.stringify(policy));
  }
});

void test("by default, keys from the environment are dropped from a command's environment", () => {
  const child = createCommandEnv({}, { PATH: "/usr/bin", OPENAI_API_KEY: KEY, CODEX_API_KEY: KEY, AZ_KEY: KEY });
  assert.deepEqual(child, { PATH: "/usr/bin" });
});
