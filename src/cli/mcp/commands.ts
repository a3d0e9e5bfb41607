/**
 * `codex-ts mcp add|list|get|remove`: manage the `[mcp_servers.<name>]` tables of
 * $CODEX_HOME/config.toml. Output texts and JSON shapes follow the reference's `codex mcp`
 * (codex-rs/cli/src/mcp_cmd.rs); the hints name `codex-ts`, the program that reads this config.
 * add/remove edit the file in place (config-edit.ts keeps every other byte); list/get read the
 * effective configuration (user file, trusted project files, `-c` overrides) as a session would.
 * Each returns an exit code: 0 done, 1 error (message on stderr as `Error: …`).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { readTextFile } from "../../util/bounded-read.js";
import { join } from "node:path";
import { codexHome } from "../../config/codex-home.js";
import type { TomlTable } from "../../config/overrides.js";
import type { McpAuthStatus } from "../../protocol/mcp-events.js";
import { AUTH_STATUS_TEXT, callbackId, mcpAuthStatus } from "../../host/mcp-auth.js";
import { addServer, ConfigEditError, parseConfigText, removeServer, type NewServer } from "./config-edit.js";
import { CommandError, defaultIo, loadServers, parseClientRegistration, run, type Listed, type McpAddOptions, type McpIo } from "./command-io.js";
import { PRIVATE_DIR_MODE } from "../../util/atomic-write.js";

export type { McpAddOptions, McpIo };



export interface McpReadOptions {
  json?: boolean;
  config?: string[];
}


/** Letters, digits, '-' and '_' only (the name becomes a bare TOML key). */
export function validateServerName(name: string): void {
  if (!/^[a-zA-Z0-9_-]+$/.test(name)) throw new CommandError(`invalid server name '${name}' (use letters, numbers, '-', '_')`);
}

/** `KEY=VALUE` → [KEY (trimmed), VALUE (as given)]. */
export function parseEnvPair(raw: string): [string, string] {
  const eq = raw.indexOf("=");
  const key = (eq < 0 ? raw : raw.slice(0, eq)).trim();
  if (eq < 0 || key === "") throw new CommandError(`invalid value '${raw}' for '--env <KEY=VALUE>': environment entries must be in KEY=VALUE form`);
  return [key, raw.slice(eq + 1)];
}

const configPath = (io: McpIo): string => join(codexHome(io.env), "config.toml");

/** The user's config.toml text ("" when there is none), checked to be valid TOML. */
function readConfigText(io: McpIo): string {
  const path = configPath(io);
  const text = existsSync(path) ? readTextFile(path) : "";
  withContext("load", io, () => parseConfigText(text));
  return text;
}

function writeConfigText(io: McpIo, text: string): void {
  const home = codexHome(io.env);
  mkdirSync(home, { recursive: true, mode: PRIVATE_DIR_MODE });
  writeFileSync(join(home, "config.toml"), text);
}

function withContext<T>(what: string, io: McpIo, body: () => T): T {
  try {
    return body();
  } catch (err) {
    if (err instanceof ConfigEditError) throw new ConfigEditError(`failed to ${what} MCP servers ${what === "load" ? "from" : "to"} ${codexHome(io.env)}: ${err.message}`);
    throw err;
  }
}

/**
 * `mcp add NAME [--env K=V]… -- CMD ARGS…` or `mcp add NAME --url URL [--bearer-token-env-var VAR]
 * [--oauth-client-id ID [--oauth-client-secret S]] [--oauth-resource R]`. After an HTTP server
 * without a static token is added, the reference looks for OAuth support and signs in at once
 * when the server has it (auth-commands.ts).
 */
export function runMcpAdd(name: string, command: string[], opts: McpAddOptions, io: McpIo = defaultIo()): Promise<number> {
  return run(io, async () => {
    validateServerName(name);
    const env = (opts.env ?? []).map(parseEnvPair);
    let server: NewServer;
    if (opts.url !== undefined) {
      if (command.length > 0) throw new CommandError("give either --url (a streamable HTTP server) or a command after -- (a stdio server), not both");
      if (env.length > 0) throw new CommandError("--env applies only to stdio servers (a command after --)");
      server = { transport: "streamable_http", url: opts.url, bearerTokenEnvVar: opts.bearerTokenEnvVar ?? null, ...httpOAuthOptions(opts) };
    } else {
      const httpOnly = (["bearerTokenEnvVar", "oauthClientId", "oauthClientSecret", "oauthResource", "oauthClientRegistration"] as const).find((k) => opts[k] !== undefined);
      if (httpOnly !== undefined) throw new CommandError(`--${httpOnly.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} requires --url`);
      const [bin, ...args] = command;
      if (bin === undefined) throw new CommandError("command is required (e.g. `codex-ts mcp add NAME -- my-server --flag`), or --url for a streamable HTTP server");
      server = { transport: "stdio", command: bin, args, env: Object.fromEntries(env) };
    }
    const text = readConfigText(io);
    const updated = withContext("write", io, () => addServer(text, name, server));
    writeConfigText(io, updated);
    io.out(`Added global MCP server '${name}'.\n`);
    if (server.transport === "streamable_http") {
      if (server.oauth) io.out(`OAuth callback URL: ${server.oauth.callbackUrl}\n`);
      if (server.bearerTokenEnvVar === null) {
        const { loginAfterAdd } = await import("./auth-commands.js");
        await loginAfterAdd(name, opts, io);
      }
    }
  });
}

