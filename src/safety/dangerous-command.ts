/**
 * Commands destructive enough that no approval policy runs them silently: `rm` with its force
 * option (`-f`, `-rf`, `-Rf`, `--force`, wherever it stands before `--`), also behind a plain
 * `sudo` and inside `bash -c` / `sh -c` / `zsh -c` scripts. Codex 0.169 refuses these under
 * approval `never` (even with the sandbox bypassed) and asks under every other policy, unless a
 * command rule speaks about them; `command-orchestrator.ts` applies that.
 *
 * Unlike the known-safe check, which must refuse whatever it cannot read, this one must find the
 * command wherever it hides, so the whole script is walked (subshells, pipelines, groups, control
 * flow) and a word it cannot resolve exactly is read as its literal text. That errs towards
 * asking, which is the safe side.
 */
import { basename } from "node:path";
import { shellScriptCommand } from "./bash-commands.js";
import { withBashTree, type Node } from "../shell/bash-parser.js";

/** Whether `argv` (a program and its arguments, or a shell running a script) may delete files by force. */
export async function commandMightBeDangerous(argv: readonly string[]): Promise<boolean> {
  if (isForcedRemoval(argv)) return true;
  const invocation = shellScriptCommand(argv);
  if (invocation === null) return false;
  return scriptMightBeDangerous(invocation.script, 0);
}

/** Nested `bash -c '…'` scripts are followed this deep; deeper nesting counts as dangerous. */
const MAX_NESTING = 4;

async function scriptMightBeDangerous(script: string, depth: number): Promise<boolean> {
  if (depth > MAX_NESTING) return true;
  // Most scripts name no rm and no force option: they are answered without loading the bash
  // grammar (WebAssembly, about 12 MiB), which otherwise only rules and `untrusted` need.
  if (!mayNameForcedRemoval(script)) return false;
  let commands: string[][] | null;
  try {
    commands = await withBashTree(script, (root) => commandsIn(root));
  } catch {
    // No grammar: fall back to the words of the script as one command line.
    commands = [script.split(/\s+/).filter((word) => word !== "")];
  }
  for (const words of commands ?? []) {
    if (isForcedRemoval(words)) return true;
    const nested = shellScriptCommand(words);
    if (nested !== null && (await scriptMightBeDangerous(nested.script, depth + 1))) return true;
  }
  return false;
}

/**
 * A cheap over-approximation: with quotes and backslashes removed (they can split a word without
 * changing it), the script has the word `rm` and something shaped like a force option.
 */
function mayNameForcedRemoval(script: string): boolean {
  const plain = script.replace(/['"\\]/g, "");
  return /\brm\b/.test(plain) && /(^|[^A-Za-z0-9_-])(-[A-Za-z]*f[A-Za-z]*|--force)\b/.test(plain);
}

function isForcedRemoval(argv: readonly string[]): boolean {
  const [program, ...args] = argv;
  if (program === undefined) return false;
  // `sudo rm -f …`; sudo's own options (`sudo -u x rm`) are not followed, as in the reference.
  if (program === "sudo") return isForcedRemoval(args);
  if (basename(program) !== "rm") return false;
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg === "--force") return true;
    if (/^-[A-Za-z]*f[A-Za-z]*$/.test(arg)) return true;
  }
  return false;
}

/** The words of every simple command anywhere in the tree. */
function commandsIn(root: Node): string[][] {
  const commands: string[][] = [];
  const visit = (node: Node): void => {
    if (node.type === "command") {
      const words = node.namedChildren.flatMap((child) => (child !== null && (child.type === "command_name" || isWord(child)) ? [wordText(child)] : []));
      if (words.length > 0) commands.push(words);
    }
    for (const child of node.namedChildren) if (child !== null) visit(child);
  };
  visit(root);
  return commands;
}

function isWord(node: Node): boolean {
  return node.type === "word" || node.type === "raw_string" || node.type === "string" || node.type === "concatenation" || node.type === "number";
}

/** A word as the program would get it, as far as quoting goes; anything else is kept literally. */
function wordText(node: Node): string {
  switch (node.type) {
    case "command_name":
      return node.namedChildren[0] ? wordText(node.namedChildren[0]) : node.text;
    case "word":
      return node.text.replace(/\\(.)/g, "$1");
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
      return node.text.slice(1, -1).replace(/\\([$`"\\])/g, "$1");
    case "concatenation":
      return node.namedChildren.map((part) => (part === null ? "" : wordText(part))).join("");
    default:
      return node.text;
  }
}
