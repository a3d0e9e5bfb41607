/**
 * TOML syntax errors in plain words. smol-toml reports where parsing stopped, with terse parser
 * wording ("invalid value", "illegal character in key"); this module looks at the offending line
 * to say what is actually wrong ("missing value after '='", "unclosed table header, expected ']'")
 * and renders `file:line:col: problem` with the line and a caret under the spot.
 */
import { parse, TomlError } from "smol-toml";
import { ConfigError, type TomlTable } from "./overrides.js";
import { errorMessage } from "../util/errors.js";

/** smol-toml's reasons that, on a `[` line, mean the header itself is broken. */
const HEADER_REASONS = new Set([
  "illegal character in key",
  "incomplete key-value: cannot find end of key",
  "expected end of table array declaration",
  "unexpected end of key",
  "illegal empty bare key",
]);

export interface TomlProblem {
  /** 1-based, as editors count. */
  line: number;
  column: number;
  message: string;
}

/** Parses `text` (the contents of `file`); a syntax error becomes a ConfigError with the line shown. */
export function parseTomlFile(file: string, text: string): TomlTable {
  try {
    return parse(text) as TomlTable;
  } catch (err) {
    if (err instanceof TomlError) throw new ConfigError(formatTomlError(file, text, explainTomlError(text, err)));
    throw new ConfigError(`${file}: ${errorMessage(err)}`);
  }
}

/** `file:line:col: invalid TOML: message`, then the line and a caret under the column. */
export function formatTomlError(file: string, text: string, problem: TomlProblem): string {
  const source = (text.split(/\r?\n/)[problem.line - 1] ?? "").replace(/\t/g, " ");
  const number = String(problem.line);
  const gutter = " ".repeat(number.length);
  return [
    `${file}:${problem.line}:${problem.column}: invalid TOML: ${problem.message}`,
    `  ${number} | ${source}`,
    `  ${gutter} | ${" ".repeat(Math.max(0, problem.column - 1))}^`,
  ].join("\n");
}

/** What smol-toml's error means for this text, in plain words, at the position to point at. */
export function explainTomlError(text: string, err: TomlError): TomlProblem {
  const reason = err.message.split("\n")[0]?.replace(/^Invalid TOML document:\s*/, "") ?? "";
  const lines = text.split(/\r?\n/);
  const at = (line: number, column: number, message: string): TomlProblem => ({ line, column, message });
  const line = lines[err.line - 1] ?? "";
  const here = (message: string): TomlProblem => at(err.line, err.column, message);
  const trimmed = line.trimStart();

  // A table header: `[name]` or `[[name]]` on a line of its own.
  if (trimmed.startsWith("[") && !hasUnquoted(line, "=") && HEADER_REASONS.has(reason)) {
    const array = trimmed.startsWith("[[");
    const close = array ? "]]" : "]";
    if (!hasUnquoted(trimmed.slice(array ? 2 : 1), "]") || (array && !trimmed.includes("]]"))) {
      return at(err.line, line.trimEnd().length + 1, `unclosed ${array ? "array-of-tables" : "table"} header, expected '${close}'`);
    }
    return here(`invalid table name in the header (a name part is empty or has a character that needs quotes)`);
  }

  switch (reason) {
    case "invalid value":
      return explainValue(line, err.line, err.column);
    case "control characters are not allowed in strings":
      if (err.column > line.length) return here(`unterminated string, expected a closing ${openingQuote(line)} before the end of the line`);
      return here("control character in a string: write it as an escape such as \\t or \\u0001");
    case "unfinished string": {
      const quote = line.slice(err.column - 1, err.column + 2);
      return here(`unterminated multi-line string, expected a closing ${quote.startsWith("'''") ? "'''" : '"""'}`);
    }
    case "trying to redefine an already defined table or value":
    case "trying to redefine an already defined value": {
      const name = keyAt(line, err.column);
      if (trimmed.startsWith("[")) return here(`duplicate table [${name}]: it is already defined above`);
      return here(`duplicate key '${name}'${reason.endsWith("table or value") ? "" : " in this inline table"}: it is already set`);
    }
    case "each key-value declaration must be followed by an end-of-line":
      return here("unexpected text after the value: put each `key = value` on a line of its own");
    case "expected comma or end of structure":
      return explainStructure(text, lines, err);
    case "illegal character in key":
    case "incomplete key-value: cannot find end of key":
      if (!hasUnquoted(line, "=")) return here(`missing '=' after the key '${line.trim().split(/\s/)[0] ?? ""}'`);
      return here(`'${line[err.column - 1] ?? ""}' cannot appear in a bare key: put the key in quotes, e.g. "${line.slice(0, line.indexOf("=")).trim()}"`);
    case "unexpected end of key":
    case "illegal empty bare key":
      return here("missing key: a key (or a part of a dotted key) is empty");
    case "unrecognised escape sequence":
      return here(`unknown escape sequence '${line.slice(err.column - 2, err.column)}' in a string: write \\\\ for a backslash, or use a 'literal string'`);
    case "invalid escape: only line-ending whitespace may be escaped":
      return here("a backslash at the end of a line may only be followed by spaces");
    case "illegal leading zero":
      return here("a number cannot start with 0 (write it without the leading zero, or quote it as a string)");
    case "illegal underscore":
    case "illegal character in numeric literal":
    case "unfinished numeric value":
      return here("malformed number");
    case "integer value cannot be represented losslessly":
      return here("integer too large (beyond ±9007199254740991)");
    case "control characters are not allowed in comments":
      return here("control character in a comment");
    default:
      if (reason.startsWith("invalid date")) return here("invalid date or time");
      return here(reason || "invalid TOML");
  }
}

