import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMcpAdd, runMcpGet, runMcpList, runMcpRemove, type McpIo } from "./commands.js";

interface Captured extends McpIo {
  stdout: string;
  stderr: string;
  home: string;
}

function io(config?: string): Captured {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-mcp-cli-"));
  const home = join(root, "home");
  const cwd = join(root, "work");
  mkdirSync(home);
  mkdirSync(cwd);
  if (config !== undefined) writeFileSync(join(home, "config.toml"), config);
  const c: Captured = {
    stdout: "",
    stderr: "",
    home,
    cwd,
    env: { CODEX_HOME: home, HOME: root },
    out: (t) => (c.stdout += t),
    err: (t) => (c.stderr += t),
  };
  return c;
}

const reset = (c: Captured): void => {
  c.stdout = "";
  c.stderr = "";
};

const CONFIG = `# top comment
model = "gpt-5.5" # trailing

# servers below
[mcp_servers.keep]
command = "keep-cmd" # keep
`;

void test("add (stdio with env, http with bearer var), list, get, remove round trip", async () => {
  const c = io(CONFIG);
  assert.equal(await runMcpAdd("docs", ["docs-server", "--port", "4000"], { env: ["TOKEN=secret", "A=b=c"] }, c), 0);
  assert.equal(c.stdout, "Added global MCP server 'docs'.\n");
  reset(c);
  assert.equal(await runMcpAdd("issues", [], { url: "https://example.com/mcp", bearerTokenEnvVar: "GITHUB_TOKEN" }, c), 0);
  assert.equal(c.stdout, "Added global MCP server 'issues'.\n");
  const text = readFileSync(join(c.home, "config.toml"), "utf8");
  assert.ok(text.startsWith(CONFIG));
  assert.equal(
    text.slice(CONFIG.length),
    '\n[mcp_servers.docs]\ncommand = "docs-server"\nargs = ["--port", "4000"]\n\n[mcp_servers.docs.env]\nA = "b=c"\nTOKEN = "secret"\n' +
      '\n[mcp_servers.issues]\nurl = "https://example.com/mcp"\nbearer_token_env_var = "GITHUB_TOKEN"\n',
  );

  reset(c);
  assert.equal(await runMcpList({}, c), 0);
  assert.equal(
    c.stdout,
    [
      "Name  Command      Args         Env                   Cwd  Status   Auth       ",
      "docs  docs-server  --port 4000  A=*****, TOKEN=*****  -    enabled  Unsupported",
      "keep  keep-cmd     -            -                     -    enabled  Unsupported",
      "",
      "Name    Url                      Bearer Token Env Var  Status   Auth        ",
      "issues  https://example.com/mcp  GITHUB_TOKEN          enabled  Bearer token",
      "",
    ].join("\n"),
  );

  reset(c);
  assert.equal(await runMcpList({ json: true }, c), 0);
  assert.deepEqual(JSON.parse(c.stdout), [
    {
      name: "docs",
      enabled: true,
      transport: { type: "stdio", command: "docs-server", args: ["--port", "4000"], env: { A: "b=c", TOKEN: "secret" }, env_vars: [], cwd: null },
      startup_timeout_sec: null,
      tool_timeout_sec: null,
      auth_status: "unsupported",
    },
    {
      name: "issues",
      enabled: true,
      transport: { type: "streamable_http", url: "https://example.com/mcp", bearer_token_env_var: "GITHUB_TOKEN", http_headers: null, env_http_headers: null },
      startup_timeout_sec: null,
      tool_timeout_sec: null,
      auth_status: "bearer_token",
    },
    {
      name: "keep",
      enabled: true,
      transport: { type: "stdio", command: "keep-cmd", args: [], env: null, env_vars: [], cwd: null },
      startup_timeout_sec: null,
      tool_timeout_sec: null,
      auth_status: "unsupported",
    },
  ]);

  reset(c);
  assert.equal(await runMcpGet("docs", {}, c), 0);
  assert.equal(
    c.stdout,
    "docs\n  enabled: true\n  transport: stdio\n  command: docs-server\n  args: --port 4000\n  cwd: -\n  env: A=*****, TOKEN=*****\n  remove: codex-ts mcp remove docs\n",
  );
  reset(c);
  assert.equal(await runMcpGet("issues", { json: true }, c), 0);
  assert.deepEqual(JSON.parse(c.stdout), {
    name: "issues",
    enabled: true,
    transport: { type: "streamable_http", url: "https://example.com/mcp", bearer_token_env_var: "GITHUB_TOKEN", http_headers: null, env_http_headers: null },
    enabled_tools: null,
    disabled_tools: null,
    startup_timeout_sec: null,
    tool_timeout_sec: null,
  });

  reset(c);
  assert.equal(await runMcpRemove("docs", c), 0);
  assert.equal(c.stdout, "Removed global MCP server 'docs'.\n");
  assert.equal(await runMcpRemove("issues", c), 0);
  assert.equal(readFileSync(join(c.home, "config.toml"), "utf8"), CONFIG, "back to the original bytes");
  reset(c);
  assert.equal(await runMcpRemove("docs", c), 0);
  assert.equal(c.stdout, "No MCP server named 'docs' found.\n");
});

