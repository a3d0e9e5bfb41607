/**
 * TOML text for values we write ourselves: basic strings, bare-or-quoted keys, and JSON values
 * (for `-c key=value` overrides built from JSON). Everything produced parses back to the input.
 */

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A TOML basic string ("…") holding `s` exactly. */
export function tomlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += "\\uFFFD"; // a lone surrogate cannot be written
    else out += ch;
  }
  return `${out}"`;
}

/** A key as written in TOML: bare when it can be, else quoted. */
export function tomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : tomlString(key);
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON value as a TOML value (inline tables for objects); null when TOML cannot hold it. */
export function tomlValue(value: unknown): string | null {
  if (typeof value === "string") return tomlString(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    return String(value);
  }
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) {
      const text = tomlValue(item);
      if (text === null) return null;
      items.push(text);
    }
    return `[${items.join(", ")}]`;
  }
  if (typeof value === "object" && value !== null) {
    const entries: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (v === null || v === undefined) continue;
      const text = tomlValue(v);
      if (text === null) return null;
      entries.push(`${tomlKey(k)} = ${text}`);
    }
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  return null;
}
