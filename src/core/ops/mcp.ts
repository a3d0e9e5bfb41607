/** The session's MCP servers at run time: signing in to one, restarting one, and listing what they offer. */
import { emptyMcpSnapshot, type McpRuntime } from "../mcp-runtime.js";
import type { EventMsg } from "../../protocol/events.js";
import type { SessionState } from "../session-state.js";
import type { OpFamily } from "./types.js";
import { errorMessage } from "../../util/errors.js";

export const mcpOps: OpFamily<"restart_mcp_server" | "reload_mcp_servers" | "list_mcp_tools" | "read_mcp_resource" | "call_mcp_tool" | "mcp_sign_in"> = {
  mcp_sign_in: (s, id, op) => {
    // The browser flow waits for the user: other ops go on meanwhile.
    void signIn(s, id, op.server);
  },
  /** Progress comes as start-up events (id ""); a server the session does not run is an error. */
  restart_mcp_server: async (s, id, op) => {
    if (!s.mcp || !(await s.mcp.serverNames()).includes(op.server)) {
      s.send(id, { type: "error", message: `unknown MCP server '${op.server}'`, codex_error_info: "other" });
      return;
    }
    await s.mcp.restart(op.server);
  },
  reload_mcp_servers: async (s, _id, op) => {
    await s.reloadMcp(op.servers);
  },
  read_mcp_resource: (s, id, op) => {
    // A server may take its time: other ops go on meanwhile.
    void answer(s, id, async (mcp) => ({ type: "mcp_resource_read_response", server: op.server, uri: op.uri, contents: await mcp.readResource(op.server, op.uri) }));
  },
  call_mcp_tool: (s, id, op) => {
    void answer(s, id, async (mcp) => ({ type: "mcp_tool_call_response", server: op.server, tool: op.tool, result: await mcp.callTool(op.server, op.tool, op.arguments) }));
  },
  list_mcp_tools: (s, id) => {
    // Discovery may take seconds: the answer comes when ready, other ops go on meanwhile.
    void listMcpTools(s, id);
  },
};

/** Sends what `ask` answers for op `id`, or an error naming why it could not. */
async function answer(s: SessionState, id: string, ask: (mcp: McpRuntime) => Promise<EventMsg>): Promise<void> {
  try {
    if (!s.mcp) throw new Error("this session runs no MCP servers");
    s.send(id, await ask(s.mcp));
  } catch (err) {
    s.send(id, { type: "error", message: (err as Error).message, codex_error_info: "other" });
  }
}

/** A snapshot of every server's tools, resources and auth status. */
async function listMcpTools(s: SessionState, id: string): Promise<void> {
  try {
    s.send(id, await (s.mcp ? s.mcp.snapshot(process.env) : emptyMcpSnapshot(s.mcpServers, process.env)));
  } catch (err) {
    s.reportWarning(`Could not list the MCP tools: ${errorMessage(err)}`);
  }
}

/**
 * The OAuth sign-in of a streamable-HTTP server (mcp/oauth/login.ts): its progress as
 * mcp_sign_in_update lines, then mcp_sign_in_complete; on success the server starts again in
 * this session with the stored tokens (they serve every later session too).
 */
async function signIn(s: SessionState, id: string, server: string): Promise<void> {
  const servers = s.mcpServers;
  const config = servers[server];
  const fail = (error: string): void => s.send(id, { type: "mcp_sign_in_complete", server, success: false, error });
  if (!config) {
    const known = Object.keys(servers);
    return fail(`No MCP server named ${server} in config.toml${known.length > 0 ? ` (configured: ${known.join(", ")})` : ""}.`);
  }
  if (config.transport !== "streamable_http") return fail(`${server} is a stdio server: it has no login; its credentials come from its command and env.`);
  const { loginMcpServer } = await import("../../mcp/oauth/login.js");
  const say = (text: string): void => {
    for (const line of text.split("\n")) if (line.trim() !== "") s.send(id, { type: "mcp_sign_in_update", server, message: line });
  };
  try {
    await loginMcpServer(server, config, { env: process.env, out: say, err: say });
  } catch (err) {
    return fail(errorMessage(err));
  }
  s.send(id, { type: "mcp_sign_in_complete", server, success: true });
  if (s.mcp && (await s.mcp.serverNames()).includes(server)) await s.mcp.restart(server);
}
