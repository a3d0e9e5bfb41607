/** The session's MCP servers at run time: restarting one (after a sign-in, say) and listing what they offer. */
import { emptyMcpSnapshot } from "../mcp-runtime.js";
import type { SessionState } from "../session-state.js";
import type { OpFamily } from "./types.js";

export const mcpOps: OpFamily<"restart_mcp_server" | "list_mcp_tools"> = {
  /** Progress comes as start-up events (id ""); a server the session does not run is an error. */
  restart_mcp_server: async (s, id, op) => {
    if (!s.mcp || !(await s.mcp.serverNames()).includes(op.server)) {
      s.send(id, { type: "error", message: `unknown MCP server '${op.server}'`, codex_error_info: "other" });
      return;
    }
    await s.mcp.restart(op.server);
  },
  list_mcp_tools: (s, id) => {
    // Discovery may take seconds: the answer comes when ready, other ops go on meanwhile.
    void listMcpTools(s, id);
  },
};

/** A snapshot of every server's tools, resources and auth status. */
async function listMcpTools(s: SessionState, id: string): Promise<void> {
  try {
    s.send(id, await (s.mcp ? s.mcp.snapshot(process.env) : emptyMcpSnapshot(s.options.mcpServers ?? {}, process.env)));
  } catch (err) {
    s.reportWarning(`Could not list the MCP tools: ${(err as Error).message}`);
  }
}
