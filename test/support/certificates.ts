/**
 * A throwaway certificate authority and a server certificate for 127.0.0.1 it signed, made with
 * openssl for the CODEX_CA_CERTIFICATE tests; null when openssl is not installed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCertificates {
  /** The CA's PEM file, for CODEX_CA_CERTIFICATE. */
  caFile: string;
  /** The server's key and certificate, for https.createServer. */
  key: string;
  cert: string;
}

export function makeCertificates(): TestCertificates | null {
  if (spawnSync("openssl", ["version"]).status !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-ca-"));
  const run = (args: string[]): void => {
    const r = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" });
    assert.equal(r.status, 0, `openssl ${args.join(" ")}: ${r.stderr}`);
  };
  run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=codex-ts test CA"]);
  run(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"]);
  writeFileSync(join(dir, "ext.cnf"), "subjectAltName=IP:127.0.0.1\n");
  run(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf"]);
  return { caFile: join(dir, "ca.pem"), key: readFileSync(join(dir, "server.key"), "utf8"), cert: readFileSync(join(dir, "server.pem"), "utf8") };
}
