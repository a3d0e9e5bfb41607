/**
 * Recognises shell scripts that are nothing but a sequence of plain commands, so the approval
 * logic can judge each command on its own (`ls && wc -l README.md` is as safe as its parts).
 *
 * "Plain" is deliberately narrow. A script qualifies only when it is built from simple commands
 * joined by `&&`, `||`, `;`, `|` or newlines, and every word of every command is a bare word, a
 * number, a single-quoted string, a double-quoted string without expansions, or a concatenation
 * of those. Anything that can run code, touch files or make a word's value depend on the
 * environment is refused: redirections, here-docs, command/process substitution, parameter and
 * arithmetic expansion, `$'…'`/`$"…"` strings, brace expansion, subshells, `{ …; }` groups,
 * background jobs, `!`, assignments, control flow, function definitions, comments and any
 * syntax error. Refusing is always the safe answer: the caller then asks the user.
 *
 * Pathname expansion (`*`, `?`, `[…]`) is the one expansion kept, because `cat src/*.ts` is
 * common and harmless. A globbed word is reported with the pattern it stands for, so rules that
 * care about option-looking arguments can tell whether the pattern could expand to one.
 *
 * The grammar is tree-sitter-bash, also used for `sh -c` and `zsh -c` scripts; constructs where
 * those shells differ from bash (zsh glob qualifiers, for example) all involve syntax that is
 * refused here anyway.
 */
import { withBashTree, type Node } from "../shell/bash-parser.js";

/** A word of a plain command after quote removal. */
export interface PlainWord {
  /** The word as bash passes it to the program when no pathname expansion happens. */
  readonly text: string;
  /** Set when the word contains unquoted glob characters and may expand to file names. */
  readonly pattern: GlobPattern | null;
}

export interface GlobPattern {
  /**
   * Matches every string the pattern could expand to (an over-approximation: it ignores `/`
   * and leading-dot rules and is case-insensitive in case `nocaseglob` is on).
   */
  readonly regex: RegExp;
  /** Whether an expansion could start with `-`, i.e. be taken for an option. */
  readonly mayBeOption: boolean;
}

/**
 * Returns the commands of `script` as argv arrays when the script consists solely of plain
 * commands (see the module comment), or null otherwise. An empty script yields `[]`.
 */
export async function parsePlainCommands(script: string): Promise<string[][] | null> {
  const commands = await parsePlainScript(script);
  return commands === null ? null : commands.map((words) => words.map((word) => word.text));
}

/** Like {@link parsePlainCommands}, keeping which words are glob patterns. */
export async function parsePlainScript(script: string): Promise<PlainWord[][] | null> {
  const result = await withBashTree(script, (root) => collectPlainCommands(root, script));
  return result ?? null;
}

/**
 * Shells whose `-c` scripts are analysed. Only bare names (resolved through PATH) and the usual
 * system locations count: a `bash` binary inside the workspace could do anything.
 */
const SCRIPT_SHELLS: ReadonlySet<string> = new Set([
  "bash",
  "/bin/bash",
  "/usr/bin/bash",
  "/usr/local/bin/bash",
  "/opt/homebrew/bin/bash",
  "zsh",
  "/bin/zsh",
  "/usr/bin/zsh",
  "/usr/local/bin/zsh",
  "/opt/homebrew/bin/zsh",
  "sh",
  "/bin/sh",
  "/usr/bin/sh",
]);

/**
 * Recognises `[shell, "-lc" | "-c", script]` for bash, zsh and sh (by bare name or standard
 * system path). Any other shape, extra arguments included, is not a shell script invocation.
 */
export function shellScriptCommand(argv: readonly string[]): { shell: string; script: string } | null {
  if (argv.length !== 3) return null;
  const [shell, flag, script] = argv as [string, string, string];
  if (flag !== "-lc" && flag !== "-c") return null;
  if (!SCRIPT_SHELLS.has(shell)) return null;
  return { shell, script };
}

// ---------------------------------------------------------------------------------------------
// Tree walk

/** Operator tokens allowed between commands. `;;`, `&`, `|&` and the rest are refused. */
const SEPARATORS: ReadonlySet<string> = new Set(["&&", "||", ";", "|"]);

