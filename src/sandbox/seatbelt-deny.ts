/**
 * Seatbelt clauses for a profile's file-system rules, appended after the base profile
 * (seatbelt.ts). Seatbelt lets the last matching rule decide, so path rules come from the
 * shallowest to the deepest (the deepest wins, as everywhere) and the deny globs last: Seatbelt
 * matches them itself, as regular expressions, at every access, so files created later are
 * covered without any scan. Paths found by the guard (other hard links to a hidden file) are
 * denied by name as well, and the folders above what is hidden cannot be renamed.
 */
import { dirname } from "node:path";
import type { DenyView } from "./fs-guard.js";
import { pathDepth, type DenyGlob, type FileSystemRules } from "./fs-rules.js";

export interface SeatbeltClauses {
  text: string;
  params: Record<string, string>;
}

export function seatbeltDenyClauses(rules: FileSystemRules, view: DenyView | undefined, canonicalize: (path: string) => string): SeatbeltClauses {
  const params: Record<string, string> = {};
  const lines: string[] = [];
  const sorted = [...rules.paths].sort((a, b) => pathDepth(a.path) - pathDepth(b.path));
  sorted.forEach((rule, i) => {
    const name = `FS_RULE_${i}`;
    params[name] = canonicalize(rule.path);
    const target = `(subpath (param "${name}"))`;
    if (rule.access === "none") lines.push(`(deny file-read* file-write* ${target})`);
    else if (rule.access === "read") lines.push(`(allow file-read* ${target})`, `(deny file-write* ${target})`);
    else lines.push(`(allow file-read* file-write* ${target})`);
  });
  for (const glob of rules.denyGlobs) lines.push(`(deny file-read* file-write* (regex #"${seatbeltRegex(glob, canonicalize)}"))`);
  (view?.hidden ?? []).forEach(({ path }, i) => {
    const name = `FS_HIDDEN_${i}`;
    params[name] = path;
    lines.push(`(deny file-read* file-write* (subpath (param "${name}")))`);
  });
  // As bubblewrap's pinned folders: the folders above a hidden path and a pattern's base cannot
  // be renamed, so a hidden file cannot be carried out from under its pattern (`mv keys k2`).
  // Creating and changing files inside them is not affected: that is a write to another path.
  const pins = new Set<string>();
  const pinAbove = (path: string, self: boolean): void => {
    for (let dir = self ? path : dirname(path); dir !== dirname(dir); dir = dirname(dir)) pins.add(dir);
  };
  for (const glob of rules.denyGlobs) pinAbove(canonicalize(glob.base), true);
  for (const { path } of view?.hidden ?? []) pinAbove(path, false);
  [...pins].sort().forEach((path, i) => {
    const name = `FS_PIN_${i}`;
    params[name] = path;
    lines.push(`(deny file-write* (literal (param "${name}")))`);
  });
  if (lines.length === 0) return { text: "", params };
  return { text: `\n; The permission profile's rules: the deepest path rule wins, denied patterns always.\n${lines.join("\n")}\n`, params };
}

/**
 * The glob as an anchored POSIX regular expression over real paths: `**` spans folders, `*` and
 * `?` stay within one name, `{a,b}` is an alternation, `[...]` a class; a match covers
 * everything below it too.
 */
export function seatbeltRegex(glob: DenyGlob, canonicalize: (path: string) => string): string {
  const base = canonicalize(glob.base).replace(/\/$/, "");
  let out = "";
  let braces = 0;
  const pattern = glob.pattern;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? "";
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      out += slash ? "(.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{") {
      braces++;
      out += "(";
    } else if (c === "}" && braces > 0) {
      braces--;
      out += ")";
    } else if (c === "," && braces > 0) out += "|";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 1);
      if (end === -1) out += "\\[";
      else {
        out += `[${pattern.slice(i + 1, end).replace(/^!/, "^").replace(/"/g, "")}]`;
        i = end;
      }
    } else out += escapeChar(c);
  }
  return `^${escapeLiteral(base)}/${out}(/.*)?$`;
}

function escapeLiteral(text: string): string {
  return [...text].map(escapeChar).join("");
}

function escapeChar(c: string): string {
  // A regex literal cannot hold a double quote: any character stands in for it (denying more, never less).
  if (c === '"') return ".";
  return /[.^$|()[\]*+?{}\\]/.test(c) ? `\\${c}` : c;
}
