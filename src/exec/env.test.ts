import { test } from "node:test";
import assert from "node:assert/strict";
import { createCommandEnv, globToRegExp, withNetworkDisabledFlag } from "./env.js";

const BASE = {
  PATH: "/usr/bin",
  HOME: "/home/u",
  LANG: "C.UTF-8",
  FOO: "bar",
  OPENAI_API_KEY: "sk-1",
  GITHUB_TOKEN: "t",
  my_secret_thing: "s",
  MONKEY: "m",
  UNSET: undefined,
};

void test("by default credential-looking names (*KEY*, *SECRET*, *TOKEN*) are dropped, case-insensitively", () => {
  assert.deepEqual(Object.keys(createCommandEnv({}, BASE)).sort(), ["FOO", "HOME", "LANG", "PATH"]);
  assert.deepEqual(Object.keys(createCommandEnv({ ignore_default_excludes: false }, BASE)).sort(), ["FOO", "HOME", "LANG", "PATH"]);
});

void test("ignore_default_excludes = true keeps everything", () => {
  const env = createCommandEnv({ ignore_default_excludes: true }, BASE);
  assert.deepEqual(Object.keys(env).sort(), ["FOO", "GITHUB_TOKEN", "HOME", "LANG", "MONKEY", "OPENAI_API_KEY", "PATH", "my_secret_thing"]);
});

void test("inherit core keeps only the core names; none starts empty", () => {
  assert.deepEqual(Object.keys(createCommandEnv({ inherit: "core" }, BASE)).sort(), ["HOME", "LANG", "PATH"]);
  assert.deepEqual(createCommandEnv({ inherit: "none", set: { ONLY: "yes" } }, BASE), { ONLY: "yes" });
});

void test("exclude, then set, then include_only, in that order", () => {
  const env = createCommandEnv(
    { ignore_default_excludes: true, exclude: ["f?o", "HOME"], set: { FOO: "again", NEW_PATHISH: "1" }, include_only: ["*path*", "foo"] },
    BASE,
  );
  assert.deepEqual(env, { PATH: "/usr/bin", FOO: "again", NEW_PATHISH: "1" });
});

void test("glob patterns are anchored and treat regex characters literally", () => {
  assert.ok(globToRegExp("A.B*").test("a.bcd"));
  assert.ok(!globToRegExp("A.B*").test("axbcd"));
  assert.ok(!globToRegExp("KEY").test("MONKEY"));
  assert.ok(globToRegExp("*(x)?").test("fn(x)1"));
});

void test("thread id and the network flag are added on request", () => {
  assert.equal(createCommandEnv({ inherit: "none" }, BASE, { threadId: "t-1" }).CODEX_THREAD_ID, "t-1");
  const env = { A: "1" };
  assert.deepEqual(withNetworkDisabledFlag(env, true), { A: "1", CODEX_SANDBOX_NETWORK_DISABLED: "1" });
  assert.deepEqual(withNetworkDisabledFlag(env, false), { A: "1" });
  assert.deepEqual(env, { A: "1" });
});
