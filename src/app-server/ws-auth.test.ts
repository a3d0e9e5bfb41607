import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { refusal, wsAuthFromOptions, WsAuthError } from "./ws-auth.js";
import { isLoopback, parseListen } from "./run-app-server.js";

function jwt(claims: object, secret: string, alg = "HS256"): string {
  const part = (v: object): string => Buffer.from(JSON.stringify(v)).toString("base64url");
  const body = `${part({ alg, typ: "JWT" })}.${part(claims)}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

void test("capability tokens: from a file or a SHA-256, compared whole", () => {
  const dir = mkdtempSync(join(tmpdir(), "ws-auth-"));
  writeFileSync(join(dir, "token"), "abc123\n");
  const fromFile = wsAuthFromOptions({ wsAuth: "capability-token", wsTokenFile: join(dir, "token") });
  assert.equal(refusal(fromFile, "Bearer abc123"), null);
  assert.equal(refusal(fromFile, "Bearer abc12"), "invalid bearer token");
  assert.equal(refusal(fromFile, undefined), "missing bearer token");
  const fromHash = wsAuthFromOptions({ wsAuth: "capability-token", wsTokenSha256: createHash("sha256").update("abc123").digest("hex") });
  assert.equal(refusal(fromHash, "bearer abc123"), null);
  assert.throws(() => wsAuthFromOptions({ wsAuth: "capability-token", wsTokenFile: "relative/token" }), /absolute path/);
  assert.throws(() => wsAuthFromOptions({ wsAuth: "capability-token" }), WsAuthError);
  assert.throws(() => wsAuthFromOptions({ wsAuth: "magic" }), /expected capability-token or signed-bearer-token/);
  assert.throws(() => wsAuthFromOptions({ wsTokenFile: "/x" }), /go with --ws-auth/);
});

void test("signed bearer tokens: HS256 signature, expiry with skew, not-before, issuer and audience", () => {
  const dir = mkdtempSync(join(tmpdir(), "ws-auth-"));
  writeFileSync(join(dir, "secret"), "s3cret");
  const auth = wsAuthFromOptions({ wsAuth: "signed-bearer-token", wsSharedSecretFile: join(dir, "secret"), wsIssuer: "me", wsAudience: "codex", wsMaxClockSkewSeconds: "10" });
  const now = 1_000_000;
  const ok = { exp: now + 60, iss: "me", aud: ["other", "codex"] };
  assert.equal(refusal(auth, `Bearer ${jwt(ok, "s3cret")}`, now), null);
  assert.equal(refusal(auth, `Bearer ${jwt(ok, "wrong")}`, now), "invalid bearer token signature");
  assert.equal(refusal(auth, `Bearer ${jwt(ok, "s3cret", "none")}`, now), "the bearer token must be signed with HS256");
  assert.equal(refusal(auth, `Bearer ${jwt({ ...ok, exp: now - 5 }, "s3cret")}`, now), null, "within the skew");
  assert.equal(refusal(auth, `Bearer ${jwt({ ...ok, exp: now - 11 }, "s3cret")}`, now), "the bearer token has expired");
  assert.equal(refusal(auth, `Bearer ${jwt({ iss: "me", aud: "codex" }, "s3cret")}`, now), "the bearer token has expired", "exp is required");
  assert.equal(refusal(auth, `Bearer ${jwt({ ...ok, nbf: now + 30 }, "s3cret")}`, now), "the bearer token is not valid yet");
  assert.equal(refusal(auth, `Bearer ${jwt({ ...ok, iss: "you" }, "s3cret")}`, now), "the bearer token's issuer is not the expected one");
  assert.equal(refusal(auth, `Bearer ${jwt({ ...ok, aud: "elsewhere" }, "s3cret")}`, now), "the bearer token's audience is not the expected one");
  assert.equal(refusal(auth, "Bearer not-a-jwt", now), "the bearer token is not a JWT");
});

void test("--listen takes stdio or ws://HOST:PORT; only loopback listens without auth", () => {
  assert.deepEqual(parseListen(undefined), { kind: "stdio" });
  assert.deepEqual(parseListen("stdio://"), { kind: "stdio" });
  assert.deepEqual(parseListen("ws://127.0.0.1:4500"), { kind: "ws", host: "127.0.0.1", port: 4500 });
  assert.deepEqual(parseListen("ws://[::1]:0"), { kind: "ws", host: "::1", port: 0 });
  assert.match(String(parseListen("unix://")), /not supported by codex-ts/);
  assert.match(String(parseListen("http://x:1")), /expected stdio:\/\/ or ws:\/\/HOST:PORT/);
  assert.match(String(parseListen("ws://x:99999")), /out of range/);
  for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost"]) assert.equal(isLoopback(host), true, host);
  for (const host of ["0.0.0.0", "10.0.0.1", "::", "example.com"]) assert.equal(isLoopback(host), false, host);
});