/** The OAuth settings `mcp add` writes for an HTTP server, checked as the reference checks them. */
function httpOAuthOptions(opts: McpAddOptions): Pick<Extract<NewServer, { transport: "streamable_http" }>, "oauthResource" | "oauth"> {
  const { oauthClientId: clientId, oauthClientSecret: secret } = opts;
  if (secret !== undefined) {
    if (clientId === undefined) throw new CommandError("--oauth-client-secret requires --oauth-client-id");
    if (clientId.trim() === "") throw new CommandError("--oauth-client-secret requires a nonempty --oauth-client-id");
    if (secret.trim() === "") throw new CommandError("--oauth-client-secret must not be empty");
  }
  if (clientId !== undefined && clientId.trim() === "") throw new CommandError("--oauth-client-id must not be empty");
  if (opts.oauthResource !== undefined && opts.oauthResource.trim() === "") throw new CommandError("--oauth-resource must not be empty");
  parseClientRegistration(opts.oauthClientRegistration);
  return {
    oauthResource: opts.oauthResource ?? null,
    // The exact redirect URI the owner of a pre-registered client must allow; printed after the add.
    oauth: clientId === undefined ? null : { clientId, clientSecret: secret ?? null, callbackUrl: `http://127.0.0.1/callback/${callbackId(opts.url ?? "")}` },
  };
}


/** `mcp remove NAME`: success (exit 0) whether or not it was there. */
export function runMcpRemove(name: string, io: McpIo = defaultIo()): Promise<number> {
  return run(io, () => {
    validateServerName(name);
    const text = readConfigText(io);
    const result = withContext("write", io, () => removeServer(text, name));
    if (result.removed) {
      writeConfigText(io, result.text);
      io.out(`Removed global MCP server '${name}'.\n`);
    } else {
      io.out(`No MCP server named '${name}' found.\n`);
    }
  });
}

const opt = <T>(raw: TomlTable, key: string, present: T): T | null => (raw[key] === undefined ? null : present);

function timeouts(raw: TomlTable): { startup_timeout_sec: number | null; tool_timeout_sec: number | null } {
  const startup = typeof raw.startup_timeout_sec === "number" ? raw.startup_timeout_sec : typeof raw.startup_timeout_ms === "number" ? raw.startup_timeout_ms / 1000 : null;
  return { startup_timeout_sec: startup, tool_timeout_sec: typeof raw.tool_timeout_sec === "number" ? raw.tool_timeout_sec : null };
}

function transportJson({ server, raw }: Listed): Record<string, unknown> {
  if (server.transport === "stdio") {
    return {
      type: "stdio",
      command: server.command,
      args: server.args,
      env: opt(raw, "env", server.env),
      env_vars: server.env_vars,
      cwd: server.cwd,
    };
  }
  return {
    type: "streamable_http",
    url: server.url,
    bearer_token_env_var: server.bearer_token_env_var,
    http_headers: opt(raw, "http_headers", server.http_headers),
    env_http_headers: opt(raw, "env_http_headers", server.env_http_headers),
  };
}

/** Every server's auth status, looked up together (HTTP servers without tokens are asked for their OAuth metadata). */
async function authStatuses(io: McpIo, entries: Listed[]): Promise<McpAuthStatus[]> {
  if (entries.every((e) => e.server.transport === "stdio")) return entries.map(() => "unsupported");
  return Promise.all(entries.map((e) => mcpAuthStatus(e.name, e.server, io.env)));
}

/** `K=*****` for each variable (values are never shown), or "-". */
export function formatEnvDisplay(env: Record<string, string>, envVars: string[]): string {
  const parts = [...Object.keys(env).sort().map((k) => `${k}=*****`), ...envVars.map((v) => `${v}=*****`)];
  return parts.length === 0 ? "-" : parts.join(", ");
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  return [line(headers), ...rows.map(line)].map((l) => `${l}\n`).join("");
}

