/**
 * Where lifecycle hooks are configured, as the loaded config layers say: a `hooks.json` beside
 * each active config layer (`$CODEX_HOME`, each trusted project's `.codex/`) and the `[hooks]`
 * table inside it, plus `-c hooks.…` overrides. The hooks engine (src/hooks/) reads them; this
 * only names them, lowest precedence first.
 */
import { join } from "node:path";
import type { Layer } from "./layers.js";
import { isTable } from "./schema.js";

export interface HookConfigSource {
  kind: "user" | "project" | "session_flags";
  /** The folder whose `hooks.json` belongs to this layer; null when it has none (a profile file, `-c`). */
  folder: string | null;
  /** The file whose `[hooks]` table `table` is (the key its hooks' state is saved under). */
  configFile: string;
  /** That `[hooks]` value, undefined when the layer sets none. */
  table: unknown;
}

export interface HookSettings {
  /** false: `[features] hooks = false`, no hook runs and none is listed. */
  enabled: boolean;
  sources: HookConfigSource[];
  /** Where trust and on/off states are saved ($CODEX_HOME/config.toml). */
  userConfigFile: string;
  /** `hooks.state` set by `-c`: read after the file's, never written. */
  stateOverrides: unknown[];
  /** `--dangerously-bypass-hook-trust`: enabled hooks run without being trusted. */
  bypassTrust: boolean;
}

/** The reference names `-c` overrides' hooks after this made-up file. */
const SESSION_FLAGS_CONFIG = "/<session-flags>/config.toml";

export interface HookLayers {
  /** null: the user's layer is not read (`--ignore-user-config`). */
  codexHome: string | null;
  user: Layer | null;
  userConfigFile: string;
  profileFile: Layer | null;
  /** Trusted projects' `.codex` folders, root first, and the config layers read from them. */
  trustedDotCodex: readonly string[];
  projectLayers: readonly Layer[];
  overrides: readonly Layer[];
}

export function hookSources(layers: HookLayers): HookConfigSource[] {
  const sources: HookConfigSource[] =
    layers.codexHome === null ? [] : [{ kind: "user", folder: layers.codexHome, configFile: layers.userConfigFile, table: hooksOf(layers.user) }];
  if (layers.profileFile) sources.push({ kind: "user", folder: null, configFile: layers.profileFile.name, table: hooksOf(layers.profileFile) });
  for (const dotCodex of layers.trustedDotCodex) {
    const configFile = join(dotCodex, "config.toml");
    const layer = layers.projectLayers.find((l) => l.name === configFile) ?? null;
    sources.push({ kind: "project", folder: dotCodex, configFile, table: hooksOf(layer) });
  }
  const flagged = layers.overrides.map(hooksOf).filter((t) => t !== undefined);
  if (flagged.length > 0) sources.push({ kind: "session_flags", folder: null, configFile: SESSION_FLAGS_CONFIG, table: mergeTables(flagged) });
  return sources;
}

/** `hooks.state` tables set by `-c`, in order. */
export function stateOverrides(overrides: readonly Layer[]): unknown[] {
  return overrides.map((layer) => {
    const hooks = hooksOf(layer);
    return isTable(hooks) ? hooks.state : undefined;
  }).filter((t) => t !== undefined);
}

function hooksOf(layer: Layer | null): unknown {
  return layer?.table.hooks;
}

/** `-c` overrides of `hooks.<Event>` each set a whole event; later ones win. */
function mergeTables(tables: unknown[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const table of tables) if (isTable(table)) Object.assign(merged, table);
  return merged;
}
