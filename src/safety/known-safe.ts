/**
 * Commands that are known to be safe: read-only, no side effects, nothing executed on their
 * behalf. Under the `untrusted` approval policy these are the only ones that run without asking.
 *
 * The rules follow the reference Codex CLI's safe-command classifier (newest version seen):
 *
 * - A fixed set of utilities is safe with any arguments (see {@link ALWAYS_SAFE}); `numfmt` and
 *   `tac` only on Linux, where they are part of coreutils.
 * - `find` unless it can run programs, delete, or write file lists (`-exec`, `-delete`, …).
 * - `rg` unless it can run helpers (`--pre`, `--hostname-bin`) or decompressors (`-z`).
 * - `base64` unless it writes an output file (`-o`, `--output`).
 * - `sed` only as `sed -n N[,M]p [FILE]`.
 * - The program must be a bare name looked up through PATH: `./cat` or `/tmp/x/ls` could be
 *   anything that merely shares the name.
 * - `git status|log|diff|show` and listing forms of `git branch` are safe only when the command
 *   will run inside the sandbox. Even `git status` runs helpers chosen by repository config
 *   (for example `core.fsmonitor`), which is why the newest reference never trusts git; inside
 *   the sandbox such a helper cannot write outside the workspace or reach the network, so the
 *   read-only subcommands users rely on stay unasked there (as older reference versions had
 *   them), while unsandboxed they are always asked about. No global options (`-c`, `-C`,
 *   `--git-dir`, …) and no `--output` are accepted.
 * - `bash|zsh|sh -c|-lc SCRIPT` is safe when the script is made only of plain commands joined by
 *   `&&`, `||`, `;`, `|` (see bash-commands.ts) and every one of them is safe by these rules.
 *   Nested shells are not looked into.
 *
 * Deliberate differences, all stricter than the reference:
 *
 * - `uniq` with two operands writes the second one (`uniq IN OUT`), so it is only safe with at
 *   most one operand, and not when a glob could supply more.
 * - `sed -n Np FILE`: FILE must not start with `-`; `-fscript.sed` or `-i` there would run a sed
 *   script (GNU sed can execute commands) or edit files in place.
 * - `rg`: a short-option cluster containing `z` (`-nz`) enables zip search just like `-z`, and
 *   abbreviated long options (`--pr`) are treated like the full names.
 * - `base64`: a short-option cluster containing `o` (`-Do out`) or an abbreviated `--output`
 *   (`--out=x`) writes a file too.
 * - In scripts, a glob is a problem where an expanded file name could become an option: for
 *   `find` when the pattern can match one of the dangerous primaries (`find *` with a file named
 *   `-delete`), for `rg`, `base64` and `sed` when the expansion could start with `-`, and for
 *   `uniq` always. `find . -name *.ts` stays safe. Brace expansion and backslash escapes are
 *   resolved before matching, so `-\exec` or `-e{xec,}` cannot hide an option.
 * - The Windows/PowerShell safe list of the reference is not ported (this port targets Unix).
 *
 * Known limits, shared with the reference: a bare name is trusted to resolve through the user's
 * PATH (a PATH containing `.` defeats that), and only bash's default globbing is modelled (zsh
 * with `EXTENDED_GLOB` also expands `^`, `#` and `~`).
 */
import { parsePlainScript, shellScriptCommand, type PlainWord } from "./bash-commands.js";

/**
 * Whether running `argv` is known to have no side effects: either a safe plain command or a
 * shell script made only of safe plain commands. Never throws; anything it cannot analyse
 * (including a failure to load the bash grammar) is reported as not safe.
 */
export async function isKnownSafeCommand(argv: readonly string[], context: SafetyContext = NOT_SANDBOXED): Promise<boolean> {
  if (isKnownSafePlainCommand(argv, context)) return true;
  const invocation = shellScriptCommand(argv);
  if (invocation === null) return false;
  let commands: PlainWord[][] | null;
  try {
    commands = await parsePlainScript(invocation.script);
  } catch {
    return false;
  }
  return commands !== null && commands.length > 0 && commands.every((words) => isSafeWords(words, context));
}

