/**
 * Where keys are written in a TOML document, so config errors can name a line. smol-toml's
 * `parse` keeps no positions; this scanner walks text that already parsed and records the
 * 1-based line of every table header (`[a.b]`, `[[a]]`, quoted parts such as
 * `[projects."/abs/path"]`), every `key = value` (dotted keys too) and every key inside inline
 * tables. Array-of-tables entries share one path (no index), the first line winning.
 */

export interface KeyLocator {
  /** The line of `path`, else of its nearest enclosing table or key, else null. */
  lineOf(path: readonly string[]): number | null;
}

const SEP = "\u0000";
const BARE_KEY = /[A-Za-z0-9_-]/;

export function locateKeys(text: string): KeyLocator {
  const lines = new Map<string, number>();
  const record = (path: readonly string[], line: number): void => {
    const id = path.join(SEP);
    if (!lines.has(id)) lines.set(id, line);
  };
  const scanner = new Scanner(text);
  try {
    scanner.document(record);
  } catch {
    // Best effort: keep whatever was found before the scanner lost its way.
  }
  return {
    lineOf(path) {
      for (let n = path.length; n > 0; n--) {
        const line = lines.get(path.slice(0, n).join(SEP));
        if (line !== undefined) return line;
      }
      return null;
    },
  };
}

type Recorder = (path: readonly string[], line: number) => void;

class Scanner {
  private i = 0;
  private line = 1;

  constructor(private readonly s: string) {}

  document(record: Recorder): void {
    let table: string[] = [];
    for (;;) {
      this.skipBlank(true);
      if (this.i >= this.s.length) return;
      const line = this.line;
      if (this.s[this.i] === "[") {
        const array = this.s[this.i + 1] === "[";
        this.i += array ? 2 : 1;
        table = this.key("]");
        this.i += array ? 2 : 1;
        record(table, line);
      } else {
        const key = this.key("=");
        this.i++;
        const path = [...table, ...key];
        for (let n = table.length + 1; n <= path.length; n++) record(path.slice(0, n), line);
        this.value(path, record);
      }
      this.skipToLineEnd();
    }
  }

  /** A dotted key up to (not past) `end`. */
  private key(end: string): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpaces();
      const ch = this.s[this.i];
      if (ch === '"' || ch === "'") {
        parts.push(this.quoted(ch));
      } else {
        const start = this.i;
        while (this.i < this.s.length && BARE_KEY.test(this.s[this.i] ?? "")) this.i++;
        if (this.i === start) throw new Error("expected a key");
        parts.push(this.s.slice(start, this.i));
      }
      this.skipSpaces();
      if (this.s[this.i] === ".") {
        this.i++;
        continue;
      }
      if (this.s[this.i] !== end) throw new Error(`expected '${end}'`);
      return parts;
    }
  }

  private value(path: readonly string[], record: Recorder): void {
    this.skipSpaces();
    const ch = this.s[this.i];
    if (ch === '"' || ch === "'") {
      if (this.s.startsWith(ch.repeat(3), this.i)) this.multiline(ch);
      else this.quoted(ch);
    } else if (ch === "[") {
      this.i++;
      for (;;) {
        this.skipBlank(true);
        if (this.s[this.i] === "]") break;
        this.value(path, record);
        this.skipBlank(true);
        if (this.s[this.i] === ",") this.i++;
        else if (this.s[this.i] !== "]") throw new Error("bad array");
      }
      this.i++;
    } else if (ch === "{") {
      this.i++;
      for (;;) {
        this.skipBlank(true);
        if (this.s[this.i] === "}") break;
        const line = this.line;
        const key = this.key("=");
        this.i++;
        const inner = [...path, ...key];
        for (let n = path.length + 1; n <= inner.length; n++) record(inner.slice(0, n), line);
        this.value(inner, record);
        this.skipBlank(true);
        if (this.s[this.i] === ",") this.i++;
        else if (this.s[this.i] !== "}") throw new Error("bad inline table");
      }
      this.i++;
    } else {
      while (this.i < this.s.length && !",]}#\n".includes(this.s[this.i] ?? "")) this.i++;
    }
  }

  /** A one-line basic or literal string; returns its value. */
  private quoted(q: string): string {
    let out = "";
    this.i++;
    while (this.i < this.s.length && this.s[this.i] !== q) {
      const ch = this.s[this.i] ?? "";
      if (q === '"' && ch === "\\") {
        out += this.escape();
      } else {
        out += ch;
        this.i++;
      }
    }
    this.i++;
    return out;
  }

  private escape(): string {
    const code = this.s[this.i + 1] ?? "";
    const simple: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\x1b", '"': '"', "\\": "\\" };
    const known = simple[code];
    if (known !== undefined) {
      this.i += 2;
      return known;
    }
    const width = code === "u" ? 4 : code === "U" ? 8 : 0;
    const hex = this.s.slice(this.i + 2, this.i + 2 + width);
    this.i += 2 + width;
    return width ? String.fromCodePoint(parseInt(hex, 16)) : code;
  }

  private multiline(q: string): void {
    const fence = q.repeat(3);
    this.i += 3;
    for (;;) {
      if (this.i >= this.s.length) throw new Error("unterminated string");
      if (this.s.startsWith(fence, this.i)) {
        this.i += 3;
        // Up to two more quotes may close the string's content (`""""` ends with a quote).
        while (this.s[this.i] === q) this.i++;
        return;
      }
      const ch = this.s[this.i];
      if (ch === "\n") this.line++;
      this.i += q === '"' && ch === "\\" ? 2 : 1;
      if (q === '"' && ch === "\\" && this.s[this.i - 1] === "\n") this.line++;
    }
  }

  private skipSpaces(): void {
    while (this.s[this.i] === " " || this.s[this.i] === "\t") this.i++;
  }

  /** Spaces, and with `newlines` also line breaks and comments. */
  private skipBlank(newlines: boolean): void {
    for (;;) {
      this.skipSpaces();
      const ch = this.s[this.i];
      if (ch === "#") {
        while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
      } else if (newlines && (ch === "\n" || ch === "\r")) {
        if (ch === "\n") this.line++;
        this.i++;
      } else {
        return;
      }
    }
  }

  private skipToLineEnd(): void {
    while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
  }
}
