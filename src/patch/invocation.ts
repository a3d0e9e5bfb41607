/**
 * Recognises shell tool calls that are really apply_patch invocations, so the agent can apply
 * the patch in-process instead of spawning a program that does not exist on the user's machine.
 *
 * Accepted shapes, as in the reference CLI:
 *   - `["apply_patch", patch]` (or `applypatch`): the second element is the patch;
 *   - a shell running a script (`bash -lc`, `pwsh -Command`, `cmd /c`, ...) whose script is
 *     exactly `apply_patch <<DELIM ... DELIM`, optionally preceded by `cd <dir> &&`.
 *
 * The script is parsed with the tree-sitter bash grammar and matched strictly: anything with
 * extra statements, arguments, connectors or redirects is not an invocation and runs as an
 * ordinary command.
 */
import { withBashTree, type Node } from "../shell/bash-parser.js";

/** The patch text and `cd` directory of a recognised apply_patch invocation. */
export interface ApplyPatchInvocation {
  body: string;
  /** The `cd` argument as written (unresolved; the caller resolves it against its cwd). */
  workdir: string | null;
}

const APPLY_PATCH_NAMES: ReadonlySet<string> = new Set(["apply_patch", "applypatch"]);

/** Recognises the argv forms above; null when argv is not an apply_patch invocation. */
export async function extractApplyPatchInvocation(
  argv: readonly string[],
): Promise<ApplyPatchInvocation | null> {
  const [program, body] = argv;
  if (argv.length === 2 && program !== undefined && body !== undefined && APPLY_PATCH_NAMES.has(program)) {
    return { body, workdir: null };
  }
  const script = shellScriptOf(argv);
  // Most shell calls have nothing to do with patches; skip the parser (and its wasm load) for them.
  if (script === null || !mentionsApplyPatch(script)) return null;
  return withBashTree(script, matchApplyPatchScript);
}

/** The script of a `[shell, flag, script]` argv (any script, not only apply_patch ones), else null. */
export function shellScriptOf(argv: readonly string[]): string | null {
  if (argv.length === 3) {
    const [shell = "", flag = "", script = ""] = argv;
    return takesScriptFlag(shellKind(shell), flag) ? script : null;
  }
  if (argv.length === 4) {
    const [shell = "", skipFlag = "", flag = "", script = ""] = argv;
    const isPowerShell = shellKind(shell) === "powershell";
    return isPowerShell && equalsIgnoreCase(skipFlag, "-NoProfile") && equalsIgnoreCase(flag, "-Command")
      ? script
      : null;
  }
  return null;
}

type ShellKind = "unix" | "powershell" | "cmd" | null;

/** Classifies a shell by its file stem, so `/bin/bash`, `BASH` and `pwsh.exe` all count. */
function shellKind(shell: string): ShellKind {
  switch (fileStem(shell).toLowerCase()) {
    case "bash":
    case "zsh":
    case "sh":
      return "unix";
    case "pwsh":
    case "powershell":
      return "powershell";
    case "cmd":
      return "cmd";
    default:
      return null;
  }
}

function takesScriptFlag(kind: ShellKind, flag: string): boolean {
  switch (kind) {
    case "unix":
      return flag === "-lc" || flag === "-c";
    case "powershell":
      return equalsIgnoreCase(flag, "-Command");
    case "cmd":
      return equalsIgnoreCase(flag, "/c");
    default:
      return false;
  }
}

/** The last path component without its extension; both separators, since argv may come from Windows. */
function fileStem(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  // A leading dot starts a hidden name, not an extension.
  return dot > 0 ? name.slice(0, dot) : name;
}

function equalsIgnoreCase(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function mentionsApplyPatch(script: string): boolean {
  return [...APPLY_PATCH_NAMES].some((name) => script.includes(name));
}

/** Matches a whole parsed script against the two accepted shapes. */
function matchApplyPatchScript(root: Node): ApplyPatchInvocation | null {
  if (root.hasError || root.namedChildCount !== 1) return null;
  const statement = root.namedChild(0);
  if (statement?.type !== "redirected_statement") return null;
  const body = heredocBody(statement);
  const command = statement.childForFieldName("body");
  if (body === null || command === null) return null;
  if (command.type === "command") {
    return isBareApplyPatch(command) ? { body, workdir: null } : null;
  }
  const workdir = command.type === "list" ? cdThenApplyPatch(command) : null;
  return workdir === null ? null : { body, workdir };
}

/**
 * The body of the statement's only redirect, trailing newlines trimmed, when that redirect is a
 * plain heredoc. A heredoc that also pipes or chains (`<<EOF | cat`, `<<EOF && echo`) carries
 * an extra node between start and body, so requiring exactly start/body/end rejects it.
 * Tree-sitter starts the body node at its first non-blank character, so leading blank lines and
 * indentation are dropped; the reference reads the same node, and patch parsing ignores them.
 */
function heredocBody(statement: Node): string | null {
  const redirects = statement.childrenForFieldName("redirect");
  const redirect = redirects[0];
  if (redirects.length !== 1 || redirect?.type !== "heredoc_redirect") return null;
  const types = redirect.namedChildren.map((child) => child?.type);
  if (types.join(" ") !== "heredoc_start heredoc_body heredoc_end") return null;
  const body = redirect.namedChildren[1];
  return body ? body.text.replace(/\n+$/, "") : null;
}

/** `apply_patch` alone: the name as a plain word and no arguments. */
function isBareApplyPatch(command: Node): boolean {
  return commandWords(command)?.length === 1 && APPLY_PATCH_NAMES.has(commandName(command) ?? "");
}

/** For `cd <dir> && apply_patch`, the directory; null for any other list. */
function cdThenApplyPatch(list: Node): string | null {
  const [cd, connector, apply] = list.children;
  if (list.childCount !== 3 || connector?.type !== "&&") return null;
  if (cd?.type !== "command" || apply?.type !== "command" || !isBareApplyPatch(apply)) return null;
  const words = commandWords(cd);
  if (words?.length !== 2 || commandName(cd) !== "cd") return null;
  const argument = words[1];
  return argument ? literalArgument(argument) : null;
}

/**
 * The command's name and arguments, or null when it has anything else (variable assignments,
 * inline redirects), which the accepted shapes never contain.
 */
function commandWords(command: Node): Node[] | null {
  const children = command.namedChildren.filter((child): child is Node => child !== null);
  const [name, ...args] = children;
  if (name?.type !== "command_name") return null;
  const argumentIds = new Set(command.childrenForFieldName("argument").map((arg) => arg?.id));
  return args.every((arg) => argumentIds.has(arg.id)) ? children : null;
}

/** The command's name when it is a plain word (not quoted, not an expansion). */
function commandName(command: Node): string | null {
  const name = command.childForFieldName("name");
  const word = name?.namedChildCount === 1 ? name.namedChild(0) : null;
  return word?.type === "word" ? word.text : null;
}

/**
 * The value of an argument that needs no expansion: a plain word as written, the content of a
 * double-quoted string without substitutions, or a single-quoted string without its quotes.
 */
function literalArgument(node: Node): string | null {
  switch (node.type) {
    case "word":
      return node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "string": {
      const content = node.namedChildCount === 1 ? node.namedChild(0) : null;
      return content?.type === "string_content" ? content.text : null;
    }
    default:
      return null;
  }
}
