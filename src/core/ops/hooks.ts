/**
 * `/hooks`: the configured hooks with their trust and on/off state, and changes to that state
 * (written to config.toml's `[hooks.state]`, then every hook file read again so the session runs
 * what was just trusted). Both answer with `list_hooks_response`.
 */
import type { SessionState } from "../session-state.js";
import type { OpFamily } from "./types.js";

export const hookOps: OpFamily<"list_hooks" | "update_hook_state"> = {
  list_hooks: (s, id) => {
    s.options.hooks?.reload();
    listHooks(s, id);
  },
  update_hook_state: async (s, id, op) => {
    const registry = s.options.hooks;
    if (!registry) return listHooks(s, id);
    try {
      await registry.update(op.updates);
    } catch (err) {
      s.send(id, { type: "error", message: `hooks: could not save their state in ${registry.settings.userConfigFile}: ${(err as Error).message}`, codex_error_info: "other" });
    }
    listHooks(s, id);
  },
};

function listHooks(s: SessionState, id: string): void {
  const registry = s.options.hooks;
  const { hooks, warnings } = registry?.list() ?? { hooks: [], warnings: [] };
  s.send(id, { type: "list_hooks_response", hooks, warnings, bypass_trust: registry?.settings.bypassTrust === true });
}
