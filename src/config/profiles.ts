/**
 * Profiles, in both forms the reference has used:
 *
 * - the current one, a whole config file `$CODEX_HOME/NAME.config.toml`, layered directly over
 *   config.toml (so a trusted project's `.codex/config.toml` still overrides it, as in the
 *   reference);
 * - the older `[profiles.NAME]` table of config.toml, which overrides the project files too and
 *   may hold only the profile keys of the schema.
 *
 * When both exist, both apply in those places, so the table wins for a key both set; a warning
 * says so, since the reference refuses that combination.
 */
import { join } from "node:path";
import { checkLayer, fixedLayer, lookup, readFileLayer, whereSet, type Layer } from "./layers.js";
import { ConfigError, type TomlTable } from "./overrides.js";
import { CONFIG_SCHEMA, formatPath, isTable } from "./schema.js";

const PROFILE_KEYS = new Set(
  CONFIG_SCHEMA.filter((s) => s.key.startsWith("profiles.<name>.")).map((s) => s.key.split(".")[2] ?? ""),
);

/** A name that can be part of a file name: no separators, no leading dot. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export interface ProfileChoice {
  name: string;
  /** `--profile NAME`, or where `profile = "NAME"` was read (`file:line`, `-c profile=NAME`). */
  chosenBy: string;
}

/** Where the profile came from: the flag, else the `profile` key of the user's layers. */
export function chooseProfile(flag: string | undefined, layers: readonly Layer[], merged: TomlTable, userFile: string): ProfileChoice | null {
  if (flag !== undefined) return { name: flag, chosenBy: `--profile ${flag}` };
  const name = merged.profile;
  if (typeof name !== "string") return null;
  return { name, chosenBy: `${whereSet(layers, ["profile"], userFile)}: profile` };
}

/** The profile's file path, or null when NAME cannot be a file name. */
export function profileFile(home: string, name: string): string | null {
  return FILE_NAME.test(name) ? join(home, `${name}.config.toml`) : null;
}

/** Reads and checks `$CODEX_HOME/NAME.config.toml` (a syntax or value error names that file and line). */
export function readProfileFile(home: string, choice: ProfileChoice, warnings: string[]): Layer | null {
  const path = profileFile(home, choice.name);
  const layer = path === null ? null : readFileLayer(path);
  if (!layer) return null;
  checkLayer(layer, warnings, home);
  if (layer.table.profile !== undefined) warnings.push(`${layer.where(["profile"])}: profile has no effect inside a profile file`);
  return layer;
}

/**
 * The `[profiles.NAME]` table as a layer, or null when it is not defined. Its keys report the
 * line where they are written (in the user's file or a `-c profiles.NAME.key=…`).
 */
export function profileTableLayer(name: string, early: TomlTable, userLayers: readonly Layer[], userFile: string): Layer | null {
  const raw = lookup(early, ["profiles", name]);
  if (!isTable(raw)) return null;
  const values: TomlTable = {};
  for (const [key, value] of Object.entries(raw)) if (PROFILE_KEYS.has(key)) values[key] = value;
  return fixedLayer(`profile '${name}'`, values, (path) => whereSet(userLayers, ["profiles", name, ...path], userFile));
}

/** Neither form exists: name both places looked at. */
export function missingProfile(home: string, choice: ProfileChoice, userFile: string): ConfigError {
  const table = `[${formatPath(["profiles", choice.name])}]`;
  const path = profileFile(home, choice.name);
  const places = path === null ? `no ${table} table in ${userFile}` : `neither ${path} nor a ${table} table in ${userFile} exists`;
  return new ConfigError(`${choice.chosenBy}: no profile '${choice.name}': ${places}`);
}

/** Both forms of one profile exist: say which one wins. */
export function bothFormsWarning(file: Layer, name: string, userFile: string): string {
  const table = `[${formatPath(["profiles", name])}]`;
  return `profile '${name}' is defined twice, in ${file.name} and as ${table} in ${userFile}: both apply, and the table wins where both set a key (move its settings into ${file.name} and remove the table)`;
}
