import { test } from "node:test";
import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { addServer, removeServer, serverBlock } from "./config-edit.js";
import { tomlString, tomlValue } from "../../util/toml-text.js";

/** smol-toml's tables have no prototype; compare as plain JSON data. */
const parse = (text: string): unknown => JSON.parse(JSON.stringify(parseToml(text))) as unknown;

const COMMENTED = `# codex-ts config — comments everywhere
model = "gpt-5.5" # the model

# a profile
[profiles.fast]
model = "o4-mini" # fast one

# existing servers
[mcp_servers.old]
command = "old-cmd" # keep me
args = ["a"]

[mcp_servers.old.env]
X = "1" # env comment

# the end: about [tui]
[tui]
notifications = true # tail
`;

void test("add appends a [mcp_servers.NAME] table block and leaves every existing byte alone", () => {
  const out = addServer(COMMENTED, "docs", { transport: "stdio", command: "docs-server", args: ["--port", "4000"], env: { TOKEN: "secret", A: "b" } });
  assert.ok(out.startsWith(COMMENTED), "the original text is a prefix of the result");
  assert.equal(
    out.slice(COMMENTED.length),
    '\n[mcp_servers.docs]\ncommand = "docs-server"\nargs = ["--port", "4000"]\n\n[mcp_servers.docs.env]\nA = "b"\nTOKEN = "secret"\n',
  );
  const parsed = parse(out) as { mcp_servers: Record<string, unknown> };
  assert.deepEqual(parsed.mcp_servers.docs, { command: "docs-server", args: ["--port", "4000"], env: { A: "b", TOKEN: "secret" } });
});

void test("add writes an HTTP server with its bearer variable; into an empty or missing file too", () => {
  const out = addServer("", "issues", { transport: "streamable_http", url: "https://example.com/mcp", bearerTokenEnvVar: "GITHUB_TOKEN" });
  assert.equal(out, '[mcp_servers.issues]\nurl = "https://example.com/mcp"\nbearer_token_env_var = "GITHUB_TOKEN"\n');
  const noNewline = addServer('model = "x"', "a", { transport: "streamable_http", url: "u", bearerTokenEnvVar: null });
  assert.equal(noNewline, 'model = "x"\n\n[mcp_servers.a]\nurl = "u"\n');
});

void test("remove deletes exactly the server's tables, keeping surrounding comments", () => {
  const added = addServer(COMMENTED, "docs", { transport: "stdio", command: "d", args: [], env: { K: "v" } });
  const back = removeServer(added, "docs");
  assert.equal(back.removed, true);
  assert.equal(back.text, COMMENTED, "add then remove gives back the original bytes");

  const old = removeServer(COMMENTED, "old");
  assert.equal(
    old.text,
    `# codex-ts config — comments everywhere
model = "gpt-5.5" # the model

# a profile
[profiles.fast]
model = "o4-mini" # fast one

# existing servers

# the end: about [tui]
[tui]
notifications = true # tail
`,
  );
  assert.deepEqual(removeServer(COMMENTED, "nope"), { text: COMMENTED, removed: false });
});

void test("add replaces a server of the same name in place of nothing else", () => {
  const out = addServer(COMMENTED, "old", { transport: "stdio", command: "new-cmd", args: [], env: {} });
  const parsed = parse(out) as { mcp_servers: Record<string, unknown>; tui: unknown; profiles: unknown };
  assert.deepEqual(parsed.mcp_servers.old, { command: "new-cmd" });
  assert.match(out, /# existing servers\n/);
  assert.match(out, /# the end: about \[tui\]\n\[tui\]\nnotifications = true # tail\n/);
  assert.ok(!out.includes("old-cmd"));
});

void test("servers written as dotted keys or inline tables are removed too", () => {
  const dotted = `a = 1\nmcp_servers.x.command = "c" # x\nmcp_servers.x.args = ["1"]\nb = 2\n`;
  assert.equal(removeServer(dotted, "x").text, "a = 1\nb = 2\n");
  const inline = `[mcp_servers]\n# keep\nx = { command = "c" }\ny = { command = "d" }\n`;
  assert.equal(removeServer(inline, "x").text, `[mcp_servers]\n# keep\ny = { command = "d" }\n`);
  // The whole map as one inline value: the structural patch takes over, and the result is checked.
  const whole = `mcp_servers = { x = { command = "c" }, y = { command = "d" } }\n`;
  const out = removeServer(whole, "x");
  assert.deepEqual(parse(out.text), { mcp_servers: { y: { command: "d" } } });
  const added = addServer(whole, "z", { transport: "stdio", command: "z", args: [], env: {} });
  assert.deepEqual(parse(added), { mcp_servers: { x: { command: "c" }, y: { command: "d" }, z: { command: "z" } } });
});

void test("CRLF files keep their line endings", () => {
  const crlf = '# c\r\nmodel = "x"\r\n';
  const out = addServer(crlf, "a", { transport: "stdio", command: "c", args: [], env: {} });
  assert.equal(out, '# c\r\nmodel = "x"\r\n\r\n[mcp_servers.a]\r\ncommand = "c"\r\n');
  assert.equal(removeServer(out, "a").text, crlf);
});

void test("strings and keys are escaped so they parse back exactly", () => {
  const tricky = 'a "quoted" \\ back\nslash\t\u0001\u007f é';
  const block = serverBlock("n", { transport: "stdio", command: tricky, args: [tricky], env: { "weird key": tricky } });
  const parsed = parse(block.join("\n")) as { mcp_servers: { n: { command: string; args: string[]; env: Record<string, string> } } };
  assert.equal(parsed.mcp_servers.n.command, tricky);
  assert.deepEqual(parsed.mcp_servers.n.env, { "weird key": tricky });
  assert.equal(tomlString("x"), '"x"');
  assert.equal(tomlValue({ a: [1, 2.5, true], "b.c": "s" }), '{ a = [1, 2.5, true], "b.c" = "s" }');
  assert.equal(tomlValue(Number.NaN), null);
});