/** smol-toml says "invalid value" for anything after `=` it cannot read. */
function explainValue(line: string, lineNo: number, column: number): TomlProblem {
  const rest = line.slice(column - 1).replace(/\s+#.*$/, "").trim();
  if (rest === "" || rest.startsWith("#")) return { line: lineNo, column, message: "missing value after '='" };
  const word = /^[A-Za-z_][\w.-]*/.exec(rest)?.[0];
  if (word !== undefined && /^(true|false)$/i.test(word)) {
    return { line: lineNo, column, message: `booleans are written in lower case: ${word.toLowerCase()}` };
  }
  if (word !== undefined) return { line: lineNo, column, message: `string values must be quoted: write "${rest}"` };
  return { line: lineNo, column, message: `invalid value '${rest}'` };
}

/** An array or inline table that is not closed, or whose items lack a comma between them. */
function explainStructure(text: string, lines: string[], err: TomlError): TomlProblem {
  const offset = lines.slice(0, err.line - 1).reduce((sum, l) => sum + l.length + 1, 0) + err.column - 1;
  const opener = innermostOpen(text.slice(0, offset));
  if (opener === null) return { line: err.line, column: err.column, message: "expected ',' or the end of the array or inline table" };
  const [kind, openLine, openColumn] = opener;
  if (kind === "{") {
    if (openLine < err.line) return { line: openLine, column: openColumn, message: "unclosed inline table, expected '}' on the same line (inline tables cannot span lines)" };
    return { line: err.line, column: err.column, message: "expected ',' or '}' in the inline table" };
  }
  const prev = lines[err.line - 1]?.slice(0, err.column - 1).trim() ?? "";
  if (openLine < err.line && prev === "" && /^\s*[A-Za-z0-9_"'-]+\s*=/.test(lines[err.line - 1] ?? "")) {
    return { line: openLine, column: openColumn, message: "unclosed array, expected ']'" };
  }
  return { line: err.line, column: err.column, message: "expected ',' or ']' in the array" };
}

/** The innermost `[` or `{` still open at the end of `text`, skipping strings and comments. */
function innermostOpen(text: string): [string, number, number] | null {
  const stack: [string, number, number][] = [];
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      line++;
      lineStart = i + 1;
    } else if (c === "#") {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const end = triple ? text.indexOf(c.repeat(3), i + 3) : closingQuote(text, i);
      if (end < 0) return null;
      for (let j = i + 1; j < end; j++) {
        if (text[j] !== "\n") continue;
        line++;
        lineStart = j + 1;
      }
      i = end + (triple ? 2 : 0);
    } else if (c === "[" || c === "{") {
      stack.push([c, line, i - lineStart + 1]);
    } else if (c === "]" || c === "}") {
      stack.pop();
    }
  }
  return stack[stack.length - 1] ?? null;
}

function closingQuote(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length && text[i] !== "\n"; i++) {
    if (quote === '"' && text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** The quote that opened the string left open on `line`. */
function openingQuote(line: string): string {
  const value = line.slice(line.indexOf("=") + 1).trimStart();
  return value.startsWith("'") ? "'" : '"';
}

/** The key (or header name) that starts at `column`, for duplicate-key messages. */
function keyAt(line: string, column: number): string {
  const from = line.slice(column - 1);
  const header = /^\[*\s*([^\]]*?)\s*\]/.exec(line.trimStart());
  if (line.trimStart().startsWith("[") && header) return header[1] ?? from;
  return (from.split("=")[0] ?? from).trim().replace(/^\{\s*/, "");
}

function hasUnquoted(line: string, char: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#") return false;
    else if (c === char) return true;
  }
  return false;
}
