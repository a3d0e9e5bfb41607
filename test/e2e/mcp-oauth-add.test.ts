/**
 * `codex-ts mcp add --url …` with the reference's OAuth flags and what follows the add, end to
 * end: the real CLI against the OAuth-protected test server (test/support/oauth-server.ts), a
 * plain HTTP MCP server, and an address nobody listens on, with a `$BROWSER` script that fetches
 * the authorization URL (its redirect lands on the login's callback server).
 */
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { callbackId } from "../../src/mcp/oauth/redirect.js";
import { storeKey, type StoredOAuthEntry } from "../../src/mcp/oauth/store.js";
import { startHttpFixture } from "../fixtures/mcp/http-server.js";
import { makeWorkspace, runCli, type Workspace } from "../support/cli.js";
import { startOAuthFixture } from "../support/oauth-server.js";

const CONFIG = "# my settings\nmodel = \"gpt-5.5\"  # keep this comment\n";

function browser(ws: Workspace): string {
  const path = join(ws.home, "..", "browser.sh");
  const js = "fetch(process.argv[1]).then((r) => r.text())";
  writeFileSync(path, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} -e ${JSON.stringify(js)} "$1"\n`);
  chmodSync(path, 0o755);
  return path;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const configText = (ws: Workspace): string => readFileSync(join(ws.home, "config.toml"), "utf8");
const credentials = (ws: Workspace): Record<string, StoredOAuthEntry> =>
  JSON.parse(readFileSync(join(ws.home, ".credentials.json"), "utf8")) as Record<string, StoredOAuthEntry>;

void test("mcp add --url for a server with OAuth writes the table, detects OAuth and signs in at once", async () => {
  const fx = await startOAuthFixture();
  try {
    const ws = makeWorkspace({ config: CONFIG });
    const r = await runCli(["mcp", "add", "tracker", "--url", fx.url], { cwd: ws.dir, home: ws.home, env: { BROWSER: browser(ws) } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Added global MCP server 'tracker'\.\nDetected OAuth support\. Starting OAuth flow…\nAuthorize `tracker` by opening this URL in your browser:\nhttp:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    assert.match(r.stdout, /\nSuccessfully logged in\.\n$/);
    assert.equal(configText(ws), `${CONFIG}\n[mcp_servers.tracker]\nurl = "${fx.url}"\n`);
    assert.equal(new URL(fx.authorizeRequests[0]?.get("redirect_uri") ?? "").pathname, `/callback/${callbackId(fx.url)}`);
    assert.equal(credentials(ws)[storeKey("tracker", fx.url)]?.server_name, "tracker");
    for (const token of fx.issued) assert.ok(!r.stdout.includes(token) && !r.stderr.includes(token), "a token leaked");
  } finally {
    await fx.close();
  }
});

void test("--oauth-client-id/--oauth-client-secret/--oauth-resource are written as the reference writes them and used by the login", async () => {
  const fx = await startOAuthFixture();
  try {
    fx.allowClient("codex-cli");
    const port = await freePort();
    const ws = makeWorkspace({ config: CONFIG });
    const args = ["mcp", "add", "tracker", "--url", fx.url, "--oauth-client-id", "codex-cli", "--oauth-client-secret", "s3cret", "--oauth-resource", fx.url];
    const r = await runCli([...args, "-c", `mcp_oauth_callback_port=${port}`], { cwd: ws.dir, home: ws.home, env: { BROWSER: browser(ws) } });
    assert.equal(r.code, 0, r.stderr);
    const id = callbackId(fx.url);
    assert.match(r.stdout, new RegExp(`^Added global MCP server 'tracker'\\.\\nOAuth callback URL: http://127\\.0\\.0\\.1/callback/${id}\\nDetected OAuth support`));
    assert.equal(
      configText(ws),
      `${CONFIG}\n[mcp_servers.tracker]\nurl = "${fx.url}"\noauth_resource = "${fx.url}"\n\n[mcp_servers.tracker.oauth]\nclient_id = "codex-cli"\nclient_secret = "s3cret"\ncallback_url = "http://127.0.0.1/callback/${id}"\n`,
    );
    // The pre-registered client, no registration, and the registered redirect URI with the listener's port.
    const authorize = fx.authorizeRequests[0];
    assert.equal(authorize?.get("client_id"), "codex-cli");
    assert.equal(authorize?.get("redirect_uri"), `http://127.0.0.1:${port}/callback/${id}`);
    assert.equal(fx.registrations, 0);
    assert.equal(fx.tokenRequests[0]?.client_id, "codex-cli");
    assert.equal(fx.tokenRequests[0]?.resource, fx.url);
    assert.ok(!r.stdout.includes("s3cret"), "the secret is not echoed");
  } finally {
    await fx.close();
  }
});

