/**
 * `shutdown`: the running task aborted, questions cancelled, undo's last record written,
 * SessionEnd hooks run (each within a few seconds), processes and MCP servers ended, the rollout
 * closed.
 */
import type { OpFamily } from "./types.js";

export const lifecycleOps: OpFamily<"shutdown"> = {
  shutdown: async (s, id) => {
    s.questions.cancelAll("shutdown");
    await s.tasks.abort("interrupted");
    // The last turn's changes are recorded before the session file closes.
    await s.files.flush();
    if (s.hooks?.has("SessionEnd")) await s.hooks.sessionEnd(s.settings.cwd, (msg) => s.send(id, msg));
    s.unifiedExec.terminateAll();
    await s.mcp?.shutdown();
    s.shellSnapshot?.dispose();
    s.recorder?.close();
    s.files.close();
    s.closed = true;
    s.send(id, { type: "shutdown_complete" });
  },
};
