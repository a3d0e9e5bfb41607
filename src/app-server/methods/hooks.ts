/**
 * `hooks/list`: a loaded thread's lifecycle hooks, with the trust and on/off state its session
 * reads (every hook file read again first, so a change saved with `config/batchWrite` to
 * `hooks.state` shows). Listing by `cwds` alone, without a thread, is not served: the hooks a
 * folder gets depend on the config a session loads there.
 */
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import { hookToV2 } from "../../app-server-protocol/hook-runs.js";
import type { V2HooksListEntry } from "../../app-server-protocol/v2.js";
import type { Method } from "../server.js";

const listHooks: Method = async ({ server }, params) => {
  const threadId = params.optionalString("threadId");
  if (threadId === undefined) throw invalidRequest("Invalid request: codex-ts lists the hooks of a loaded thread: pass `threadId`");
  const live = server.requireThread(threadId);
  const listed = await live.request({ type: "list_hooks" }, (msg) => (msg.type === "list_hooks_response" ? msg : undefined));
  const entry: V2HooksListEntry = { cwd: live.cwd, hooks: listed.hooks.map(hookToV2), warnings: listed.warnings, errors: [] };
  return { data: [entry] };
};

export const hookMethods: Record<string, Method> = { "hooks/list": listHooks };
