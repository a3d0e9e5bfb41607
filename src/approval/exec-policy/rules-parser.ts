/**
 * Reads `.rules` files: the small part of Starlark the reference's rules use, parsed and never
 * executed. A file is a sequence of calls, `prefix_rule(...)` or `host_executable(...)`, whose
 * arguments are keyword arguments whose values are string literals or (nested) lists of them.
 * Comments (`#`), trailing commas and line breaks anywhere inside brackets are allowed. Anything
 * else is an error that names the file, line and column.
 */

export type RuleValue = string | RuleValue[];

export interface RuleCall {
  name: string;
  line: number;
  args: Map<string, { value: RuleValue; line: number }>;
}

export class RulesError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${column}: ${reason}`);
    this.name = "RulesError";
  }
}

type Token =
  | { kind: "ident"; text: string; line: number; column: number }
  | { kind: "string"; text: string; line: number; column: number }
  | { kind: "punct"; text: "(" | ")" | "[" | "]" | "," | "="; line: number; column: number }
  | { kind: "end"; text: ""; line: number; column: number };

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0" };

function tokenize(file: string, text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const fail = (reason: string, at = i): never => {
    throw new RulesError(file, line, at - lineStart + 1, reason);
  };
  while (i < text.length) {
    const ch = text[i] ?? "";
    const column = i - lineStart + 1;
    if (ch === "\n") {
      line += 1;
      lineStart = ++i;
    } else if (ch === " " || ch === "\t" || ch === "\r") {
      i++;
    } else if (ch === "#") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (/[A-Za-z0-9_]/.test(ch)) {
      // Numbers read as words too: no rule takes one, so they fail as the wrong kind of value.
      const start = i;
      while (i < text.length && /[A-Za-z0-9_.]/.test(text[i] ?? "")) i++;
      tokens.push({ kind: "ident", text: text.slice(start, i), line, column });
    } else if (ch === '"' || ch === "'") {
      const triple = text.startsWith(ch.repeat(3), i);
      const quote = triple ? ch.repeat(3) : ch;
      const startLine = line;
      i += quote.length;
      let value = "";
      for (;;) {
        if (i >= text.length) fail("unterminated string");
        if (text.startsWith(quote, i)) {
          i += quote.length;
          break;
        }
        const c = text[i] ?? "";
        if (c === "\n") {
          if (!triple) fail("unterminated string");
          line += 1;
          lineStart = i + 1;
        }
        if (c === "\\") {
          const next = text[i + 1] ?? "";
          const escaped = ESCAPES[next];
          if (escaped === undefined) fail(`unknown escape \\${next} in string`);
          value += escaped;
          i += 2;
          continue;
        }
        value += c;
        i++;
      }
      tokens.push({ kind: "string", text: value, line: startLine, column });
    } else if ("()[],=".includes(ch)) {
      tokens.push({ kind: "punct", text: ch as "(" | ")" | "[" | "]" | "," | "=", line, column });
      i++;
    } else {
      fail(`unexpected character ${JSON.stringify(ch)}`);
    }
  }
  tokens.push({ kind: "end", text: "", line, column: i - lineStart + 1 });
  return tokens;
}

export function parseRules(file: string, text: string): RuleCall[] {
  const tokens = tokenize(file, text);
  let pos = 0;
  const peek = (): Token => tokens[pos] ?? tokens[tokens.length - 1] as Token;
  const fail = (token: Token, reason: string): never => {
    throw new RulesError(file, token.line, token.column, reason);
  };
  const expect = (text: string): Token => {
    const token = peek();
    if (token.text !== text || token.kind === "string") fail(token, `expected '${text}', found ${describe(token)}`);
    pos++;
    return token;
  };
  const value = (): RuleValue => {
    const token = peek();
    if (token.kind === "string") {
      pos++;
      return token.text;
    }
    if (token.kind === "punct" && token.text === "[") {
      pos++;
      const items: RuleValue[] = [];
      while (!(peek().kind === "punct" && peek().text === "]")) {
        items.push(value());
        if (peek().kind === "punct" && peek().text === ",") pos++;
        else break;
      }
      expect("]");
      return items;
    }
    return fail(token, `expected a string or a list, found ${describe(token)}`);
  };

  const calls: RuleCall[] = [];
  while (peek().kind !== "end") {
    const name = peek();
    if (name.kind !== "ident") fail(name, `expected a rule such as prefix_rule(...), found ${describe(name)}`);
    pos++;
    if (peek().text !== "(" || peek().kind !== "punct") {
      fail(name, `only calls such as prefix_rule(...) are allowed in a rules file; found ${describe(name)} followed by ${describe(peek())}`);
    }
    expect("(");
    const args = new Map<string, { value: RuleValue; line: number }>();
    while (!(peek().kind === "punct" && peek().text === ")")) {
      const key = peek();
      if (key.kind !== "ident") fail(key, `expected a keyword argument (name = value), found ${describe(key)}`);
      pos++;
      expect("=");
      if (args.has(key.text)) fail(key, `argument ${key.text} given twice`);
      args.set(key.text, { value: value(), line: key.line });
      if (peek().kind === "punct" && peek().text === ",") pos++;
      else break;
    }
    expect(")");
    calls.push({ name: name.text, line: name.line, args });
  }
  return calls;
}

function describe(token: Token): string {
  if (token.kind === "end") return "the end of the file";
  if (token.kind === "string") return `the string ${JSON.stringify(token.text)}`;
  return `'${token.text}'`;
}
