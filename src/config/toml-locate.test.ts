import { test } from "node:test";
import assert from "node:assert/strict";
import { parse } from "smol-toml";
import { locateKeys } from "./toml-locate.js";

const DOC = `# a comment
model = "o3"   # trailing comment
profile = 'fast'

[sandbox_workspace_write]
writable_roots = [
  "/a",   # first
  "/b",
]
network_access = true

[projects."/home/me/src/a.b"]
trust_level = "trusted"

[model_providers.az]
query_params = { api-version = "2025", nested = { deep = 1 } }
name.first = "x"

[[skills.config]]
path = "/x"
enabled = false

[mcp_servers.docs]
description = """
[not_a_table]
fake = 1
"""
'quoted key' = 2
"escaped\\u0041" = 3
when = 1979-05-27 07:32:00Z
`;

void test("the locator finds keys, headers, quoted parts, dotted and inline-table keys", () => {
  parse(DOC); // the scanner only ever sees valid TOML
  const at = locateKeys(DOC);
  assert.equal(at.lineOf(["model"]), 2);
  assert.equal(at.lineOf(["profile"]), 3);
  assert.equal(at.lineOf(["sandbox_workspace_write"]), 5);
  assert.equal(at.lineOf(["sandbox_workspace_write", "writable_roots"]), 6);
  assert.equal(at.lineOf(["sandbox_workspace_write", "network_access"]), 10);
  assert.equal(at.lineOf(["projects", "/home/me/src/a.b"]), 12);
  assert.equal(at.lineOf(["projects", "/home/me/src/a.b", "trust_level"]), 13);
  assert.equal(at.lineOf(["model_providers", "az", "query_params", "api-version"]), 16);
  assert.equal(at.lineOf(["model_providers", "az", "query_params", "nested", "deep"]), 16);
  assert.equal(at.lineOf(["model_providers", "az", "name", "first"]), 17);
  assert.equal(at.lineOf(["skills", "config", "enabled"]), 21);
  assert.equal(at.lineOf(["mcp_servers", "docs", "description"]), 24);
  assert.equal(at.lineOf(["not_a_table"]), null, "text inside a multi-line string is not a header");
  assert.equal(at.lineOf(["mcp_servers", "docs", "quoted key"]), 28);
  assert.equal(at.lineOf(["mcp_servers", "docs", "escapedA"]), 29);
  assert.equal(at.lineOf(["mcp_servers", "docs", "when"]), 30);
});

void test("a missing key falls back to its table's line, then to nothing", () => {
  const at = locateKeys(DOC);
  assert.equal(at.lineOf(["model_providers", "az", "base_url"]), 15);
  assert.equal(at.lineOf(["profiles", "fast", "model"]), null);
  assert.equal(at.lineOf([]), null);
});

void test("the first definition wins for repeated array-of-tables headers, and CRLF files count lines", () => {
  const at = locateKeys("[[a]]\nx = 1\n[[a]]\nx = 2\n");
  assert.equal(at.lineOf(["a", "x"]), 2);
  const crlf = locateKeys("a = 1\r\n\r\n[t]\r\nb = 2\r\n");
  assert.equal(crlf.lineOf(["t", "b"]), 4);
});
