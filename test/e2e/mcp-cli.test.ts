/**
 * `codex-ts mcp add|list|get|remove` end to end, on a config.toml with comments everywhere:
 * every byte of it that is not the edited server's table must survive.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeWorkspace, runCli, type Workspace } from "../support/cli.js";

const CONFIG = `# codex-ts configuration — comments everywhere
model = "gpt-5.5" # trailing comment
approval_policy = "on-request"

# A profile, with its own comment
[profiles.fast]
model = "o4-mini" # inline

# The servers I already have
[mcp_servers.keep]
command = "keep-server" # stays
args = ["--flag"]

[mcp_servers.keep.env]
KEEP = "1" # env comment

# About the table below
[shell_environment_policy]
inherit = "core" # last line
`;

const mcp = (ws: Workspace, ...args: string[]): ReturnType<typeof runCli> => runCli(["mcp", ...args], { cwd: ws.dir, home: ws.home });
const configText = (ws: Workspace): string => readFileSync(join(ws.home, "config.toml"), "utf8");

void test("mcp add (stdio with env, http with bearer var), list, get, remove keep the rest of config.toml byte for byte", async () => {
  const ws = makeWorkspace({ config: CONFIG });

  let r = await mcp(ws, "add", "docs", "--env", "TOKEN=secret", "--env", "ALPHA=beta", "--", "docs-server", "--port", "4000");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "Added global MCP server 'docs'.\n");
  r = await mcp(ws, "add", "issues", "--url", "https://example.com/mcp", "--bearer-token-env-var", "GITHUB_TOKEN");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "Added global MCP server 'issues'.\n");

  const edited = configText(ws);
  assert.ok(edited.startsWith(CONFIG), "the original file is untouched, the new tables follow it");
  assert.equal(
    edited.slice(CONFIG.length),
    [
      "",
      "[mcp_servers.docs]",
      'command = "docs-server"',
      'args = ["--port", "4000"]',
      "",
      "[mcp_servers.docs.env]",
      'ALPHA = "beta"',
      'TOKEN = "secret"',
      "",
      "[mcp_servers.issues]",
      'url = "https://example.com/mcp"',
      'bearer_token_env_var = "GITHUB_TOKEN"',
      "",
    ].join("\n"),
  );

  r = await mcp(ws, "list");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      "Name  Command      Args         Env                       Cwd  Status   Auth       ",
      "docs  docs-server  --port 4000  ALPHA=*****, TOKEN=*****  -    enabled  Unsupported",
      "keep  keep-server  --flag       KEEP=*****                -    enabled  Unsupported",
      "",
      "Name    Url                      Bearer Token Env Var  Status   Auth        ",
      "issues  https://example.com/mcp  GITHUB_TOKEN          enabled  Bearer token",
      "",
    ].join("\n"),
  );

  r = await mcp(ws, "list", "--json");
  assert.equal(r.code, 0, r.stderr);
  const listed = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
  assert.deepEqual(
    listed.map((s) => s.name),
    ["docs", "issues", "keep"],
  );
  assert.deepEqual(listed[0], {
    name: "docs",
    enabled: true,
    transport: { type: "stdio", command: "docs-server", args: ["--port", "4000"], env: { ALPHA: "beta", TOKEN: "secret" }, env_vars: [], cwd: null },
    startup_timeout_sec: null,
    tool_timeout_sec: null,
    auth_status: "unsupported",
  });
  assert.deepEqual(listed[1], {
    name: "issues",
    enabled: true,
    transport: { type: "streamable_http", url: "https://example.com/mcp", bearer_token_env_var: "GITHUB_TOKEN", http_headers: null, env_http_headers: null },
    startup_timeout_sec: null,
    tool_timeout_sec: null,
    auth_status: "bearer_token",
  });

  r = await mcp(ws, "get", "docs");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    "docs\n  enabled: true\n  transport: stdio\n  command: docs-server\n  args: --port 4000\n  cwd: -\n  env: ALPHA=*****, TOKEN=*****\n  remove: codex-ts mcp remove docs\n",
  );
  r = await mcp(ws, "get", "issues", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    name: "issues",
    enabled: true,
    transport: { type: "streamable_http", url: "https://example.com/mcp", bearer_token_env_var: "GITHUB_TOKEN", http_headers: null, env_http_headers: null },
    enabled_tools: null,
    disabled_tools: null,
    startup_timeout_sec: null,
    tool_timeout_sec: null,
  });

  r = await mcp(ws, "remove", "docs");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "Removed global MCP server 'docs'.\n");
  r = await mcp(ws, "remove", "issues");
  assert.equal(r.stdout, "Removed global MCP server 'issues'.\n");
  assert.equal(configText(ws), CONFIG, "after removing what was added, the file is byte-identical to the original");

  r = await mcp(ws, "remove", "keep");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    configText(ws),
    CONFIG.replace('[mcp_servers.keep]\ncommand = "keep-server" # stays\nargs = ["--flag"]\n\n[mcp_servers.keep.env]\nKEEP = "1" # env comment\n', ""),
    "removing a server takes exactly its tables' lines; comments and blank lines around them stay",
  );
  r = await mcp(ws, "remove", "keep");
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "No MCP server named 'keep' found.\n");
});

void test("mcp: empty list, unknown server, invalid names", async () => {
  const ws = makeWorkspace();
  let r = await mcp(ws, "list");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "No MCP servers configured yet. Try `codex-ts mcp add my-tool -- my-command`.\n");
  r = await mcp(ws, "list", "--json");
  assert.equal(r.stdout, "[]\n");
  r = await mcp(ws, "get", "nope");
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "Error: No MCP server named 'nope' found.\n");
  r = await mcp(ws, "add", "bad.name", "--", "x");
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "Error: invalid server name 'bad.name' (use letters, numbers, '-', '_')\n");
  r = await mcp(ws, "add", "x", "--env", "NOEQUALS", "--", "cmd");
  assert.equal(r.code, 1);
  assert.match(r.stderr, /KEY=VALUE/);
});