/** Thrown inside the walk to abandon it; never escapes this module. */
class NotPlain extends Error {}

function collectPlainCommands(root: Node, script: string): PlainWord[][] | null {
  if (root.hasError) return null;
  const commands: PlainWord[][] = [];
  try {
    collect(root, script, commands);
  } catch (error) {
    if (error instanceof NotPlain) return null;
    throw error;
  }
  return commands;
}

function collect(node: Node, script: string, out: PlainWord[][]): void {
  switch (node.type) {
    case "program":
    case "list":
    case "pipeline": {
      let previous: Node | null = null;
      for (const child of node.children) {
        if (child === null) throw new NotPlain();
        if (child.isNamed) {
          collect(child, script, out);
        } else if (child.type.trim() !== "") {
          // An operator must follow a command on the same line: bash rejects `ls\n; pwd`.
          if (!SEPARATORS.has(child.type) || previous === null || !previous.isNamed) throw new NotPlain();
          if (!/^[ \t]*$/.test(script.slice(previous.endIndex, child.startIndex).replaceAll("\\\n", ""))) {
            throw new NotPlain();
          }
        }
        previous = child;
      }
      return;
    }
    case "command":
      out.push(commandWords(node, script));
      return;
    default:
      throw new NotPlain();
  }
}

function commandWords(command: Node, script: string): PlainWord[] {
  const words: PlainWord[] = [];
  let previous: Node | null = null;
  for (const child of command.children) {
    if (child === null || !child.isNamed) throw new NotPlain();
    if (previous === null) {
      if (child.type !== "command_name") throw new NotPlain();
      words.push(commandName(child));
    } else {
      // Words must be separated by blanks; adjacent pieces would be one word to bash.
      if (!isBlank(script.slice(previous.endIndex, child.startIndex))) throw new NotPlain();
      words.push(argumentWord(child));
    }
    previous = child;
  }
  if (words.length === 0) throw new NotPlain();
  return words;
}

/**
 * Whether the text between two words separates them. Backslash-newline continuations vanish
 * before word splitting (`a\<newline>b` is the one word `ab`), so a blank must remain without them.
 */
function isBlank(gap: string): boolean {
  return /^[ \t]+$/.test(gap.replaceAll("\\\n", ""));
}

/** The program name must be a bare unquoted word, as in the reference implementation. */
function commandName(node: Node): PlainWord {
  if (node.childCount !== 1) throw new NotPlain();
  const word = node.child(0);
  if (word === null || word.type !== "word") throw new NotPlain();
  return finishWord(pieces(word));
}

function argumentWord(node: Node): PlainWord {
  return finishWord(pieces(node));
}

/** One character of a word after quote removal, remembering whether it was quoted or escaped. */
interface Piece {
  readonly char: string;
  readonly literal: boolean;
}

function pieces(node: Node): Piece[] {
  switch (node.type) {
    case "word":
    case "number":
      if (node.childCount !== 0) throw new NotPlain();
      return unquotedPieces(node.text);
    case "raw_string":
      return rawStringPieces(node.text);
    case "string":
      return doubleQuotedPieces(node);
    case "concatenation": {
      let end = node.startIndex;
      return node.children.flatMap((part) => {
        if (part === null || !part.isNamed || part.type === "concatenation") throw new NotPlain();
        // The parts of one word must touch; anything between them is text we did not see.
        if (part.startIndex !== end) throw new NotPlain();
        end = part.endIndex;
        return pieces(part);
      });
    }
    default:
      throw new NotPlain();
  }
}

/**
 * Characters that bash never leaves inside an unquoted word unless escaped. The grammar should
 * already have split them off; finding one means the parse and bash may disagree, so refuse.
 */
const SHELL_SPECIAL = new Set(["$", "`", "<", ">", "(", ")", "&", ";", "|", "'", '"', " ", "\t", "\n"]);

/** Unquoted text: a backslash makes the next character literal; backslash-newline vanishes. */
function unquotedPieces(text: string): Piece[] {
  const out: Piece[] = [];
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    if (char === "\\") {
      const next = chars[++i];
      if (next === undefined) throw new NotPlain();
      if (next !== "\n") out.push({ char: next, literal: true });
    } else if (SHELL_SPECIAL.has(char)) {
      throw new NotPlain();
    } else {
      out.push({ char, literal: false });
    }
  }
  return out;
}

