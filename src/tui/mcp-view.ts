/**
 * The MCP side of the UI: what `/mcp` prints (each server's start-up state, how it
 * authenticates, its tools) and the offer shown when a server failed to start because it needs a
 * login (`/mcp login NAME` asks the session to sign in: the `mcp_sign_in` op).
 */
import { sanitizeToolName, type McpAuthStatus, type McpListToolsResponse } from "../protocol/mcp-events.js";

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
