/**
 * `-c key=value` overrides: the key is a dotted path into config.toml, the value is parsed as
 * a TOML value and, when that fails, taken as a plain string (so `-c model=o3` works without
 * quotes).
 */
import { parse } from "smol-toml";

export type TomlTable = Record<string, unknown>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export interface ConfigOverride {
  path: string[];
  value: unknown;
}

export function parseOverride(raw: string): ConfigOverride {
  const eq = keyEnd(raw);
  if (eq <= 0) throw new ConfigError(`-c ${raw}: expected key=value`);
  const key = raw.slice(0, eq).trim();
  const path = splitDottedKey(key);
  if (path.length === 0 || path.some((p) => p === "")) throw new ConfigError(`-c ${raw}: empty key or key part`);
  const text = raw.slice(eq + 1).trim();
  let value: unknown;
  try {
    value = (parse(`v = ${text}`) as TomlTable).v;
  } catch {
    value = text.replace(/^(['"])(.*)\1$/s, "$2");
  }
  return { path, value };
}

/** Index of the `=` ending the key: the first one outside quotes, or -1. */
function keyEnd(raw: string): number {
  let quote: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === "=") {
      return i;
    }
  }
  return -1;
}

/** Splits `a.b."c.d"` into ["a", "b", "c.d"], honouring quoted segments. */
function splitDottedKey(key: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const ch of key) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === ".") {
      parts.push(current.trim());
      current = "";
    } else {
      current += ch;
    }
  }
  parts.push(current.trim());
  return parts;
}

export function applyOverride(table: TomlTable, { path, value }: ConfigOverride): void {
  let node = table;
  for (const part of path.slice(0, -1)) {
    const next = node[part];
    if (next === null || typeof next !== "object" || Array.isArray(next)) node[part] = {};
    node = node[part] as TomlTable;
  }
  node[path[path.length - 1] as string] = value;
}
