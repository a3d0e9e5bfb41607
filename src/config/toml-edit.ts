/**
 * Editing config.toml text in place: the change is made on the lines it concerns, so comments,
 * blank lines, key order and every other table stay byte for byte, and every edit is checked by
 * parsing the result against the data it should hold. When a line edit cannot give exactly that
 * (an unusual layout, such as the table written inline or as dotted keys elsewhere),
 * toml-patch's structural patch is tried instead and checked the same way; when that fails too
 * the edit is refused with a `ConfigEditError` rather than written wrong.
 *
 * API: `setTableValue(text, table, key, value)` (e.g. `projects."/abs".trust_level`),
 * `removeTableValue(text, table, key)`, and the
 * pieces other editors build on: `parseConfigText`, `sameConfig`, `patchedOrFail`,
 * `appendBlock`, `splitLines`, `isBlank`.
 */
import { isDeepStrictEqual } from "node:util";
import { parse as parseToml } from "smol-toml";
import { parse as patchParse, parseDocument, patch } from "@decimalturn/toml-patch";
import { tomlKey, tomlValue } from "../util/toml-text.js";
import { isTable } from "./schema.js";
import { errorMessage } from "../util/errors.js";

type Table = Record<string, unknown>;

export class ConfigEditError extends Error {}

/** Parses config text (smol-toml, as the config loader does); throws ConfigEditError when invalid. */
export function parseConfigText(text: string): Table {
  try {
    return parseToml(text) as Table;
  } catch (err) {
    throw new ConfigEditError(errorMessage(err));
  }
}

/** Whether `text` parses to `expected`, after `normalize` (which may edit its argument) on both. */
export function sameConfig(text: string, expected: Table, normalize: (t: Table) => Table = (t) => t): boolean {
  let actual: Table;
  try {
    actual = parseToml(text) as Table;
  } catch {
    return false;
  }
  return isDeepStrictEqual(plain(normalize(actual)), plain(normalize(expected)));
}

/** Plain data for comparison: smol-toml's tables have no prototype, and dates compare by text. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return `date:${String(value)}`;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** toml-patch's structural edit: `change` edits the parsed document; the result must match `expected`. */
export function patchedOrFail(text: string, change: (root: Table) => unknown, expected: Table, normalize?: (t: Table) => Table): string {
  let result: string;
  try {
    const obj = patchParse(text) as Table;
    change(obj);
    result = patch(text, obj);
  } catch (err) {
    throw new ConfigEditError(`could not edit config.toml: ${errorMessage(err)}`);
  }
  if (!sameConfig(result, expected, normalize)) throw new ConfigEditError("could not edit config.toml without changing other settings");
  return result;
}

const eolOf = (text: string): string => (text.includes("\r\n") ? "\r\n" : "\n");
export const isBlank = (line: string | undefined): boolean => line !== undefined && line.trim() === "";

/** Splits into lines without their final newline; `final` says whether the text ended with one. */
export function splitLines(text: string): { lines: string[]; final: boolean } {
  if (text === "") return { lines: [], final: false };
  const lines = text.split("\n");
  const final = lines[lines.length - 1] === "";
  if (final) lines.pop();
  return { lines, final };
}

/** `text` with `block` appended after one blank line, ending with a newline. */
export function appendBlock(text: string, block: string[]): string {
  const eol = eolOf(text);
  let prefix = text;
  if (prefix !== "" && !prefix.endsWith("\n")) prefix += eol;
  const { lines } = splitLines(prefix);
  if (lines.length > 0 && !isBlank(lines[lines.length - 1])) prefix += eol;
  return prefix + block.join(eol) + eol;
}

/** The table at `path` in `root`, created (as empty tables) where missing. */
function tableAt(root: Table, path: readonly string[]): Table {
  let t = root;
  for (const part of path) {
    const next = t[part];
    if (isTable(next)) t = next;
    else t = t[part] = {};
  }
  return t;
}

type Cst = ReturnType<typeof parseDocument>["cst"];
type Block = Cst[number];

const samePath = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((p, i) => p === b[i]);

/** The line edit: null when the text's layout is not the plain `[table]` + `key = value` one. */
function setByLines(text: string, table: readonly string[], key: string, valueText: string): string | null {
  let cst: Cst;
  try {
    cst = parseDocument(text).cst;
  } catch {
    return null;
  }
  const line = `${tomlKey(key)} = ${valueText}`;
  const header = (cst as Block[]).find((b) => "items" in b && samePath(b.key.item.value, table));
  if (header === undefined || !("items" in header)) return appendBlock(text, [`[${table.map(tomlKey).join(".")}]`, line]);
  const { lines, final } = splitLines(text);
  const eol = eolOf(text);
  const strip = (l: string): string => l.replace(/\r$/, "");
  let lastKeyLine = header.loc.start.line;
  for (const item of header.items) {
    if (!("value" in item)) continue;
    if (samePath(item.key.value, [key])) {
      const start = item.loc.start.line - 1;
      const end = item.loc.end.line - 1;
      // Keep a comment that follows the value on its last line.
      const trailing = /\s#.*$/.exec(strip(lines[end] ?? ""))?.[0] ?? "";
      const cr = (lines[start] ?? "").endsWith("\r") ? "\r" : "";
      lines.splice(start, end - start + 1, line + trailing + cr);
      return lines.join("\n") + (final ? "\n" : "");
    }
    lastKeyLine = Math.max(lastKeyLine, item.loc.end.line);
  }
  lines.splice(lastKeyLine, 0, line + (eol === "\r\n" ? "\r" : ""));
  return lines.join("\n") + (final ? "\n" : "");
}

/** `text` with `key = value` set in table `table` (a key path), created when missing. */
export function setTableValue(text: string, table: readonly string[], key: string, value: string | number | boolean): string {
  const valueText = tomlValue(value);
  if (valueText === null) throw new ConfigEditError(`cannot write ${String(value)} to config.toml`);
  const expected = parseConfigText(text);
  tableAt(expected, table)[key] = value;
  const edited = setByLines(text, table, key, valueText);
  if (edited !== null && sameConfig(edited, expected)) return edited;
  return patchedOrFail(text, (root) => (tableAt(root, table)[key] = value), expected);
}

/** `text` without `key` in table `table` (unchanged when it is not there). */
export function removeTableValue(text: string, table: readonly string[], key: string): string {
  const expected = parseConfigText(text);
  const holder = table.reduce<unknown>((t, part) => (isTable(t) ? t[part] : undefined), expected);
  if (!isTable(holder) || !(key in holder)) return text;
  delete holder[key];
  return patchedOrFail(text, (root) => delete tableAt(root, table)[key], expected);
}

/**
 * `text` with the value at `keyPath` set (removed when `value` is null). With `upsert` a table
 * value is merged into the table already there; with `replace` it takes its place. Scalars are
 * edited on their line (setTableValue); anything else goes through toml-patch, checked the same way.
 */
export function setKeyPath(text: string, keyPath: readonly string[], value: unknown, merge: "replace" | "upsert"): string {
  const key = keyPath[keyPath.length - 1];
  if (key === undefined) throw new ConfigEditError("an empty key path names no setting");
  const table = keyPath.slice(0, -1);
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return setTableValue(text, table, key, value);
  if (value === null) return removeTableValue(text, table, key);
  const apply = (root: Table): void => {
    const parent = tableAt(root, table);
    if (merge === "upsert" && isTable(value) && isTable(parent[key])) Object.assign(parent[key], value);
    else parent[key] = value;
  };
  const expected = parseConfigText(text);
  apply(expected);
  return patchedOrFail(text, apply, expected);
}
