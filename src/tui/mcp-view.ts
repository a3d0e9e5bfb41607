/**
 * The MCP side of the UI: what `/mcp` prints (each server's start-up state, how it
 * authenticates, its tools), the offer shown when a server failed to start because it needs a
 * login, and `/mcp login NAME`, which runs the OAuth sign-in of src/mcp/oauth and says how to
 * use the server afterwards (a new session starts it again with the stored tokens).
 */
import type { McpServerConfig } from "../config/mcp.js";
import type { McpAuthStatus, McpListToolsResponse } from "../protocol/mcp-events.js";
import { sanitizeToolName } from "../mcp/names.js";

const AUTH_TEXT: Record<McpAuthStatus, string> = {
  unsupported: "no auth",
  not_logged_in: "not logged in (/mcp login NAME)",
  bearer_token: "bearer token",
  o_auth: "OAuth",
};

/** Lines for `/mcp`: one block per server, in the order the servers were configured. */
export function mcpListLines(states: ReadonlyMap<string, string>, answer: McpListToolsResponse): string[] {
  if (states.size === 0) return ["no MCP servers configured (see `codex-ts mcp add`)"];
  const byServer = new Map<string, string[]>();
  const unattributed: string[] = [];
  for (const [qualified, tool] of Object.entries(answer.tools)) {
    // Qualified names are mcp__<server>__<tool> (sanitised); the definition keeps the tool's own name.
    const server = [...states.keys()].find((s) => qualified.startsWith(`mcp__${sanitizeToolName(s)}__`));
    if (server !== undefined) byServer.set(server, [...(byServer.get(server) ?? []), tool.name]);
    else unattributed.push(qualified);
  }
  const lines: string[] = [];
  for (const [server, state] of states) {
    const auth = answer.auth_statuses[server];
    // "failed: <why>": the reason goes on a line of its own, under the server.
    const [word, ...why] = state.split(": ");
    lines.push(`${server}: ${word}${auth ? ` · auth: ${AUTH_TEXT[auth].replace("NAME", server)}` : ""}`);
    if (why.length > 0) lines.push(`  ${why.join(": ")}`);
    const tools = byServer.get(server) ?? [];
    if (tools.length > 0) lines.push(`  tools: ${tools.sort().join(", ")}`);
    else if (state === "ready") lines.push("  no tools");
    const resources = answer.resources[server]?.length ?? 0;
    const templates = answer.resource_templates[server]?.length ?? 0;
    if (resources + templates > 0) lines.push(`  resources: ${resources}${templates > 0 ? `, templates: ${templates}` : ""}`);
  }
  // Names too long for the model were shortened with a hash and no longer show their server.
  if (unattributed.length > 0) lines.push(`other tools: ${unattributed.sort().join(", ")}`);
  return lines;
}

/** What a failed start-up tells the user: why, and the sign-in offer when a login is what is missing. */
export function startupFailureNotices(failed: ReadonlyArray<{ server: string; error: string }>): Array<{ kind: "warning" | "info"; text: string }> {
  return failed.flatMap((f) => {
    const login = serverNeedingLogin(f.error);
    const offer = login === null ? [] : [{ kind: "info" as const, text: `Type /mcp login ${login} to sign in from here; the server then starts again in this session.` }];
    return [{ kind: "warning" as const, text: `MCP server ${f.server} did not start: ${f.error}` }, ...offer];
  });
}

/** The server a start-up failure says needs a login (our `codex-ts mcp login NAME` hint), or null. */
export function serverNeedingLogin(error: string): string | null {
  return /`codex-ts mcp login ([^\s`]+)/.exec(error)?.[1] ?? null;
}

export interface McpLoginView {
  print(title: string, lines: string[]): void;
  error(message: string): void;
}

/**
 * `/mcp login NAME`: the browser sign-in for a streamable-HTTP server; the tokens are stored for
 * every later session. Resolves true when the sign-in succeeded (the caller then restarts the
 * server in the running session).
 */
export async function runMcpLogin(name: string, servers: Record<string, McpServerConfig>, env: NodeJS.ProcessEnv, view: McpLoginView): Promise<boolean> {
  const config = servers[name];
  if (!config) {
    const known = Object.keys(servers);
    view.error(`No MCP server named ${name} in config.toml${known.length > 0 ? ` (configured: ${known.join(", ")})` : ""}.`);
    return false;
  }
  if (config.transport !== "streamable_http") {
    view.error(`${name} is a stdio server: it has no login; its credentials come from its command and env.`);
    return false;
  }
  const { loginMcpServer } = await import("../mcp/oauth/login.js");
  const say = (title: string) => (text: string) => {
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    if (lines.length > 0) view.print(title, lines);
  };
  try {
    await loginMcpServer(name, config, { env, out: say(`Sign in to ${name}`), err: say(`Sign in to ${name}`) });
  } catch (err) {
    view.error(`Signing in to ${name} failed: ${(err as Error).message}`);
    return false;
  }
  view.print(`Signed in to ${name}`, ["The tokens are saved; starting the server again in this session."]);
  return true;
}
