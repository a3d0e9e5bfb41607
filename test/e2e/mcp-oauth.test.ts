/**
 * MCP OAuth end to end: the real CLI (`mcp login`, `mcp logout`, `mcp list`, `exec`) against an
 * OAuth-protected MCP server and its authorization server (test/support/oauth-server.ts), with a
 * `$BROWSER` script standing in for the user's browser (it GETs the authorization URL and
 * follows the redirect to our callback server). Covered: login and the stored file, sessions
 * using the tokens, refresh before expiry and after a revoked token, a revoked grant, step-up,
 * a server without OAuth, logout, and that no token shows up in output or rollouts.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { freePort } from "../support/http-util.js";
import { join } from "node:path";
import { test } from "node:test";
import { callbackId } from "../../src/mcp/oauth/redirect.js";
import { storeKey, type StoredOAuthEntry } from "../../src/mcp/oauth/store.js";
import { startHttpFixture } from "../fixtures/mcp/http-server.js";
import { CLI_PATH, exec, jsonLines, makeWorkspace, runCli, testEnv, withServer, type CliResult, type Workspace } from "../support/cli.js";
import { fnCall, text, turn, type JsonObject, type ModelServer } from "../support/model-server.js";
import { startOAuthFixture, type OAuthFixture } from "../support/oauth-server.js";

/** A $BROWSER that fetches the URL (following redirects back to the callback server) and logs the page it ends on. */
function browserScript(ws: Workspace): { path: string; log: string } {
  const path = join(ws.home, "..", "browser.sh");
  const log = join(ws.home, "..", "browser.log");
  const js = `fetch(process.argv[1]).then((r) => r.text()).then((t) => require("fs").appendFileSync(${JSON.stringify(log)}, t + "\\n"))`;
  writeFileSync(path, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} -e ${JSON.stringify(js)} "$1"\n`);
  chmodSync(path, 0o755);
  return { path, log };
}

function serverToml(name: string, url: string): string {
  return `[mcp_servers.${name}]\nurl = ${JSON.stringify(url)}\n`;
}

function credentials(ws: Workspace): Record<string, StoredOAuthEntry> {
  return JSON.parse(readFileSync(join(ws.home, ".credentials.json"), "utf8")) as Record<string, StoredOAuthEntry>;
}

function outputOf(server: ModelServer, callId: string): string {
  for (const request of server.requests) {
    const item = (request.body.input ?? []).find((i: JsonObject) => i.type === "function_call_output" && i.call_id === callId);
    if (item) return typeof item.output === "string" ? item.output : JSON.stringify(item.output);
  }
  assert.fail(`no output for ${callId}`);
}

function rolloutText(ws: Workspace): string {
  const dir = join(ws.home, "sessions");
  if (!existsSync(dir)) return "";
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else files.push(join(d, e.name));
    }
  };
  walk(dir);
  return files.map((f) => readFileSync(f, "utf8")).join("\n");
}

function assertNoToken(fx: OAuthFixture, texts: string[]): void {
  const all = texts.join("\n");
  for (const token of fx.issued) assert.ok(!all.includes(token), `a token leaked: ${token.slice(0, 6)}…`);
}

async function login(ws: Workspace, name: string, extra: string[] = []): Promise<CliResult> {
  const browser = browserScript(ws);
  return runCli(["mcp", "login", name, ...extra], { cwd: ws.dir, home: ws.home, env: { BROWSER: browser.path } });
}

/** One exec turn in which the model calls `tool` on `remote` and then answers. */
async function callTool(ws: Workspace, tool: string, args: JsonObject): Promise<{ r: CliResult; output: string }> {
  let output = "";
  let r: CliResult | undefined;
  await withServer([turn(fnCall(`mcp__remote__${tool}`, args, "call_1")), turn(text("Done."))], async (server) => {
    r = await exec(server, ["--json", `use ${tool}`], { cwd: ws.dir, home: ws.home });
    output = outputOf(server, "call_1");
  });
  return { r: r as CliResult, output };
}

void test("mcp login signs in through $BROWSER and the callback, stores the tokens (0600, the reference's key), and sessions use them", async () => {
  const fx = await startOAuthFixture();
  try {
    const ws = makeWorkspace({ config: serverToml("remote", fx.url) });
    const seen: string[] = [];

    const before = await runCli(["mcp", "list", "--json"], { cwd: ws.dir, home: ws.home });
    assert.equal(before.code, 0, before.stderr);
    assert.equal((JSON.parse(before.stdout) as Array<{ auth_status: string }>)[0]?.auth_status, "not_logged_in");

    // Before the login a session cannot use the server and says what to run.
    await withServer([turn(text("No tools."))], async (server) => {
      const r = await exec(server, ["hello"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /The remote MCP server is not logged in\. Run `codex-ts mcp login remote`\./);
      seen.push(r.stdout, r.stderr);
    });

    const browser = browserScript(ws);
    const r = await runCli(["mcp", "login", "remote"], { cwd: ws.dir, home: ws.home, env: { BROWSER: browser.path } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Authorize `remote` by opening this URL in your browser:\nhttp:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    assert.match(r.stdout, /Successfully logged in to MCP server 'remote'\.\n$/);
    assert.match(readFileSync(browser.log, "utf8"), /Signed in/);
    seen.push(r.stdout, r.stderr);

    // PKCE, the resource, the scope the server's challenge named, a dynamically registered client.
    const authorize = fx.authorizeRequests[0];
    assert.ok(authorize);
    assert.equal(authorize.get("code_challenge_method"), "S256");
    assert.equal(authorize.get("resource"), fx.url);
    assert.equal(authorize.get("scope"), "mcp:read");
    // The reference's per-server redirect path: /callback/<id from the server's URL>.
    assert.match(authorize.get("redirect_uri") ?? "", new RegExp(`^http://127\\.0\\.0\\.1:\\d+/callback/${callbackId(fx.url)}$`));
    assert.equal(fx.registrations, 1);

    const path = join(ws.home, ".credentials.json");
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const file = credentials(ws);
    assert.deepEqual(Object.keys(file), [storeKey("remote", fx.url)]);
    const entry = file[storeKey("remote", fx.url)];
    assert.equal(entry?.server_name, "remote");
    assert.equal(entry?.server_url, fx.url);
    assert.deepEqual(entry?.scopes, ["mcp:read"]);
    assert.ok(fx.issued.includes(entry?.access_token ?? ""));
    assert.ok((entry?.expires_at ?? 0) > Date.now());

    const list = await runCli(["mcp", "list"], { cwd: ws.dir, home: ws.home });
    assert.match(list.stdout, /remote\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+-\s+enabled\s+OAuth/);
    const get = await runCli(["mcp", "get", "remote"], { cwd: ws.dir, home: ws.home });
    assert.match(get.stdout, /\n {2}auth: OAuth\n/);
    seen.push(list.stdout, get.stdout);

    const { r: run, output } = await callTool(ws, "echo", { text: "hi" });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(output, '[{"type":"text","text":"echo: hi"}]');
    const items = jsonLines(run.stdout).filter((e) => (e.item as JsonObject | undefined)?.type === "mcp_tool_call");
    assert.equal((items.at(-1)?.item as JsonObject).status, "completed");
    seen.push(run.stdout, run.stderr, rolloutText(ws));
    assertNoToken(fx, seen);
  } finally {
    await fx.close();
  }
});