/** Where the command will run, which some rules depend on. */
export interface SafetyContext {
  /** True when the command runs inside the sandbox (writes confined, network off). */
  sandboxed: boolean;
}

const NOT_SANDBOXED: SafetyContext = { sandboxed: false };

/** Whether a single command, run directly (no shell), is known to be safe. */
export function isKnownSafePlainCommand(argv: readonly string[], context: SafetyContext = NOT_SANDBOXED): boolean {
  return isSafeWords(
    argv.map((text) => ({ text, pattern: null })),
    context,
  );
}

/** Utilities that cannot write files or run other programs whatever their arguments. */
const ALWAYS_SAFE: ReadonlySet<string> = new Set([
  "cat",
  "cd",
  "cut",
  "echo",
  "expr",
  "false",
  "grep",
  "head",
  "id",
  "ls",
  "nl",
  "paste",
  "pwd",
  "rev",
  "seq",
  "stat",
  "tail",
  "tr",
  "true",
  "uname",
  "wc",
  "which",
  "whoami",
]);

/** Safe only on Linux; elsewhere these names are not standard tools. */
const LINUX_ONLY_SAFE: ReadonlySet<string> = new Set(["numfmt", "tac"]);

function isSafeWords(words: readonly PlainWord[], context: SafetyContext): boolean {
  const [program, ...args] = words;
  if (program === undefined || program.pattern !== null) return false;
  const name = program.text;
  if (name === "" || name.includes("/")) return false;
  if (ALWAYS_SAFE.has(name)) return true;
  if (LINUX_ONLY_SAFE.has(name)) return process.platform === "linux";
  switch (name) {
    case "uniq":
      return uniqIsReadOnly(args);
    case "base64":
      return base64IsReadOnly(args);
    case "find":
      return findIsReadOnly(args);
    case "rg":
      return ripgrepIsReadOnly(args);
    case "sed":
      return sedIsPrintOnly(args);
    case "git":
      return context.sandboxed && gitIsReadOnly(args);
    default:
      return false;
  }
}

/** A glob whose expansion could start with `-` and so be read as an option. */
function mayBeOption(word: PlainWord): boolean {
  return word.pattern?.mayBeOption ?? false;
}

// ---------------------------------------------------------------------------------------------
// uniq

/** Options taking a value: `-f N`, `-s N`, `-w N` and their long forms. */
const UNIQ_SHORT_WITH_VALUE = new Set(["f", "s", "w"]);
const UNIQ_LONG_WITH_VALUE = ["skip-fields", "skip-chars", "check-chars"];

/** `uniq [OPTION]... [INPUT [OUTPUT]]`: safe while there is no OUTPUT operand. */
function uniqIsReadOnly(args: readonly PlainWord[]): boolean {
  let operands = 0;
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as PlainWord;
    if (arg.pattern !== null) return false;
    const text = arg.text;
    if (optionsEnded || text === "-" || !text.startsWith("-")) {
      operands += 1;
    } else if (text === "--") {
      optionsEnded = true;
    } else if (text.startsWith("--")) {
      // GNU getopt accepts unambiguous prefixes, so `--skip-f 2` takes a value too.
      const name = text.slice(2);
      if (!name.includes("=") && UNIQ_LONG_WITH_VALUE.some((option) => option.startsWith(name))) i++;
    } else {
      const letters = text.slice(1);
      const valueAt = Array.from(letters).findIndex((letter) => UNIQ_SHORT_WITH_VALUE.has(letter));
      // A value letter at the end of the cluster takes the next argument.
      if (valueAt === letters.length - 1) i++;
    }
  }
  return operands <= 1;
}

// ---------------------------------------------------------------------------------------------
// base64

function base64IsReadOnly(args: readonly PlainWord[]): boolean {
  return !args.some((arg) => {
    if (mayBeOption(arg)) return true;
    const text = arg.text;
    if (text.startsWith("--")) {
      const name = text.slice(2).split("=")[0] ?? "";
      return name !== "" && "output".startsWith(name);
    }
    return text.startsWith("-") && text.slice(1).includes("o");
  });
}