/** `mcp list [--json]`. */
export function runMcpList(opts: McpReadOptions = {}, io: McpIo = defaultIo()): Promise<number> {
  return run(io, async () => {
    const entries = loadServers(io, opts.config ?? []);
    const statuses = await authStatuses(io, entries);
    if (opts.json) {
      const json = entries.map((entry, i) => ({
        name: entry.name,
        enabled: entry.server.enabled,
        transport: transportJson(entry),
        ...timeouts(entry.raw),
        auth_status: statuses[i],
      }));
      io.out(`${JSON.stringify(json, null, 2)}\n`);
      return;
    }
    if (entries.length === 0) {
      io.out("No MCP servers configured yet. Try `codex-ts mcp add my-tool -- my-command`.\n");
      return;
    }
    const stdio: string[][] = [];
    const http: string[][] = [];
    for (const [i, { name, server }] of entries.entries()) {
      const status = server.enabled ? "enabled" : "disabled";
      const auth = AUTH_STATUS_TEXT[statuses[i] ?? "unsupported"];
      if (server.transport === "stdio") {
        const args = server.args.length === 0 ? "-" : server.args.join(" ");
        stdio.push([name, server.command, args, formatEnvDisplay(server.env, server.env_vars), server.cwd || "-", status, auth]);
      } else {
        http.push([name, server.url, server.bearer_token_env_var ?? "-", status, auth]);
      }
    }
    let out = "";
    if (stdio.length > 0) out += table(["Name", "Command", "Args", "Env", "Cwd", "Status", "Auth"], stdio);
    if (stdio.length > 0 && http.length > 0) out += "\n";
    if (http.length > 0) out += table(["Name", "Url", "Bearer Token Env Var", "Status", "Auth"], http);
    io.out(out);
  });
}

/** `mcp get NAME [--json]`. */
export function runMcpGet(name: string, opts: McpReadOptions = {}, io: McpIo = defaultIo()): Promise<number> {
  return run(io, async () => {
    const entry = loadServers(io, opts.config ?? []).find((e) => e.name === name);
    if (!entry) throw new CommandError(`No MCP server named '${name}' found.`);
    const { server, raw } = entry;
    if (opts.json) {
      const json = {
        name,
        enabled: server.enabled,
        transport: transportJson(entry),
        enabled_tools: server.enabled_tools,
        disabled_tools: opt(raw, "disabled_tools", server.disabled_tools),
        ...timeouts(raw),
      };
      io.out(`${JSON.stringify(json, null, 2)}\n`);
      return;
    }
    if (!server.enabled) {
      io.out(`${name} (disabled)\n`);
      return;
    }
    const [auth = "unsupported"] = await authStatuses(io, [entry]);
    const lines = [name, `  enabled: ${server.enabled}`];
    const tools = (list: string[]): string => (list.length === 0 ? "[]" : list.join(", "));
    if (server.enabled_tools !== null) lines.push(`  enabled_tools: ${tools(server.enabled_tools)}`);
    if (raw.disabled_tools !== undefined) lines.push(`  disabled_tools: ${tools(server.disabled_tools)}`);
    if (server.transport === "stdio") {
      lines.push(
        "  transport: stdio",
        `  command: ${server.command}`,
        `  args: ${server.args.length === 0 ? "-" : server.args.join(" ")}`,
        `  cwd: ${server.cwd || "-"}`,
        `  env: ${formatEnvDisplay(server.env, server.env_vars)}`,
      );
    } else {
      const headers = Object.keys(server.http_headers).sort();
      const envHeaders = Object.keys(server.env_http_headers).sort();
      lines.push(
        "  transport: streamable_http",
        `  url: ${server.url}`,
        `  bearer_token_env_var: ${server.bearer_token_env_var ?? "-"}`,
        `  http_headers: ${headers.length === 0 ? "-" : headers.map((k) => `${k}=*****`).join(", ")}`,
        `  env_http_headers: ${envHeaders.length === 0 ? "-" : envHeaders.map((k) => `${k}=${server.env_http_headers[k]}`).join(", ")}`,
      );
    }
    const { startup_timeout_sec, tool_timeout_sec } = timeouts(raw);
    if (startup_timeout_sec !== null) lines.push(`  startup_timeout_sec: ${startup_timeout_sec}`);
    if (tool_timeout_sec !== null) lines.push(`  tool_timeout_sec: ${tool_timeout_sec}`);
    // Beyond the reference's text: how an HTTP server is signed in to.
    if (server.transport === "streamable_http") lines.push(`  auth: ${AUTH_STATUS_TEXT[auth]}`);
    if (auth === "not_logged_in") lines.push(`  login: codex-ts mcp login ${name}`);
    lines.push(`  remove: codex-ts mcp remove ${name}`);
    io.out(lines.map((l) => `${l}\n`).join(""));
  });
}
