/**
 * `codex-ts mcp login NAME [--scopes a,b]` and `codex-ts mcp logout NAME`, with the reference's
 * messages (naming codex-ts). Login runs the OAuth flow of src/mcp/oauth/login.ts against the
 * server as the effective configuration describes it (user file, trusted projects, `-c`).
 */
import type { McpHttpServer } from "../../config/mcp.js";
import { isLoginRequired, loginMcpServer, logoutMcpServer, oauthSupport, type LoginOptions } from "../../host/mcp-auth.js";
import { CommandError, defaultIo, loadServers, parseClientRegistration, run, type McpAddOptions, type McpIo } from "./command-io.js";
import { errorMessage } from "../../util/errors.js";

export interface McpLoginOptions {
  scopes?: string;
  /** `--no-browser`: print the URL only, and take the redirect pasted back as well as on the callback. */
  browser?: boolean;
  oauthClientRegistration?: string;
  config?: string[];
}


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
    const registration = parseClientRegistration(opts.oauthClientRegistration);
    const server = httpServer(io, name, opts.config ?? [], `No MCP server named '${name}' found.`, "OAuth login is only supported for streamable HTTP servers.");
    const noBrowser = opts.browser === false;
    const manual: Pick<LoginOptions, "openUrl" | "pastedRedirects"> = noBrowser
      ? {
          openUrl: () => {
            io.out("Open it in a browser on any machine. If the browser cannot reach this machine afterwards, paste the address it ends on here and press Enter.\n");
            return Promise.resolve(true);
          },
          pastedRedirects: process.stdin,
        }
      : {};
    await login(name, server, io, { ...(scopes ? { scopes } : {}), ...(registration ? { registration } : {}), ...manual });
    io.out(`Successfully logged in to MCP server '${name}'.\n`);
  });
}

/**
 * What `mcp add` does after adding an HTTP server without a static token, as the reference: a
 * server that publishes OAuth metadata gets its login now; one that could not be asked gets a
 * hint to log in later; one without OAuth, nothing.
 */
export async function loginAfterAdd(name: string, opts: McpAddOptions, io: McpIo): Promise<void> {
  const server = loadServers(io, opts.config ?? []).find((e) => e.name === name)?.server;
  // A -c override can turn the new entry into something else; then there is nothing to sign in to.
  if (server?.transport !== "streamable_http") return;
  const support = await oauthSupport(server.url);
  if (support === "unknown") {
    io.out(`MCP server may or may not require login. Run \`codex-ts mcp login ${name}\` to login.\n`);
    return;
  }
  if (support === "unsupported") return;
  io.out("Detected OAuth support. Starting OAuth flow…\n");
  const registration = parseClientRegistration(opts.oauthClientRegistration);
  await login(name, server, io, registration ? { registration } : {});
  io.out("Successfully logged in.\n");
}

async function login(name: string, server: McpHttpServer, io: McpIo, extra: Pick<LoginOptions, "scopes" | "registration" | "openUrl" | "pastedRedirects">): Promise<void> {
  try {
    await loginMcpServer(name, server, { env: io.env, out: io.out, err: io.err, ...extra });
  } catch (err) {
    if (await isLoginRequired(err)) throw new CommandError(errorMessage(err));
    throw new CommandError(`failed to log in to MCP server '${name}': ${errorMessage(err)}`);
  }
}

export function runMcpLogout(name: string, opts: { config?: string[] } = {}, io: McpIo = defaultIo()): Promise<number> {
  return run(io, async () => {
    const server = httpServer(io, name, opts.config ?? [], `No MCP server named '${name}' found in configuration.`, "OAuth logout is only supported for streamable_http transports.");
    let removed: boolean;
    try {
      removed = await logoutMcpServer(name, server, io.env);
    } catch (err) {
      throw new CommandError(errorMessage(err));
    }
    io.out(removed ? `Removed OAuth credentials for '${name}'.\n` : `No OAuth credentials stored for '${name}'.\n`);
  });
}