// ---------------------------------------------------------------------------------------------
// find

const UNSAFE_FIND_OPTIONS: readonly string[] = [
  // Run arbitrary programs.
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  // Deletes what it matches.
  "-delete",
  // Write file names to a file.
  "-fls",
  "-fprint",
  "-fprint0",
  "-fprintf",
];

function findIsReadOnly(args: readonly PlainWord[]): boolean {
  return !args.some(
    (arg) =>
      UNSAFE_FIND_OPTIONS.includes(arg.text) ||
      (arg.pattern !== null && UNSAFE_FIND_OPTIONS.some((option) => arg.pattern?.regex.test(option))),
  );
}

// ---------------------------------------------------------------------------------------------
// ripgrep

/** Long options that run another program: a preprocessor, or a hostname helper. */
const UNSAFE_RG_LONG_WITH_VALUE = ["pre", "hostname-bin"];
/** Searching compressed files shells out to decompressors. */
const UNSAFE_RG_LONG_SWITCHES = ["search-zip"];
/** Short options whose value is glued to them or follows, ending a cluster such as `-nA3`. */
const RG_SHORT_WITH_VALUE = new Set(["A", "B", "C", "d", "E", "e", "f", "g", "j", "M", "m", "r", "T", "t"]);

function ripgrepIsReadOnly(args: readonly PlainWord[]): boolean {
  return !args.some((arg) => {
    if (mayBeOption(arg)) return true;
    const text = arg.text;
    if (text.startsWith("--")) {
      const name = text.slice(2).split("=")[0] ?? "";
      if (name === "") return false;
      // Exact names as in the reference, plus unambiguous-prefix spellings like `--pr`.
      return [...UNSAFE_RG_LONG_WITH_VALUE, ...UNSAFE_RG_LONG_SWITCHES].some((option) => option.startsWith(name));
    }
    if (text === "-z") return true;
    if (text.startsWith("-") && text.length > 1) {
      for (const letter of text.slice(1)) {
        if (letter === "z") return true;
        if (RG_SHORT_WITH_VALUE.has(letter)) break;
      }
    }
    return false;
  });
}

// ---------------------------------------------------------------------------------------------
// sed

/** `sed -n N[,M]p [FILE]`: print a line range and nothing else. */
function sedIsPrintOnly(args: readonly PlainWord[]): boolean {
  if (args.length < 2 || args.length > 3) return false;
  const [flag, script, file] = args as [PlainWord, PlainWord, PlainWord | undefined];
  if (flag.text !== "-n" || flag.pattern !== null) return false;
  if (script.pattern !== null || !/^([0-9]+,)?[0-9]+p$/.test(script.text)) return false;
  if (file !== undefined && (file.text.startsWith("-") || mayBeOption(file))) return false;
  return true;
}

const GIT_READ_ONLY_SUBCOMMANDS: ReadonlySet<string> = new Set(["status", "log", "diff", "show"]);
const GIT_BRANCH_LISTING_ARGS: ReadonlySet<string> = new Set([
  "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "-l", "--list", "--show-current", "--no-color", "--color",
]);

/** `git status|log|diff|show …` without `--output`, or `git branch` that only lists. */
function gitIsReadOnly(args: readonly PlainWord[]): boolean {
  const [subcommand, ...rest] = args;
  // A global option before the subcommand (-c, -C, --git-dir, --exec-path…) can change what runs.
  if (subcommand === undefined || subcommand.pattern !== null) return false;
  if (GIT_READ_ONLY_SUBCOMMANDS.has(subcommand.text)) {
    return rest.every((word) => !mayBeOption(word) && word.text !== "--output" && !word.text.startsWith("--output="));
  }
  if (subcommand.text === "branch") return rest.every((word) => word.pattern === null && GIT_BRANCH_LISTING_ARGS.has(word.text));
  return false;
}
