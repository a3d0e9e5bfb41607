import { test } from "node:test";
import assert from "node:assert/strict";
import { qualifyTools, sanitizeToolName } from "./names.js";

const tool = (server: string, name: string): { server: string; tool: string } => ({ server, tool: name });
const names = (tools: Array<{ server: string; tool: string }>): string[] => [...qualifyTools(tools).keys()];

void test("short names are mcp__<server>__<tool>", () => {
  assert.deepEqual(names([tool("server1", "tool1"), tool("server1", "tool2")]), ["mcp__server1__tool1", "mcp__server1__tool2"]);
});

void test("the same server/tool pair listed twice is kept once", () => {
  assert.deepEqual(names([tool("server1", "duplicate_tool"), tool("server1", "duplicate_tool")]), ["mcp__server1__duplicate_tool"]);
});

void test("names over 64 characters keep 24 and end in the SHA-1 of the raw name (the reference's vectors)", () => {
  const long = names([
    tool("my_server", "extremely_lengthy_function_name_that_absolutely_surpasses_all_reasonable_limits"),
    tool("my_server", "yet_another_extremely_lengthy_function_name_that_absolutely_surpasses_all_reasonable_limits"),
  ]).sort();
  assert.deepEqual(long, [
    "mcp__my_server__extremel119a2b97664e41363932dc84de21e2ff1b93b3e9",
    "mcp__my_server__yet_anot419a82a89325c1b477274a41f8c65ea5f3a7f341",
  ]);
  for (const name of long) assert.equal(name.length, 64);
});

void test("characters outside [A-Za-z0-9_-] become underscores; the raw names stay on the entry", () => {
  const [first] = [...qualifyTools([tool("server.one", "tool.two")])];
  assert.ok(first);
  const [name, entry] = first;
  assert.equal(name, "mcp__server_one__tool_two");
  assert.deepEqual(entry, { server: "server.one", tool: "tool.two" });
  assert.equal(sanitizeToolName("héllo wörld"), "h_llo_w_rld");
  assert.equal(sanitizeToolName(""), "_");
  assert.equal(sanitizeToolName("a-b_c"), "a-b_c");
});

void test("two raw names that sanitise alike both stay callable: the later one gets the hash", () => {
  const qualified = [...qualifyTools([tool("s", "foo.bar"), tool("s", "foo_bar")])];
  assert.equal(qualified.length, 2);
  assert.equal(qualified[0]?.[0], "mcp__s__foo_bar");
  assert.deepEqual(qualified[0]?.[1], tool("s", "foo.bar"));
  const second = qualified[1]?.[0] ?? "";
  assert.match(second, /^mcp__s__foo_bar[0-9a-f]{40}$/);
  assert.equal(second.length, 55);
  assert.deepEqual(qualified[1]?.[1], tool("s", "foo_bar"));
});

void test("every qualified name is valid for the Responses API", () => {
  const weird = [tool("ünïcødé", "tool/with/slashes"), tool("srv", "x".repeat(200)), tool("a b", "c d")];
  for (const name of names(weird)) {
    assert.match(name, /^[a-zA-Z0-9_-]+$/);
    assert.ok(name.length <= 64, name);
  }
});
