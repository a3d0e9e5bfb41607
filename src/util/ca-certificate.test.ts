import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { customCaSource, httpsAgentFor } from "./ca-certificate.js";

void test("CODEX_CA_CERTIFICATE wins over SSL_CERT_FILE; neither set means Node's default agent", async () => {
  assert.deepEqual(customCaSource({ CODEX_CA_CERTIFICATE: "/a.pem", SSL_CERT_FILE: "/b.pem" }), { variable: "CODEX_CA_CERTIFICATE", path: "/a.pem" });
  assert.deepEqual(customCaSource({ SSL_CERT_FILE: " /b.pem " }), { variable: "SSL_CERT_FILE", path: "/b.pem" });
  assert.equal(customCaSource({ CODEX_CA_CERTIFICATE: "  " }), null);
  assert.equal(await httpsAgentFor({}), undefined);
});

void test("an empty or damaged bundle is an error naming the variable and the file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-ca-unit-"));
  const empty = join(dir, "empty.pem");
  writeFileSync(empty, "");
  await assert.rejects(httpsAgentFor({ CODEX_CA_CERTIFICATE: empty }), /CODEX_CA_CERTIFICATE: no certificates found in PEM file .*empty\.pem/);
  const broken = join(dir, "broken.pem");
  writeFileSync(broken, "-----BEGIN CERTIFICATE-----\nMIIBroken\n-----END CERTIFICATE-----\n");
  await assert.rejects(httpsAgentFor({ SSL_CERT_FILE: broken }), /SSL_CERT_FILE: failed to parse PEM file .*broken\.pem/);
  await assert.rejects(httpsAgentFor({ CODEX_CA_CERTIFICATE: join(dir, "missing.pem") }), /CODEX_CA_CERTIFICATE: cannot read .*missing\.pem/);
});
