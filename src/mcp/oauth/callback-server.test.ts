import assert from "node:assert/strict";
import { test } from "node:test";
import { startCallbackServer } from "./callback-server.js";
import { callbackAddress } from "./redirect.js";

const ANY_PORT = callbackAddress({ url: "http://127.0.0.1:1/mcp", oauth: { client_id: null, client_secret: null, token_endpoint_auth_method: null, callback_url: null }, oauth_callback_port: null, oauth_callback_url: null });

void test("the callback server hands over the code of the matching state and shows a page", async () => {
  const server = await startCallbackServer(ANY_PORT, 5_000);
  try {
    assert.match(server.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback\/4ncvuG_qJEiw$/);
    const waiting = server.waitForCode("s1");
    const other = await fetch(new URL("/favicon.ico", server.redirectUrl));
    assert.equal(other.status, 404);
    // Another server's path is not ours either.
    assert.equal((await fetch(new URL("/callback/iCEiUFyVhmgT?code=x&state=s1", server.redirectUrl))).status, 404);
    const page = await fetch(`${server.redirectUrl}?code=c1&state=s1`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Signed in/);
    assert.equal(await waiting, "c1");
  } finally {
    await server.close();
  }
});

void test("a wrong state, an error from the authorization server and a timeout each end the wait with a reason", async () => {
  const wrong = await startCallbackServer(ANY_PORT, 5_000);
  const waitWrong = assert.rejects(wrong.waitForCode("expected"), /state does not match/);
  await fetch(`${wrong.redirectUrl}?code=c&state=forged`);
  await waitWrong;
  await wrong.close();

  const denied = await startCallbackServer(ANY_PORT, 5_000);
  const waitDenied = assert.rejects(denied.waitForCode(undefined), /access_denied: user said no/);
  const page = await fetch(`${denied.redirectUrl}?error=access_denied&error_description=user%20said%20no`);
  assert.equal(page.status, 400);
  await waitDenied;
  await denied.close();

  const slow = await startCallbackServer(ANY_PORT, 50);
  await assert.rejects(slow.waitForCode(undefined), /timed out waiting for the OAuth callback/);
  await slow.close();
});
