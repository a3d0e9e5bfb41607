import assert from "node:assert/strict";
import { test } from "node:test";
import { didYouMean, editDistance, nearest } from "./nearest.js";

void test("counts insertions, deletions, replacements and adjacent swaps as one each", () => {
  assert.equal(editDistance("exec", "exec"), 0);
  assert.equal(editDistance("exce", "exec"), 1);
  assert.equal(editDistance("exe", "exec"), 1);
  assert.equal(editDistance("execc", "exec"), 1);
  assert.equal(editDistance("exac", "exec"), 1);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
});

const subcommands = ["exec", "review", "sessions", "fork", "sandbox", "login", "logout", "mcp"];

void test("finds a mistyped subcommand, option value or config key", () => {
  assert.equal(nearest("exce", subcommands), "exec");
  assert.equal(nearest("sandbx", subcommands), "sandbox");
  assert.equal(nearest("workspace-writ", ["read-only", "workspace-write", "danger-full-access"]), "workspace-write");
  assert.equal(nearest("model_reasoning_efort", ["model", "model_reasoning_effort", "model_reasoning_summary"]), "model_reasoning_effort");
});

void test("ignores case and takes a unique prefix", () => {
  assert.equal(nearest("Read-Only", ["read-only", "workspace-write"]), "read-only");
  assert.equal(nearest("workspace", ["read-only", "workspace-write", "danger-full-access"]), "workspace-write");
  assert.equal(nearest("log", ["login", "logout"]), null, "an ambiguous prefix suggests nothing");
});

void test("suggests nothing for a word that is not close to any candidate", () => {
  assert.equal(nearest("refactor", subcommands), null);
  assert.equal(nearest("hi", subcommands), null);
  assert.equal(nearest("", subcommands), null);
});

void test("prefers the closest candidate, then the earlier one", () => {
  assert.equal(nearest("logot", ["login", "logout"]), "logout");
  assert.equal(nearest("ab", ["ac", "ad"]), "ac");
});

void test("formats the suggestion for a message, or nothing", () => {
  assert.equal(didYouMean("alway", ["always", "never", "auto"]), " (did you mean always?)");
  assert.equal(didYouMean("sometimes", ["always", "never", "auto"]), "");
});
