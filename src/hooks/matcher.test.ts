import { test } from "node:test";
import assert from "node:assert/strict";
import { matcherProblem, matcherSelects } from "./matcher.js";

// What Codex 0.169 selected for a `Bash` call and an apply_patch call (which also answers to Edit and Write).
const BASH = ["Bash"];
const PATCH = ["apply_patch", "Edit", "Write"];

void test("matchers select as the reference's do: everything, exact names, or a regular expression", () => {
  const cases: Array<[string | null, boolean, boolean]> = [
    [null, true, true],
    ["", true, true],
    ["*", true, true],
    ["Bash", true, false],
    ["Ba", false, false], // letters only: an exact name, not a prefix
    ["bash", false, false], // case matters
    ["exec_command", false, false], // shell tools are named Bash
    ["^Bash$", true, false],
    ["Ba.*", true, false],
    ["Edit|Write", false, true],
    ["apply", false, false],
    ["patch$", false, true],
    ["(?i)^BASH$", true, false],
  ];
  for (const [matcher, bash, patch] of cases) {
    assert.equal(matcherSelects(matcher, BASH), bash, `${String(matcher)} on Bash`);
    assert.equal(matcherSelects(matcher, PATCH), patch, `${String(matcher)} on apply_patch`);
  }
  assert.equal(matcherSelects("mcp__memory__.*", ["mcp__memory__create_entities"]), true);
  assert.equal(matcherSelects("mcp__memory", ["mcp__memory__create_entities"]), false);
  assert.equal(matcherSelects("(?P<tool>Bash)", BASH), true);
});

void test("a matcher the reference would refuse is refused, with why", () => {
  assert.match(matcherProblem("[") ?? "", /Unterminated character class/);
  assert.match(matcherProblem("^(?!Bash).*") ?? "", /look-around and back-references are not supported/);
  assert.match(matcherProblem("(a)\\1") ?? "", /look-around and back-references/);
  for (const ok of ["", "*", "Bash", "Edit|Write", "^Bash$", "mcp__.*__write.*"]) assert.equal(matcherProblem(ok), null, ok);
});
