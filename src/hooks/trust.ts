/**
 * Trust in a hook is recorded against a hash of its definition, as the reference records it, so
 * a hook trusted by either program runs in both and editing a hook makes it ask again:
 *
 *   sha256 of the compact JSON, keys sorted, of {event_name, matcher?, hooks: [handler]}
 *
 * where the handler is normalized (`type`, `command`, `timeout` defaulted to 600, `async`, and
 * `statusMessage` / `additionalContextLimit` when set), and `matcher` is left out for events that
 * ignore it. The state lives in the user's config.toml:
 *
 *   [hooks.state."/abs/hooks.json:pre_tool_use:0:0"]
 *   trusted_hash = "sha256:…"
 *   enabled = false
 */
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { hookEventLabel, type HookEventName, type HookStateUpdate } from "../protocol/hook-events.js";
import { readTextFile } from "../util/bounded-read.js";
import { PRIVATE_DIR_MODE, writeFileAtomic } from "../util/atomic-write.js";
import { parseTomlFile } from "../config/toml-errors.js";
import type { HookHandlerSpec } from "./hooks-file.js";

/** A hook's saved state: either field may be missing. */
export interface HookState {
  enabled?: boolean;
  trustedHash?: string;
}

export const DEFAULT_TIMEOUT_SEC = 600;

/** The reference's normalized handler: what is hashed and what runs. */
export function effectiveTimeout(handler: HookHandlerSpec): number {
  return Math.max(1, handler.timeoutSec ?? DEFAULT_TIMEOUT_SEC);
}

export function hookHash(event: HookEventName, matcher: string | null, handler: HookHandlerSpec): string {
  const normalized: Record<string, unknown> = {
    type: "command",
    command: handler.command,
    timeout: effectiveTimeout(handler),
    async: handler.async,
    ...(handler.statusMessage !== null ? { statusMessage: handler.statusMessage } : {}),
    ...handler.extra,
  };
  const identity = { event_name: hookEventLabel(event), ...(matcher !== null ? { matcher } : {}), hooks: [normalized] };
  return `sha256:${createHash("sha256").update(canonicalJson(identity)).digest("hex")}`;
}

/** Compact JSON with every object's keys sorted (what serde_json writes for the reference's sorted value). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The key a hook's state is saved under. */
export function hookKey(keySource: string, event: HookEventName, groupIndex: number, handlerIndex: number): string {
  return `${keySource}:${hookEventLabel(event)}:${groupIndex}:${handlerIndex}`;
}

/**
 * Saved states from `hooks.state` tables, later tables winning field by field (the user's
 * config.toml, then `-c` overrides). Entries of the wrong shape are skipped.
 */
export function hookStates(tables: readonly unknown[]): Map<string, HookState> {
  const states = new Map<string, HookState>();
  for (const table of tables) {
    if (!isTable(table)) continue;
    for (const [rawKey, entry] of Object.entries(table)) {
      const key = rawKey.trim();
      if (key === "" || !isTable(entry)) continue;
      const state = states.get(key) ?? {};
      if (typeof entry.enabled === "boolean") state.enabled = entry.enabled;
      if (typeof entry.trusted_hash === "string") state.trustedHash = entry.trusted_hash;
      states.set(key, state);
    }
  }
  return states;
}

/** The `hooks.state` table of a config file as it is on disk now (undefined when there is none). */
export function readStateTable(configFile: string): unknown {
  let text: string;
  try {
    text = readTextFile(configFile);
  } catch {
    return undefined;
  }
  try {
    const hooks = parseTomlFile(configFile, text).hooks;
    return isTable(hooks) ? hooks.state : undefined;
  } catch {
    // A config.toml that does not parse has already been reported by the config loader.
    return undefined;
  }
}

/** One change as written: the hash to trust (null: forget the trust), and the enabled flag. */
export interface StateWrite {
  key: string;
  trustedHash?: string | null;
  enabled?: boolean;
}

/** Writes state changes into `configFile`, in place (comments and layout kept), atomically. */
export async function writeHookStates(configFile: string, writes: readonly StateWrite[]): Promise<void> {
  // The in-place editor (and the TOML patcher behind it) loads only when a state is saved.
  const { removeTableValue, setTableValue } = await import("../config/toml-edit.js");
  let text = "";
  try {
    text = readTextFile(configFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  for (const write of writes) {
    const table = ["hooks", "state", write.key];
    if (write.trustedHash === null) text = removeTableValue(text, table, "trusted_hash");
    else if (write.trustedHash !== undefined) text = setTableValue(text, table, "trusted_hash", write.trustedHash);
    if (write.enabled !== undefined) text = setTableValue(text, table, "enabled", write.enabled);
  }
  await mkdir(dirname(configFile), { recursive: true, mode: PRIVATE_DIR_MODE });
  writeFileAtomic(configFile, text, 0o600);
}

/** Turns `/hooks` answers into writes: trusting records the hook's current hash. */
export function stateWrites(updates: readonly HookStateUpdate[], currentHash: (key: string) => string | undefined): StateWrite[] {
  const writes: StateWrite[] = [];
  for (const update of updates) {
    const hash = currentHash(update.key);
    if (hash === undefined) continue;
    writes.push({
      key: update.key,
      ...(update.trust === true ? { trustedHash: hash } : update.trust === false ? { trustedHash: null } : {}),
      ...(update.enabled !== undefined ? { enabled: update.enabled } : {}),
    });
  }
  return writes;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
