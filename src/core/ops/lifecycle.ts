/**
 * `shutdown`: the running task aborted, questions cancelled, sub-agents closed, undo's last
 * record written, SessionEnd hooks run (each within a few seconds; not for a sub-agent), processes
 * and MCP servers ended, the rollout closed. A sub-agent leaves its parent's MCP servers and shell
 * snapshot alone: they are the parent's to end.
 */
import type { OpFamily } from "./types.js";

export const lifecycleOps: OpFamily<"shutdown"> = {
  shutdown: async (s, id) => {
    s.questions.cancelAll("shutdown");
    await s.tasks.abort("interrupted");
    await s.agents?.closeAll();
    // The last turn's changes are recorded before the session file closes.
    await s.files.flush();
    // A sub-agent's hooks read its tree's session id: its end is not the session's.
    if (s.hooks?.has("SessionEnd") && !s.subagent) await s.hooks.sessionEnd(s.settings.cwd, (msg) => s.send(id, msg));
    s.unifiedExec.terminateAll();
    if (s.options.sharedMcp === undefined) await s.mcp?.shutdown();
    if (s.options.sharedShellSnapshot === undefined) s.shellSnapshot?.dispose();
    s.recorder?.close();
    await s.files.close();
    s.closed = true;
    s.send(id, { type: "shutdown_complete" });
  },
};
