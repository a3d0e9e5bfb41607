/**
 * The lifecycle hooks a session opened with a config would find, with their trust and on/off
 * state, for front ends that list them without a thread (the app-server's `hooks/list` by folder).
 */
import type { Config } from "../config/load-config.js";
import type { HookListEntry } from "../protocol/hook-events.js";

export async function configuredHooks(config: Config): Promise<{ hooks: HookListEntry[]; warnings: string[] }> {
  const { HookRegistry } = await import("../hooks/registry.js");
  return new HookRegistry(config.hooks).list();
}