void test("tokens are refreshed before they expire and after the server revokes them; a revoked grant asks for a new login", async () => {
  const fx = await startOAuthFixture();
  try {
    const ws = makeWorkspace({ config: serverToml("remote", fx.url) });
    const seen: string[] = [];
    fx.accessTokenLifetimeSec = 10; // inside the 30 s margin: refreshed before the first use
    assert.equal((await login(ws, "remote")).code, 0);
    const first = credentials(ws)[storeKey("remote", fx.url)];

    const a = await callTool(ws, "echo", { text: "one" });
    assert.equal(a.output, '[{"type":"text","text":"echo: one"}]');
    assert.ok(fx.tokenRequests.some((t) => t.grant_type === "refresh_token" && t.resource === fx.url));
    const refreshed = credentials(ws)[storeKey("remote", fx.url)];
    assert.notEqual(refreshed?.access_token, first?.access_token);
    assert.equal(refreshed?.refresh_token, first?.refresh_token, "the refresh token is kept when the server sends no new one");

    // The server forgets its access tokens: the 401 leads to a refresh and the call goes through.
    fx.accessTokenLifetimeSec = 3600;
    fx.revokeAccessTokens();
    const refreshesBefore = fx.tokenRequests.filter((t) => t.grant_type === "refresh_token").length;
    const b = await callTool(ws, "echo", { text: "two" });
    assert.equal(b.output, '[{"type":"text","text":"echo: two"}]');
    assert.equal(fx.tokenRequests.filter((t) => t.grant_type === "refresh_token").length, refreshesBefore + 1);
    seen.push(a.r.stdout, a.r.stderr, b.r.stdout, b.r.stderr);

    // An entry as the reference writes it (no issuer, no token type), expired: refreshed quietly.
    const key = storeKey("remote", fx.url);
    const { issuer: _issuer, token_type: _type, ...referenceEntry } = credentials(ws)[key] as StoredOAuthEntry;
    writeFileSync(join(ws.home, ".credentials.json"), JSON.stringify({ [key]: { ...referenceEntry, expires_at: Date.now() - 1000 } }));
    const legacy = await callTool(ws, "echo", { text: "legacy" });
    assert.equal(legacy.output, '[{"type":"text","text":"echo: legacy"}]');
    assert.doesNotMatch(legacy.r.stderr, /mcp-sdk|issuer/);
    assert.equal(fx.tokenRequests.filter((t) => t.grant_type === "refresh_token").length, refreshesBefore + 2);
    seen.push(legacy.r.stdout, legacy.r.stderr);

    // Now the grant itself is gone: start-up fails with the login hint and the dead tokens are dropped.
    fx.revokeAccessTokens();
    fx.revokeRefreshTokens();
    let c: CliResult | undefined;
    await withServer([turn(text("No tools."))], async (server) => {
      c = await exec(server, ["hello"], { cwd: ws.dir, home: ws.home });
    });
    assert.match(c?.stderr ?? "", /mcp: remote failed: The remote MCP server is not logged in\. Run `codex-ts mcp login remote`\./);
    assert.equal(existsSync(join(ws.home, ".credentials.json")), false);
    const list = await runCli(["mcp", "list"], { cwd: ws.dir, home: ws.home });
    assert.match(list.stdout, /Not logged in/);
    seen.push(c?.stdout ?? "", c?.stderr ?? "", rolloutText(ws));
    assertNoToken(fx, seen);
  } finally {
    await fx.close();
  }
});

