import { test } from "node:test";
import assert from "node:assert/strict";
import { shellArgv } from "./shell-argv.js";

void test("one argv rule for every script tool: -lc by default, -c without login, always -c for sh", () => {
  assert.deepEqual(shellArgv("/bin/bash", "ls", true), ["/bin/bash", "-lc", "ls"]);
  assert.deepEqual(shellArgv("/usr/bin/zsh", "ls", false), ["/usr/bin/zsh", "-c", "ls"]);
  assert.deepEqual(shellArgv("/bin/sh", "ls", true), ["/bin/sh", "-c", "ls"]);
});
