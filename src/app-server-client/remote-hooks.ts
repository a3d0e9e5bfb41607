/**
 * `/hooks` on a remote thread: the list is the server's `hooks/list` for the thread, and a change
 * (trust, on/off) is saved the way the protocol saves settings, as a `config/batchWrite` of the
 * hooks' entries under `hooks.state` in the server's config.toml; the list that follows reads it.
 */
import type { HookListEntry, HookStateUpdate } from "../protocol/hook-events.js";
import type { EventMsg } from "../protocol/events.js";
import { hookFromV2 } from "../app-server-protocol/hook-runs.js";
import type { V2HooksListEntry } from "../app-server-protocol/v2.js";

type ListResponse = Extract<EventMsg, { type: "list_hooks_response" }>;
type Request = <T>(method: string, params: unknown) => Promise<T>;

export class RemoteHooks {
  /** The hooks as last listed: a change writes each hook's whole state from it. */
  private listed: HookListEntry[] = [];

  constructor(
    private readonly request: Request,
    private readonly threadId: string,
  ) {}

  async list(): Promise<ListResponse> {
    const response = await this.request<{ data: V2HooksListEntry[] }>("hooks/list", { threadId: this.threadId });
    const entries = response.data;
    this.listed = entries.flatMap((e) => e.hooks.map(hookFromV2).filter((h): h is HookListEntry => h !== null));
    const warnings = entries.flatMap((e) => [...e.warnings, ...e.errors.map((err) => `${err.path}: ${err.message}`)]);
    return { type: "list_hooks_response", hooks: this.listed, warnings, bypass_trust: false };
  }

  async update(updates: readonly HookStateUpdate[]): Promise<ListResponse> {
    const states: Record<string, Record<string, unknown>> = {};
    for (const update of updates) {
      const hook = this.listed.find((h) => h.key === update.key);
      if (!hook) continue;
      const trusted = update.trust ?? hook.trust_status === "trusted";
      const enabled = update.enabled ?? hook.enabled;
      states[hook.key] = { ...(trusted ? { trusted_hash: hook.current_hash } : {}), ...(enabled ? {} : { enabled: false }) };
    }
    if (Object.keys(states).length > 0) {
      await this.request("config/batchWrite", { edits: [{ keyPath: "hooks.state", value: states, mergeStrategy: "upsert" }] });
    }
    return this.list();
  }
}