void test("a call that needs more scope fails in exec with the login command to run; logging in with --scopes steps up", async () => {
  const fx = await startOAuthFixture();
  try {
    fx.scopedTools = { add: "mcp:write" };
    const ws = makeWorkspace({ config: serverToml("remote", fx.url) });
    assert.equal((await login(ws, "remote")).code, 0);

    const denied = await callTool(ws, "add", { a: 1, b: 2 });
    assert.equal(denied.r.code, 0, denied.r.stderr);
    assert.match(denied.output, /MCP server 'remote' needs more access \(scopes: mcp:read mcp:write\)\. Run `codex-ts mcp login remote --scopes mcp:read,mcp:write`\./);
    // Exactly one authorization so far: exec never loops on the 403.
    assert.equal(fx.authorizeRequests.length, 1);

    const r = await login(ws, "remote", ["--scopes", "mcp:write"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fx.authorizeRequests.at(-1)?.get("scope"), "mcp:read mcp:write");
    assert.deepEqual(credentials(ws)[storeKey("remote", fx.url)]?.scopes, ["mcp:read", "mcp:write"]);

    const allowed = await callTool(ws, "add", { a: 1, b: 2 });
    assert.match(allowed.output, /3/);
    assertNoToken(fx, [denied.r.stdout, denied.r.stderr, denied.output, r.stdout, r.stderr, allowed.r.stdout, allowed.r.stderr, rolloutText(ws)]);
  } finally {
    await fx.close();
  }
});

void test("servers without OAuth, logout, and the errors of login/logout", async () => {
  const fx = await startOAuthFixture();
  const plain = await startHttpFixture();
  try {
    const config = `${serverToml("remote", fx.url)}${serverToml("plain", plain.url)}[mcp_servers.local]\ncommand = "true"\n`;
    const ws = makeWorkspace({ config });
    const cli = (args: string[]): Promise<CliResult> => runCli(args, { cwd: ws.dir, home: ws.home });

    const list = JSON.parse((await cli(["mcp", "list", "--json"])).stdout) as Array<{ name: string; auth_status: string }>;
    assert.deepEqual(
      list.map((s) => [s.name, s.auth_status]),
      [
        ["local", "unsupported"],
        ["plain", "unsupported"],
        ["remote", "not_logged_in"],
      ],
    );

    const plainLogin = await login(ws, "plain");
    assert.equal(plainLogin.code, 1);
    assert.equal(plainLogin.stderr, "Error: failed to log in to MCP server 'plain': MCP server 'plain' does not ask for a login: it answered without credentials.\n");
    assert.equal((await login(ws, "local")).stderr, "Error: OAuth login is only supported for streamable HTTP servers.\n");
    assert.equal((await login(ws, "nope")).stderr, "Error: No MCP server named 'nope' found.\n");
    assert.equal((await cli(["mcp", "logout", "local"])).stderr, "Error: OAuth logout is only supported for streamable_http transports.\n");
    assert.equal((await cli(["mcp", "logout", "nope"])).stderr, "Error: No MCP server named 'nope' found in configuration.\n");

    assert.equal((await login(ws, "remote")).code, 0);
    const out = await cli(["mcp", "logout", "remote"]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, "Removed OAuth credentials for 'remote'.\n");
    assert.equal(existsSync(join(ws.home, ".credentials.json")), false);
    assert.equal((await cli(["mcp", "logout", "remote"])).stdout, "No OAuth credentials stored for 'remote'.\n");
  } finally {
    await plain.close();
    await fx.close();
  }
});

void test("oauth_resource replaces the resource the metadata names, in the authorization URL and the token requests", async () => {
  const fx = await startOAuthFixture();
  try {
    const ws = makeWorkspace({ config: `${serverToml("remote", fx.url)}oauth_resource = "https://resource.example/api"\n` });
    const r = await login(ws, "remote");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fx.authorizeRequests.at(-1)?.get("resource"), "https://resource.example/api");
    assert.deepEqual(
      fx.tokenRequests.map((t) => [t.grant_type, t.resource]),
      [["authorization_code", "https://resource.example/api"]],
    );
  } finally {
    await fx.close();
  }
});

