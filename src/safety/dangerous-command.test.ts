import { test } from "node:test";
import assert from "node:assert/strict";
import { commandMightBeDangerous } from "./dangerous-command.js";
import { bashParserLoads } from "../shell/bash-parser.js";

const bash = (script: string): string[] => ["bash", "-lc", script];

// First in the file: nothing has loaded the grammar yet.
void test("a script naming no rm and no force option is answered without loading the bash grammar", async () => {
  for (const script of ["ls -la && cargo build", "tail -f log.txt", "echo rm is a word | wc -l", "npm run format"]) {
    assert.equal(await commandMightBeDangerous(bash(script)), false, script);
  }
  assert.equal(bashParserLoads(), 0);
});

void test("rm with its force option is dangerous wherever the option stands before --", async () => {
  // The forms Codex 0.169 was seen refusing under approval `never`.
  for (const argv of [
    ["rm", "-f", "x"],
    ["rm", "-rf", "dir"],
    ["rm", "-fr", "dir"],
    ["rm", "-Rf", "dir"],
    ["rm", "-r", "-f", "dir"],
    ["rm", "--force", "x"],
    ["rm", "x", "-f"],
    ["/bin/rm", "-rf", "dir"],
    ["sudo", "rm", "-rf", "/"],
  ]) {
    assert.equal(await commandMightBeDangerous(argv), true, argv.join(" "));
  }
});

void test("other commands and rm without force are not", async () => {
  for (const argv of [["rm", "x"], ["rm", "-r", "dir"], ["rm", "--", "-f"], ["ls", "-f"], ["git", "rm", "-f", "x"], ["xargs", "rm", "-rf"], ["sudo", "-n", "rm", "-rf", "x"], ["rmdir", "-f"]]) {
    assert.equal(await commandMightBeDangerous(argv), false, argv.join(" "));
  }
});

void test("scripts are searched everywhere, nested shells included", async () => {
  for (const script of [
    "rm -rf victim",
    "echo hi && rm -rf victim",
    "rm -rf victim | cat",
    "(rm -rf victim)",
    "{ rm -f x; }",
    "if true; then rm -f x; fi",
    "for f in *; do rm -f \"$f\"; done",
    "bash -c 'rm -rf victim'",
    "sh -c \"bash -lc 'rm -f x'\"",
    "'rm' '-rf' dir",
    "r\\m -f x",
    "FOO=1 rm -f x",
    "echo $(rm -rf dir)",
  ]) {
    assert.equal(await commandMightBeDangerous(bash(script)), true, script);
  }
  for (const script of ["ls -la", "rm -r dir && echo done", "echo rm -rf x", "git rm -f x", "cat <<EOF\nrm -rf x\nEOF"]) {
    assert.equal(await commandMightBeDangerous(bash(script)), false, script);
  }
});