void test("errors: bad names, missing servers, bad --env, conflicting transports", async () => {
  const c = io();
  assert.equal(await runMcpAdd("bad name", ["x"], {}, c), 1);
  assert.equal(c.stderr, "Error: invalid server name 'bad name' (use letters, numbers, '-', '_')\n");
  reset(c);
  assert.equal(await runMcpGet("nope", {}, c), 1);
  assert.equal(c.stderr, "Error: No MCP server named 'nope' found.\n");
  reset(c);
  assert.equal(await runMcpAdd("x", ["cmd"], { env: ["NOEQUALS"] }, c), 1);
  assert.match(c.stderr, /environment entries must be in KEY=VALUE form/);
  reset(c);
  assert.equal(await runMcpAdd("x", ["cmd"], { url: "https://e" }, c), 1);
  assert.equal(await runMcpAdd("x", [], {}, c), 1);
  assert.equal(await runMcpAdd("x", ["cmd"], { bearerTokenEnvVar: "T" }, c), 1);
  reset(c);
  assert.equal(await runMcpList({}, c), 0);
  assert.equal(c.stdout, "No MCP servers configured yet. Try `codex-ts mcp add my-tool -- my-command`.\n");
  reset(c);
  assert.equal(await runMcpList({ json: true }, c), 0);
  assert.equal(c.stdout, "[]\n");
});

void test("a config.toml that is not valid TOML is reported and left alone", async () => {
  const broken = "model = \n[oops\n";
  const c = io(broken);
  assert.equal(await runMcpAdd("x", ["cmd"], {}, c), 1);
  assert.match(c.stderr, /^Error: failed to load MCP servers from .*home: /);
  assert.equal(await runMcpRemove("x", c), 1);
  assert.equal(readFileSync(join(c.home, "config.toml"), "utf8"), broken);
});

void test("get shows a disabled server as one line, and timeouts/tool lists when set", async () => {
  const c = io(`[mcp_servers.off]\ncommand = "x"\nenabled = false\n\n[mcp_servers.on]\ncommand = "y"\nenv_vars = ["PATHY"]\ncwd = "/tmp"\nstartup_timeout_sec = 5\ntool_timeout_sec = 30\nenabled_tools = []\ndisabled_tools = ["b", "c"]\n`);
  assert.equal(await runMcpGet("off", {}, c), 0);
  assert.equal(c.stdout, "off (disabled)\n");
  reset(c);
  assert.equal(await runMcpGet("on", {}, c), 0);
  assert.equal(
    c.stdout,
    "on\n  enabled: true\n  enabled_tools: []\n  disabled_tools: b, c\n  transport: stdio\n  command: y\n  args: -\n  cwd: /tmp\n  env: PATHY=*****\n  startup_timeout_sec: 5\n  tool_timeout_sec: 30\n  remove: codex-ts mcp remove on\n",
  );
  reset(c);
  assert.equal(await runMcpList({}, c), 0);
  assert.match(c.stdout, /^off\s+x\s.*\sdisabled\s+Unsupported\n/m);
});
