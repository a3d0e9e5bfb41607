import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startChatGptLogin } from "./browser-login.js";

const env = { CODEX_TS_LOGIN_PORT: "0", CODEX_TS_LOGIN_ISSUER: "http://127.0.0.1:9" };

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

void test("the sign-in gives up after its timeout and stops listening", async () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-browser-"));
  let told = "";
  const handle = await startChatGptLogin({ codexHome: home, env, openBrowser: false, timeoutMs: 100, onUrl: (url) => (told = url) });
  assert.equal(told, handle.url);
  assert.match(handle.url, /^http:\/\/127\.0\.0\.1:9\/oauth\/authorize\?response_type=code&client_id=app_EMoamEEZ73f0CkXaXp7hrann&redirect_uri=http%3A%2F%2Flocalhost%3A\d+%2Fauth%2Fcallback&scope=openid%20profile%20email%20offline_access/);
  await assert.rejects(handle.done, /Sign-in timed out/);
  await assert.rejects(get(handle.port, "/auth/callback"), /ECONNREFUSED/);
});

void test("/cancel and cancel() end the sign-in; unknown paths are 404 and keep it waiting", async () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-browser-"));
  const first = await startChatGptLogin({ codexHome: home, env, openBrowser: false });
  assert.equal((await get(first.port, "/elsewhere")).status, 404);
  assert.equal((await get(first.port, "/success")).status, 404, "no success before a login");
  assert.deepEqual(await get(first.port, "/cancel"), { status: 200, body: "Login cancelled" });
  await assert.rejects(first.done, /Login cancelled/);

  const second = await startChatGptLogin({ codexHome: home, env, openBrowser: false });
  second.cancel();
  await assert.rejects(second.done, /Login cancelled/);
});
