/**
 * Config layers: each source of settings (built-in defaults, a config.toml file, a profile, one
 * `-c` override, the command-line flags) as a TOML table plus a way to say where a key in it
 * was written (`/home/me/.codex-ts/config.toml:12`, `-c model=o3`, `--profile fast`). Every layer
 * is checked against the schema on its own, so an error names the file and line to fix.
 */
import { readTextFile } from "../util/bounded-read.js";
import { ConfigError, applyOverride, parseOverride, type TomlTable } from "./overrides.js";
import { formatPath, isTable, resolvePaths, validateTable } from "./schema.js";
import { parseTomlFile } from "./toml-errors.js";
import { locateKeys } from "./toml-locate.js";
import { errorCode, errorMessage } from "../util/errors.js";

export interface Layer {
  /** The file, `-c key=value`, or a description such as `built-in defaults`. */
  readonly name: string;
  readonly table: TomlTable;
  /** Where `path` was set, for messages: `file:line`, or the layer's name. */
  where(path: readonly string[]): string;
}

/** A config.toml file's layer: null when there is no such file. */
export function readFileLayer(file: string): Layer | null {
  let text: string;
  try {
    // Only a regular file of a sane size: a repository's .codex/config.toml may be a FIFO or huge.
    text = readTextFile(file);
  } catch (err) {
    if (errorCode(err) === "ENOENT" || errorCode(err) === "ENOTDIR") return null;
    throw new ConfigError(`${file}: ${errorMessage(err)}`);
  }
  return fileLayer(file, text);
}

/** Parses `text` (the contents of `file`); a syntax error becomes `file:line:col: …` in plain words. */
export function fileLayer(file: string, text: string): Layer {
  const table = parseTomlFile(file, text);
  const locator = locateKeys(text);
  return {
    name: file,
    table,
    where(path) {
      const line = locator.lineOf(path);
      return line === null ? file : `${file}:${line}`;
    },
  };
}

/** One `-c key=value` as a layer of its own. */
export function overrideLayer(raw: string): Layer {
  const table: TomlTable = {};
  applyOverride(table, parseOverride(raw));
  const name = `-c ${raw}`;
  return { name, table, where: () => name };
}

/** A layer whose every key is described by one label (`built-in defaults`). */
export function fixedLayer(name: string, table: TomlTable, label: (path: readonly string[]) => string = () => name): Layer {
  return { name, table, where: label };
}

/**
 * Checks a layer against the schema: unknown keys are appended to `warnings`, wrong values
 * throw one ConfigError listing them all. Then makes its relative paths absolute (against
 * `baseDir`).
 */
export function checkLayer(layer: Layer, warnings: string[], baseDir: string | null): void {
  const { errors, unknown } = validateTable(layer.table);
  for (const problem of unknown) warnings.push(`${layer.where(problem.path)}: ${problem.message}`);
  if (errors.length > 0) {
    throw new ConfigError(errors.map((e) => `${layer.where(e.path)}: ${formatPath(e.path)}: ${e.message}`).join("\n"));
  }
  if (baseDir !== null) resolvePaths(layer.table, baseDir);
}

/** The layers merged, later ones winning: tables merge key by key, other values replace. */
export function mergeLayers(layers: readonly Layer[]): TomlTable {
  const merged: TomlTable = {};
  for (const layer of layers) mergeInto(merged, layer.table);
  return merged;
}

function mergeInto(target: TomlTable, source: TomlTable): void {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (isTable(value)) {
      const into: TomlTable = isTable(current) ? current : {};
      target[key] = into;
      mergeInto(into, value);
    } else {
      target[key] = Array.isArray(value) ? [...(value as unknown[])] : value;
    }
  }
}

export function lookup(table: TomlTable, path: readonly string[]): unknown {
  let node: unknown = table;
  for (const part of path) {
    if (!isTable(node)) return undefined;
    node = node[part];
  }
  return node;
}

/** The highest layer that sets `path`. */
export function originOf(layers: readonly Layer[], path: readonly string[]): Layer | undefined {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i];
    if (layer && lookup(layer.table, path) !== undefined) return layer;
  }
  return undefined;
}

/** `where` of the highest layer setting `path`, or `fallback`. */
export function whereSet(layers: readonly Layer[], path: readonly string[], fallback: string): string {
  return originOf(layers, path)?.where(path) ?? fallback;
}
