/**
 * `codex-ts mcp login NAME [--scopes a,b]` and `codex-ts mcp logout NAME`, with the reference's
 * messages (naming codex-ts). Login runs the OAuth flow of src/mcp/oauth/login.ts against the
 * server as the effective configuration describes it (user file, trusted projects, `-c`).
 */
import type { McpHttpServer } from "../../config/mcp.js";
import { CommandError, loadServers, run, type McpIo } from "./commands.js";

export interface McpLoginOptions {
  scopes?: string;
  config?: string[];
}

const defaultIo = (): McpIo => ({
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
});

function httpServer(io: McpIo, name: string, overrides: string[], notFound: string, notHttp: string): McpHttpServer {
  const entry = loadServers(io, overrides).find((e) => e.name === name);
  if (!entry) throw new CommandError(notFound);
  if (entry.server.transport !== "streamable_http") throw new CommandError(notHttp);
  return entry.server;
}

/** `a,b , c` → ["a", "b", "c"]; undefined when the option was not given. */
export function parseScopes(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const scopes = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (scopes.length === 0) throw new CommandError("--scopes needs at least one scope (a comma-separated list, e.g. --scopes read,write)");
  return scopes;
}

export function runMcpLogin(name: string, opts: McpLoginOptions = {}, io: McpIo = defaultIo()): Promise<number> {
  return run(io, async () => {
    const scopes = parseScopes(opts.scopes);
    const server = httpServer(io, name, opts.config ?? [], `No MCP server named '${name}' found.`, "OAuth login is only supported for streamable HTTP servers.");
    const [{ loginMcpServer }, { McpLoginRequiredError }] = await Promise.all([import("../../mcp/oauth/login.js"), import("../../mcp/oauth/provider.js")]);
    try {
      await loginMcpServer(name, server, { env: io.env, out: io.out, err: io.err, ...(scopes ? { scopes } : {}) });
    } catch (err) {
      if (err instanceof McpLoginRequiredError) throw new CommandError(err.message);
      throw new CommandError(`failed to log in to MCP server '${name}': ${err instanceof Error ? err.message : String(err)}`);
    }
    io.out(`Successfully logged in to MCP server '${name}'.\n`);
  });
}

export function runMcpLogout(name: string, opts: { config?: string[] } = {}, io: McpIo = defaultIo()): Promise<number> {
  return run(io, async () => {
    const server = httpServer(io, name, opts.config ?? [], `No MCP server named '${name}' found in configuration.`, "OAuth logout is only supported for streamable_http transports.");
    const { logoutMcpServer } = await import("../../mcp/oauth/login.js");
    let removed: boolean;
    try {
      removed = logoutMcpServer(name, server, io.env);
    } catch (err) {
      throw new CommandError(err instanceof Error ? err.message : String(err));
    }
    io.out(removed ? `Removed OAuth credentials for '${name}'.\n` : `No OAuth credentials stored for '${name}'.\n`);
  });
}
