/**
 * `hooks/list`: lifecycle hooks with their trust and on/off state, read fresh (so a change saved
 * with `config/batchWrite` to `hooks.state` shows): a loaded thread's (`threadId`), or those a
 * session started in each of `cwds` would find (the server's folder when none is given).
 */
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import { hookToV2 } from "../../app-server-protocol/hook-runs.js";
import type { V2HooksListEntry } from "../../app-server-protocol/v2.js";
import type { HookListEntry } from "../../protocol/hook-events.js";
import { configuredHooks } from "../../host/configured-hooks.js";
import type { Method } from "../server.js";

const listHooks: Method = async ({ server }, params) => {
  const threadId = params.optionalString("threadId");
  if (threadId !== undefined) {
    if (params.has("cwds")) throw invalidRequest("Invalid request: `cwds` and `threadId` do not go together");
    const live = server.requireThread(threadId);
    const listed = await live.request({ type: "list_hooks" }, (msg) => (msg.type === "list_hooks_response" ? msg : undefined));
    return { data: [entry(live.cwd, listed)] };
  }
  const cwds = params.optionalStrings("cwds") ?? [];
  const data: V2HooksListEntry[] = [];
  for (const cwd of cwds.length > 0 ? cwds : [process.cwd()]) data.push(entry(cwd, await configuredHooks(server.loadConfig({ cwd }))));
  return { data };
};

function entry(cwd: string, listed: { hooks: HookListEntry[]; warnings: string[] }): V2HooksListEntry {
  return { cwd, hooks: listed.hooks.map(hookToV2), warnings: listed.warnings, errors: [] };
}

export const hookMethods: Record<string, Method> = { "hooks/list": listHooks };
