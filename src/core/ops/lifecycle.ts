/**
 * `shutdown`: the running task aborted, questions cancelled, sub-agents closed, processes and MCP
 * servers ended, the rollout closed. A sub-agent leaves its parent's MCP servers and shell
 * snapshot alone: they are the parent's to end.
 */
import type { OpFamily } from "./types.js";

export const lifecycleOps: OpFamily<"shutdown"> = {
  shutdown: async (s, id) => {
    s.questions.cancelAll("shutdown");
    await s.tasks.abort("interrupted");
    await s.agents?.closeAll();
    s.unifiedExec.terminateAll();
    if (s.options.sharedMcp === undefined) await s.mcp?.shutdown();
    if (s.options.sharedShellSnapshot === undefined) s.shellSnapshot?.dispose();
    s.recorder?.close();
    s.closed = true;
    s.send(id, { type: "shutdown_complete" });
  },
};