void test("without a working browser the URL is still printed; opening it by hand on the configured callback port completes the login", async () => {
  const fx = await startOAuthFixture();
  try {
    const port = await freePort();
    const ws = makeWorkspace({ config: `mcp_oauth_callback_port = ${port}\n${serverToml("remote", fx.url)}` });
    const child = spawn(process.execPath, [CLI_PATH, "mcp", "login", "remote"], {
      cwd: ws.dir,
      env: testEnv(ws.home, { BROWSER: join(ws.home, "no-such-browser") }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
        const found = /\n(http:\/\/\S+)\n/.exec(stdout);
        if (found?.[1]) resolve(found[1]);
      });
      child.once("close", () => reject(new Error(`login ended before printing the URL: ${stdout}${stderr}`)));
    });
    assert.equal(new URL(url).searchParams.get("redirect_uri"), `http://127.0.0.1:${port}/callback/${callbackId(fx.url)}`);
    const page = await fetch(url); // the user's browser: follows the redirect to the callback
    assert.match(await page.text(), /Signed in/);
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    assert.equal(code, 0, stderr);
    assert.match(stderr, /\(Browser launch failed; please copy the URL above manually\.\)/);
    assert.match(stdout, /Successfully logged in to MCP server 'remote'\./);
  } finally {
    await fx.close();
  }
});

void test("mcp login --no-browser prints the URL without opening one; the redirect arrives on the callback, or pasted on stdin", async () => {
  const fx = await startOAuthFixture();
  try {
    const ws = makeWorkspace({ config: serverToml("remote", fx.url) });
    const marker = join(ws.home, "browser-was-opened");
    const browser = join(ws.home, "browser.sh");
    writeFileSync(browser, `#!/bin/sh\ntouch ${JSON.stringify(marker)}\n`);
    chmodSync(browser, 0o755);
    const start = (): { child: ReturnType<typeof spawn>; url: Promise<string>; done: Promise<{ code: number | null; stdout: string }> } => {
      const child = spawn(process.execPath, [CLI_PATH, "mcp", "login", "remote", "--no-browser"], { cwd: ws.dir, env: testEnv(ws.home, { BROWSER: browser }), stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      const url = new Promise<string>((resolve) =>
        child.stdout?.on("data", (d: Buffer) => {
          stdout += d.toString();
          const found = /\n(http:\/\/\S+)\n/.exec(stdout);
          if (found?.[1]) resolve(found[1]);
        }),
      );
      const done = new Promise<{ code: number | null; stdout: string }>((resolve) => child.once("close", (code) => resolve({ code, stdout })));
      return { child, url, done };
    };

    // The browser reaches the callback (same machine, or a forwarded port).
    const direct = start();
    assert.match(await (await fetch(await direct.url)).text(), /Signed in/);
    const first = await direct.done;
    assert.equal(first.code, 0, first.stdout);
    assert.match(first.stdout, /paste the address it ends on here/);

    // The browser is elsewhere: its redirect fails there, and the user pastes the address.
    const pasted = start();
    const authorize = await fetch(await pasted.url, { redirect: "manual" });
    const location = authorize.headers.get("location");
    assert.ok(location, "the authorization server redirects");
    pasted.child.stdin?.write("not the address\n");
    pasted.child.stdin?.write(`${location}\n`);
    const second = await pasted.done;
    assert.equal(second.code, 0, second.stdout);
    assert.match(second.stdout, /Successfully logged in to MCP server 'remote'\./);
    assert.equal(fx.authorizeRequests.length, 2);
    assert.equal(existsSync(marker), false, "no browser was started");
  } finally {
    await fx.close();
  }
});
