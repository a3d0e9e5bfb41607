import { test } from "node:test";
import assert from "node:assert/strict";
import { sandboxPolicyFor } from "../protocol/policy.js";
import { seatbeltDenyClauses, seatbeltRegex } from "./seatbelt-deny.js";
import { seatbeltProfile } from "./seatbelt.js";

const same = (path: string): string => path;

void test("globs become anchored regular expressions over real paths that also cover what is below a match", () => {
  const regex = (pattern: string): RegExp => new RegExp(seatbeltRegex({ base: "/w/p.x", pattern }, same));
  const env = regex("**/.env");
  for (const path of ["/w/p.x/.env", "/w/p.x/a/b/.env", "/w/p.x/a/.env/inside"]) assert.ok(env.test(path), path);
  for (const path of ["/w/p.x/.envrc", "/w/pax/.env", "/w/p.x/a.env"]) assert.equal(env.test(path), false, path);
  const keys = regex("id_{rsa,ed25519}");
  assert.ok(keys.test("/w/p.x/id_rsa") && keys.test("/w/p.x/id_ed25519"));
  assert.equal(keys.test("/w/p.x/id_rsa.pub"), false);
  const pem = regex("certs/*.pem");
  assert.ok(pem.test("/w/p.x/certs/a.pem"));
  assert.equal(pem.test("/w/p.x/certs/sub/a.pem"), false);
  assert.ok(regex("[ab]?.key").test("/w/p.x/a1.key"));
});

void test("the profile ends with the rules, deepest path last, then the patterns; a read rule reopens reading", () => {
  const rules = {
    paths: [
      { path: "/w/secrets/public", access: "read" as const },
      { path: "/w/secrets", access: "none" as const },
    ],
    denyGlobs: [{ base: "/w", pattern: "**/.env" }],
    globScanMaxDepth: null,
    searchRoots: ["/w"],
  };
  const { text, params } = seatbeltDenyClauses(rules, { hidden: [{ path: "/w/link-to-key", dir: false }], readOnly: [], writable: [] }, same);
  const lines = text.trim().split("\n").slice(1);
  assert.deepEqual(lines, [
    '(deny file-read* file-write* (subpath (param "FS_RULE_0")))',
    '(allow file-read* (subpath (param "FS_RULE_1")))',
    '(deny file-write* (subpath (param "FS_RULE_1")))',
    '(deny file-read* file-write* (regex #"^/w/(.*/)?\\.env(/.*)?$"))',
    '(deny file-read* file-write* (subpath (param "FS_HIDDEN_0")))',
    '(deny file-write* (literal (param "FS_PIN_0")))',
  ]);
  assert.deepEqual(params, { FS_RULE_0: "/w/secrets", FS_RULE_1: "/w/secrets/public", FS_HIDDEN_0: "/w/link-to-key", FS_PIN_0: "/w" });
  const profile = seatbeltProfile(sandboxPolicyFor("read-only"), "/w", {}, rules).profile;
  assert.ok(profile.endsWith(seatbeltDenyClauses(rules, undefined, same).text), profile);
});