void test("after mcp add: no login for a bearer token or a server without OAuth; a hint when the server cannot be asked", async () => {
  const plain = await startHttpFixture();
  try {
    const ws = makeWorkspace({ config: CONFIG });
    const none = await runCli(["mcp", "add", "plain", "--url", plain.url], { cwd: ws.dir, home: ws.home });
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, "Added global MCP server 'plain'.\n");

    const bearer = await runCli(["mcp", "add", "tok", "--url", plain.url, "--bearer-token-env-var", "TOK"], { cwd: ws.dir, home: ws.home });
    assert.equal(bearer.stdout, "Added global MCP server 'tok'.\n");

    const gone = `http://127.0.0.1:${await freePort()}/mcp`;
    const unknown = await runCli(["mcp", "add", "gone", "--url", gone], { cwd: ws.dir, home: ws.home });
    assert.equal(unknown.code, 0, unknown.stderr);
    assert.equal(unknown.stdout, "Added global MCP server 'gone'.\nMCP server may or may not require login. Run `codex-ts mcp login gone` to login.\n");
  } finally {
    await plain.close();
  }
});

void test("mcp add refuses OAuth flags that do not fit, naming the problem, and leaves the file alone", async () => {
  const ws = makeWorkspace({ config: CONFIG });
  const cases: Array<[string[], RegExp]> = [
    [["--url", "http://127.0.0.1:1/mcp", "--oauth-client-secret", "s"], /^Error: --oauth-client-secret requires --oauth-client-id\n$/],
    [["--url", "http://127.0.0.1:1/mcp", "--oauth-client-id", "", "--oauth-client-secret", "s"], /^Error: --oauth-client-secret requires a nonempty --oauth-client-id\n$/],
    [["--url", "http://127.0.0.1:1/mcp", "--oauth-client-id", "c", "--oauth-client-secret", ""], /^Error: --oauth-client-secret must not be empty\n$/],
    [["--url", "http://127.0.0.1:1/mcp", "--oauth-client-registration", "magic"], /^Error: invalid value 'magic' for '--oauth-client-registration <AUTO\|CIMD\|DCR>'/],
    [["--oauth-client-id", "c", "--", "my-server"], /^Error: --oauth-client-id requires --url\n$/],
  ];
  for (const [extra, error] of cases) {
    const r = await runCli(["mcp", "add", "x", ...extra], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 1, extra.join(" "));
    assert.match(r.stderr, error);
  }
  assert.equal(configText(ws), CONFIG);
});

void test("mcp login --oauth-client-registration: dcr registers even with a stored client; cimd without a metadata URL is refused", async () => {
  const fx = await startOAuthFixture();
  try {
    const ws = makeWorkspace({ config: `[mcp_servers.remote]\nurl = "${fx.url}"\n` });
    const env = { BROWSER: browser(ws) };
    assert.equal((await runCli(["mcp", "login", "remote"], { cwd: ws.dir, home: ws.home, env })).code, 0);
    assert.equal(fx.registrations, 1);
    const again = await runCli(["mcp", "login", "remote", "--oauth-client-registration", "dcr"], { cwd: ws.dir, home: ws.home, env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(fx.registrations, 2);
    const cimd = await runCli(["mcp", "login", "remote", "--oauth-client-registration", "cimd"], { cwd: ws.dir, home: ws.home, env });
    assert.equal(cimd.code, 1);
    assert.match(cimd.stderr, /--oauth-client-registration cimd needs mcp_oauth_client_metadata_url/);
  } finally {
    await fx.close();
  }
});