/** `'…'`: everything inside is literal, backslashes included. */
function rawStringPieces(text: string): Piece[] {
  if (text.length < 2 || !text.startsWith("'") || !text.endsWith("'")) throw new NotPlain();
  return Array.from(text.slice(1, -1), (char) => ({ char, literal: true }));
}

/**
 * `"…"` without expansions. Inside double quotes a backslash only escapes `$`, `` ` ``, `"`,
 * `\` and newline; before anything else it stays.
 */
function doubleQuotedPieces(node: Node): Piece[] {
  const children = node.children;
  const count = children.length;
  if (count < 2 || children[0]?.type !== '"' || children[count - 1]?.type !== '"') throw new NotPlain();
  for (let i = 1; i < count - 1; i++) {
    const child = children[i];
    if (child?.type !== "string_content" || child.childCount !== 0) throw new NotPlain();
  }
  const text = node.text;
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) throw new NotPlain();
  const chars = Array.from(text.slice(1, -1));
  const out: Piece[] = [];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    const next = chars[i + 1];
    if (char === "\\" && next !== undefined && '$`"\\\n'.includes(next)) {
      i++;
      if (next !== "\n") out.push({ char: next, literal: true });
    } else if (char === "$" || char === "`") {
      // The grammar should have produced an expansion node; refuse rather than guess.
      throw new NotPlain();
    } else {
      out.push({ char, literal: true });
    }
  }
  return out;
}

function finishWord(parts: readonly Piece[]): PlainWord {
  if (hasBraceExpansion(parts)) throw new NotPlain();
  return { text: parts.map((part) => part.char).join(""), pattern: globPattern(parts) };
}

/**
 * Whether bash could brace-expand the word: an unquoted `{` with a later unquoted `}` and a
 * comma or `..` between them (quoted or not, to stay on the safe side). `{}` alone is literal.
 */
function hasBraceExpansion(parts: readonly Piece[]): boolean {
  for (let open = 0; open < parts.length; open++) {
    const opener = parts[open] as Piece;
    if (opener.literal || opener.char !== "{") continue;
    for (let close = open + 1; close < parts.length; close++) {
      const closer = parts[close] as Piece;
      if (closer.literal || closer.char !== "}") continue;
      const inner = parts.slice(open + 1, close).map((part) => part.char).join("");
      if (inner.includes(",") || inner.includes("..")) return true;
    }
  }
  return false;
}

/**
 * Builds the expansion matcher when the word has unquoted `*`, `?` or `[`…`]`. Bracket
 * expressions are not interpreted: everything from the first unquoted `[` that has an unquoted
 * `]` after it, up to the last unquoted `]`, is treated as "anything", which can only widen
 * the match.
 */
function globPattern(parts: readonly Piece[]): GlobPattern | null {
  const isWild = (part: Piece | undefined, char: string): boolean => part !== undefined && !part.literal && part.char === char;
  let bracketStart = -1;
  let bracketEnd = -1;
  for (let i = 0; i < parts.length; i++) {
    if (bracketStart === -1 && isWild(parts[i], "[")) bracketStart = i;
    else if (bracketStart !== -1 && isWild(parts[i], "]")) bracketEnd = i;
  }
  let source = "";
  let isGlob = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Piece;
    if (bracketEnd !== -1 && i === bracketStart) {
      source += ".*";
      isGlob = true;
      i = bracketEnd;
    } else if (isWild(part, "*")) {
      source += ".*";
      isGlob = true;
    } else if (isWild(part, "?")) {
      source += ".";
      isGlob = true;
    } else {
      source += escapeRegExp(part.char);
    }
  }
  if (!isGlob) return null;
  const first = parts[0];
  const mayBeOption =
    first?.char === "-" || isWild(first, "*") || isWild(first, "?") || (bracketEnd !== -1 && bracketStart === 0);
  return { regex: new RegExp(`^${source}$`, "isu"), mayBeOption };
}

function escapeRegExp(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/u.test(char) ? `\\${char}` : char;
}
