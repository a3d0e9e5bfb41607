import assert from "node:assert/strict";
import { test } from "node:test";
import { NO_OAUTH_SETTINGS } from "../../config/mcp.js";
import { callbackAddress, callbackId } from "./redirect.js";

const server = (url: string, extra: Partial<typeof NO_OAUTH_SETTINGS> = {}) => ({ ...NO_OAUTH_SETTINGS, url, ...extra });

void test("the per-server callback id is the reference's: derived from the URL alone", () => {
  // Values the reference 0.169 printed for these URLs (`OAuth callback URL: …/callback/<id>`).
  assert.equal(callbackId("http://127.0.0.1:1/mcp"), "4ncvuG_qJEiw");
  assert.equal(callbackId("http://127.0.0.1:2/other"), "iCEiUFyVhmgT");
});

void test("the redirect URI: default, configured port, a base URL, a pre-registered client's exact URI", () => {
  const plain = callbackAddress(server("http://127.0.0.1:1/mcp"));
  assert.equal(plain.listenPort, null);
  assert.equal(plain.redirectUrl(4321), "http://127.0.0.1:4321/callback/4ncvuG_qJEiw");

  const fixed = callbackAddress(server("http://127.0.0.1:1/mcp", { oauth_callback_port: 5555 }));
  assert.equal(fixed.listenPort, 5555);
  assert.equal(fixed.redirectUrl(5555), "http://127.0.0.1:5555/callback/4ncvuG_qJEiw");

  const proxied = callbackAddress(server("http://127.0.0.1:1/mcp", { oauth_callback_url: "https://dev.example.com/oauth/", oauth_callback_port: 7000 }));
  assert.equal(proxied.listenPort, 7000);
  assert.equal(proxied.redirectUrl(7000), "https://dev.example.com/oauth/4ncvuG_qJEiw");

  const portless = callbackAddress(server("http://127.0.0.1:1/mcp", { oauth_callback_url: "http://127.0.0.1/cb" }));
  assert.equal(portless.listenPort, null);
  assert.equal(portless.redirectUrl(6001), "http://127.0.0.1:6001/cb/4ncvuG_qJEiw");

  const loopbackPort = callbackAddress(server("http://127.0.0.1:1/mcp", { oauth_callback_url: "http://localhost:6666/cb" }));
  assert.equal(loopbackPort.listenPort, 6666);

  const registered = callbackAddress(server("http://127.0.0.1:1/mcp", {
    oauth: { client_id: "abc", client_secret: null, token_endpoint_auth_method: null, callback_url: "http://127.0.0.1/callback/4ncvuG_qJEiw" },
    oauth_callback_url: "http://ignored.example/",
  }));
  assert.equal(registered.redirectUrl(5557), "http://127.0.0.1:5557/callback/4ncvuG_qJEiw");

  assert.throws(() => callbackAddress(server("http://127.0.0.1:1/mcp", { oauth_callback_url: "not a url" })), /not a valid URL \(mcp_oauth_callback_url/);
});
