import { test } from "node:test";
import assert from "node:assert/strict";
import { isKnownSafeCommand, isKnownSafePlainCommand } from "./known-safe.js";

interface Case {
  readonly argv: readonly string[];
  readonly safe: boolean;
}

const LINUX = process.platform === "linux";

/** `bash -lc SCRIPT`, the form the model uses for shell syntax. */
function sh(script: string): string[] {
  return ["bash", "-lc", script];
}

const safe = (...argv: string[]): Case => ({ argv, safe: true });
const unsafe = (...argv: string[]): Case => ({ argv, safe: false });
const safeScript = (script: string): Case => ({ argv: sh(script), safe: true });
const unsafeScript = (script: string): Case => ({ argv: sh(script), safe: false });

// ---------------------------------------------------------------------------------------------
// Hand-written core.

const HAND_WRITTEN: readonly Case[] = [
  // Plain commands that are always safe.
  safe("ls"),
  safe("ls", "-la"),
  safe("cat", "README.md"),
  safe("cd", "src"),
  safe("cut", "-d,", "-f1", "a.csv"),
  safe("echo", "hello"),
  safe("expr", "1", "+", "2"),
  safe("false"),
  safe("true"),
  safe("grep", "-rn", "TODO", "src"),
  safe("grep", "-R", "Cargo.toml", "-n"),
  safe("head", "-n", "5", "file"),
  safe("id"),
  safe("nl", "-nrz", "Cargo.toml"),
  safe("paste", "a", "b"),
  safe("pwd"),
  safe("rev", "file"),
  safe("seq", "1", "10"),
  safe("stat", "file"),
  safe("tail", "-f", "log"),
  safe("tr", "a-z", "A-Z"),
  safe("uname", "-a"),
  safe("wc", "-l", "file"),
  safe("which", "node"),
  safe("whoami"),
  { argv: ["numfmt", "1000"], safe: LINUX },
  { argv: ["tac", "Cargo.toml"], safe: LINUX },
  // uniq: read-only unless a second operand names an output file.
  safe("uniq"),
  safe("uniq", "-c", "file"),
  safe("uniq", "-f", "1", "file"),
  safe("uniq", "--skip-fields", "2", "file"),
  safe("uniq", "--skip-fields=2", "file"),
  safe("uniq", "-cf", "2", "file"),
  unsafe("uniq", "in", "out"),
  unsafe("uniq", "-f1", "in", "out"),
  unsafe("uniq", "-c", "in", "out"),
  unsafe("uniq", "--", "in", "out"),
  // base64: only output options are dangerous.
  safe("base64"),
  safe("base64", "file"),
  safe("base64", "-d", "file"),
  safe("base64", "--decode", "file"),
  safe("base64", "-w", "0", "file"),
  unsafe("base64", "-o", "out.bin"),
  unsafe("base64", "--output", "out.bin"),
  unsafe("base64", "--output=out.bin"),
  unsafe("base64", "-ob64.txt"),
  unsafe("base64", "-Do", "out.bin"),
  unsafe("base64", "--out=out.bin"),
  // find.
  safe("find", ".", "-name", "file.txt"),
  safe("find", ".", "-type", "f", "-print"),
  safe("find", "src", "-name", "*.ts", "-newer", "x"),
  unsafe("find", ".", "-name", "file.txt", "-exec", "rm", "{}", ";"),
  unsafe("find", ".", "-name", "*.py", "-execdir", "python3", "{}", ";"),
  unsafe("find", ".", "-name", "file.txt", "-ok", "rm", "{}", ";"),
  unsafe("find", ".", "-name", "*.py", "-okdir", "python3", "{}", ";"),
  unsafe("find", ".", "-delete", "-name", "file.txt"),
  unsafe("find", ".", "-fls", "/etc/passwd"),
  unsafe("find", ".", "-fprint", "/etc/passwd"),
  unsafe("find", ".", "-fprint0", "/etc/passwd"),
  unsafe("find", ".", "-fprintf", "/root/suid.txt", "%#m %u %p\n"),
  // ripgrep.
  safe("rg", "Cargo.toml", "-n"),
  safe("rg", "-n", "foo", "src"),
  safe("rg", "--pre-glob", "*.gz", "foo"),
  safe("rg", "-e", "zebra", "src"),
  safe("rg", "-gzip", "foo"),
  unsafe("rg", "--search-zip", "files"),
  unsafe("rg", "-z", "files"),
  unsafe("rg", "-nz", "files"),
  unsafe("rg", "--pre", "pwned", "files"),
  unsafe("rg", "--pre=pwned", "files"),
  unsafe("rg", "--hostname-bin", "pwned", "files"),
  unsafe("rg", "--hostname-bin=pwned", "files"),
  unsafe("rg", "--pr", "pwned", "files"),
  // sed: only `sed -n N[,M]p [FILE]`.
  safe("sed", "-n", "1,5p", "file.txt"),
  safe("sed", "-n", "10p", "file.txt"),
  safe("sed", "-n", "10p"),
  unsafe("sed", "-n", "xp", "file.txt"),
  unsafe("sed", "-i", "s/a/b/", "f"),
  unsafe("sed", "s/a/b/", "f"),
  unsafe("sed", "-n", "1,5p", "a", "b"),
  unsafe("sed", "-n", "1p", "-fevil.sed"),
  unsafe("sed", "-n", "1p", "-i"),
  unsafe("sed", "-n"),
  unsafe("sed"),
  // git is never auto-approved (repository config can run helpers).
  unsafe("git", "status"),
  unsafe("git", "log", "-1"),
  unsafe("git", "diff"),
  unsafe("git", "show", "HEAD"),
  unsafe("git", "branch"),
  unsafe("git", "branch", "--show-current"),
  unsafe("git", "branch", "-d", "feature"),
  unsafe("git", "-c", "core.pager=evil", "log"),
  unsafe("git", "-ccore.pager=cat", "status"),
  unsafe("git", "checkout", "status"),
  unsafe("git", "push"),
  unsafe("git", "fetch"),
  // Path-qualified programs may be impostors.
  unsafe("./cat", "Cargo.toml"),
  unsafe("../cat", "Cargo.toml"),
  unsafe("/tmp/workspace/cat", "Cargo.toml"),
  unsafe("/bin/ls"),
  unsafe("bin/grep", "x"),
  // Unknown or side-effecting programs.
  unsafe(),
  unsafe(""),
  unsafe("foo"),
  unsafe("cargo", "check"),
  unsafe("rm", "-rf", "/"),
  unsafe("mv", "a", "b"),
  unsafe("cp", "a", "b"),
  unsafe("python", "-c", "print(1)"),
  unsafe("node", "x.js"),
  unsafe("tee", "out"),
  unsafe("xargs", "cat"),
  unsafe("env", "ls"),
  unsafe("sudo", "ls"),
  unsafe("LS"),
  unsafe("ls ", "-l"),

  // Shell scripts that are safe.
  safeScript("ls"),
  safeScript("ls -1"),
  safeScript("ls | wc -l"),
  safeScript("ls && pwd"),
  safeScript("echo 'hi' ; ls"),
  safeScript('grep -R "Cargo.toml" -n'),
  safeScript('grep -R "Cargo.toml" -n || true'),
  safeScript("sed -n 1,5p file.txt"),
  safeScript("sed -n '1,5p' file.txt"),
  safeScript("sed -n 1p src/*.ts"),
  safeScript("find . -name file.txt"),
  safeScript("find . -name '*.ts'"),
  safeScript("find . -name *.ts"),
  safeScript("cat src/*.ts"),
  safeScript("cat *"),
  safeScript("rg foo src/*"),
  safeScript("ls\npwd"),
  safeScript("ls;"),
  safeScript("cat a.txt | head -n 5 | wc -l"),
  safeScript('rg -n "foo" -g"*.py"'),
  safeScript("echo '$HOME'"),
  safeScript('echo "a\\$b"'),
  safeScript("cd src && ls"),
  safeScript("echo hi \\\n  there"),
  safeScript("uniq -c file"),
  safe("zsh", "-lc", "ls"),
  safe("zsh", "-c", "ls && pwd"),
  safe("sh", "-c", "pwd"),
  safe("/bin/bash", "-c", "ls"),
  safe("/usr/bin/zsh", "-lc", "ls"),
  { argv: sh("tac file | nl"), safe: LINUX },

  // Shell scripts that are not.
  unsafeScript("ls && rm -rf /"),
  unsafeScript("ls || rm x"),
  unsafeScript("ls | xargs rm"),
  unsafeScript("echo hi | tee out"),
  unsafeScript("echo hi | sh"),
  unsafeScript("ls\nrm x"),
  unsafeScript("ls > out.txt"),
  unsafeScript("ls 2>/dev/null"),
  unsafeScript("cat < f"),
  unsafeScript("cat <<EOF\nx\nEOF"),
  unsafeScript("cat <<< hi"),
  unsafeScript("echo $(rm x)"),
  unsafeScript("echo `rm x`"),
  unsafeScript('echo "$HOME"'),
  unsafeScript("echo $HOME"),
  unsafeScript("echo ${HOME}"),
  unsafeScript("echo $((1+2))"),
  unsafeScript("(ls)"),
  unsafeScript("ls || (pwd && echo hi)"),
  unsafeScript("{ ls; }"),
  unsafeScript("ls &"),
  unsafeScript("ls & pwd"),
  unsafeScript("FOO=1 ls"),
  unsafeScript("if true; then ls; fi"),
  unsafeScript("for f in a; do cat f; done"),
  unsafeScript("f() { ls; }"),
  unsafeScript("echo 'unterminated"),
  unsafeScript('echo "unterminated'),
  unsafeScript("ls &&"),
  unsafeScript("ls ;; pwd"),
  unsafeScript("ls |& wc"),
  unsafeScript("! ls"),
  unsafeScript("cat <(ls)"),
  unsafeScript("ls -la # note"),
  unsafeScript(""),
  unsafeScript("   "),
  unsafeScript("'git status'"),
  unsafeScript("git status"),
  unsafeScript("git -C . branch -d feature"),
  unsafeScript("git --git-dir=.evil-git diff HEAD~1..HEAD"),
  unsafeScript("find . -name file.txt -delete"),
  unsafeScript("find . -\\exec rm {} \\;"),
  unsafeScript("find . -e{xec,} rm {} \\;"),
  unsafeScript("find *"),
  unsafeScript("find . -name foo -de*"),
  unsafeScript("rg foo *"),
  unsafeScript("rg foo -*"),
  unsafeScript("sed -n 1p *"),
  unsafeScript("base64 *"),
  unsafeScript("uniq *.txt"),
  unsafeScript("uniq a b"),
  unsafeScript("./cat Cargo.toml"),
  unsafeScript("bash -lc ls"),
  unsafeScript("time ls"),
  unsafeScript("command ls"),
  unsafeScript("l?"),
  unsafe("bash", "-lc", "git", "status"),
  unsafe("bash", "-x", "-lc", "ls"),
  unsafe("bash", "-lc"),
  unsafe("bash", "ls"),
  unsafe(".poc/bash", "-lc", "ls"),
  unsafe("/tmp/bash", "-lc", "ls"),
  unsafe("dash", "-c", "ls"),
  unsafe("fish", "-c", "ls"),
];

// ---------------------------------------------------------------------------------------------
// Generated cases.

const ALWAYS_SAFE = [
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
];

const HARMLESS_ARGS: readonly (readonly string[])[] = [[], ["--help"], ["file.txt"], ["-n", "5", "a b"]];

const UNSAFE_PROGRAMS = [
  "rm",
  "mv",
  "cp",
  "ln",
  "python",
  "python3",
  "node",
  "npm",
  "npx",
  "curl",
  "wget",
  "chmod",
  "chown",
  "dd",
  "tee",
  "touch",
  "mkdir",
  "rmdir",
  "kill",
  "sudo",
  "ssh",
  "make",
  "cargo",
  "go",
  "env",
  "xargs",
  "perl",
  "ruby",
  "awk",
  "sort",
  "git",
  "bash",
  "sh",
  "zsh",
  "open",
  "truncate",
];

const FIND_UNSAFE = ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"];

const RG_UNSAFE: readonly (readonly string[])[] = [
  ["--pre", "x"],
  ["--pre=x"],
  ["--hostname-bin", "x"],
  ["--hostname-bin=x"],
  ["--search-zip"],
  ["-z"],
];

const GIT_SUBCOMMANDS = ["status", "log", "diff", "show", "branch"];
const GIT_GLOBALS: readonly (readonly string[])[] = [
  ["-c", "core.pager=cat"],
  ["--config-env", "core.pager=PAGER"],
  ["--git-dir", ".evil-git"],
  ["--work-tree", "."],
  ["--exec-path", ".git/helpers"],
  ["--namespace", "x"],
  ["--super-prefix", "x/"],
  ["-C", "."],
  ["-p"],
  ["--paginate"],
];

const SED_VALID = ["1p", "10p", "1,5p", "100,200p"];
const SED_INVALID = ["p", "1", "1,p", ",1p", "1,2,3p", "1pp", "$p", "1~2p", "/x/p", "1d", "1,5p;w x"];

/** Constructs that make any script non-plain, each wrapped around a safe `ls`. */
const NON_PLAIN = [
  "ls > f",
  "ls >> f",
  "ls 2> f",
  "ls &> f",
  "ls < f",
  "ls <<< x",
  "ls $(pwd)",
  "ls `pwd`",
  "ls $X",
  "ls ${X}",
  "ls $((1))",
  "ls <(pwd)",
  "ls >(cat)",
  "(ls)",
  "{ ls; }",
  "ls &",
  "X=1 ls",
  "ls $'x'",
  'ls "$X"',
  "ls {a,b}",
  "ls {1..2}",
  "! ls",
  "ls |& cat",
  "ls ;; ls",
  "ls # x",
  "if ls; then ls; fi",
  "until ls; do ls; done",
  "select x in a; do ls; done",
  "[[ -f x ]] && ls",
  "[ -f x ] && ls",
  "ls 'x",
  'ls "x',
  "ls (",
  "ls )",
  "coproc ls",
];

const SEPARATORS = [" && ", " || ", " ; ", " | ", "\n"];

function generated(): Case[] {
  const cases: Case[] = [];
  for (const program of ALWAYS_SAFE) {
    for (const args of HARMLESS_ARGS) cases.push(safe(program, ...args));
    cases.push(safeScript(`${program} file.txt`));
    cases.push(safeScript(`${program} 'a b' | wc -l`));
    cases.push(unsafe(`/usr/bin/${program}`, "file.txt"));
    cases.push(unsafeScript(`./${program} file.txt`));
    cases.push(unsafeScript(`${program} file.txt > out`));
  }
  for (const program of UNSAFE_PROGRAMS) {
    cases.push(unsafe(program, "x"));
    cases.push(unsafeScript(`${program} x`));
    cases.push(unsafeScript(`ls && ${program} x`));
  }
  for (const option of FIND_UNSAFE) {
    cases.push(unsafe("find", ".", option, "x"));
    cases.push(unsafeScript(`find . ${option} x`));
    cases.push(unsafeScript(`find . '${option}' x`));
    cases.push(unsafeScript(`find . -\\${option.slice(1)} x`));
    cases.push(unsafeScript(`find . ${option.slice(0, 3)}* x`));
  }
  for (const args of RG_UNSAFE) {
    cases.push(unsafe("rg", ...args, "foo"));
    cases.push(unsafeScript(`rg ${args.join(" ")} foo`));
  }
  for (const subcommand of GIT_SUBCOMMANDS) {
    cases.push(unsafe("git", subcommand));
    cases.push(unsafeScript(`git ${subcommand}`));
    for (const global of GIT_GLOBALS) cases.push(unsafe("git", ...global, subcommand));
  }
  for (const range of SED_VALID) {
    cases.push(safe("sed", "-n", range));
    cases.push(safe("sed", "-n", range, "f.txt"));
    cases.push(safeScript(`sed -n ${range} f.txt`));
  }
  for (const range of SED_INVALID) {
    cases.push(unsafe("sed", "-n", range, "f.txt"));
  }
  for (const script of NON_PLAIN) cases.push(unsafeScript(script));
  for (const separator of SEPARATORS) {
    cases.push(safeScript(`ls${separator}wc -l`));
    cases.push(safeScript(`cat a${separator}grep -n x${separator}head -n 3`));
    cases.push(unsafeScript(`ls${separator}rm -rf x`));
    cases.push(unsafeScript(`rm -rf x${separator}ls`));
  }
  return cases;
}

const CASES: readonly Case[] = [...HAND_WRITTEN, ...generated()];

void test("the case table is large enough and has no contradictions", () => {
  assert.ok(HAND_WRITTEN.length >= 80, `hand-written core has ${HAND_WRITTEN.length} cases`);
  assert.ok(CASES.length >= 300, `table has ${CASES.length} cases`);
  const seen = new Map<string, boolean>();
  for (const { argv, safe: expected } of CASES) {
    const key = JSON.stringify(argv);
    const previous = seen.get(key);
    assert.ok(previous === undefined || previous === expected, `conflicting expectations for ${key}`);
    seen.set(key, expected);
  }
});

void test("isKnownSafeCommand classifies the case table", async () => {
  const failures: string[] = [];
  for (const { argv, safe: expected } of CASES) {
    const actual = await isKnownSafeCommand(argv);
    if (actual !== expected) failures.push(`${JSON.stringify(argv)}: expected ${expected ? "safe" : "unsafe"}`);
  }
  console.log(`known-safe: checked ${CASES.length} cases (${HAND_WRITTEN.length} hand-written)`);
  assert.deepEqual(failures, []);
});

void test("isKnownSafePlainCommand agrees with isKnownSafeCommand on non-shell argv", async () => {
  let checked = 0;
  for (const { argv } of CASES) {
    if (argv[1] === "-lc" || argv[1] === "-c") continue;
    checked += 1;
    assert.equal(isKnownSafePlainCommand(argv), await isKnownSafeCommand(argv), JSON.stringify(argv));
  }
  assert.ok(checked > 100);
});

void test("isKnownSafePlainCommand does not look inside shell scripts", () => {
  assert.equal(isKnownSafePlainCommand(sh("ls")), false);
  assert.equal(isKnownSafePlainCommand(["ls"]), true);
});

void test("read-only git is safe only inside the sandbox", async () => {
  const sandboxed = { sandboxed: true };
  const cases: Array<[string[], boolean]> = [
    [["git", "status"], true],
    [["git", "log", "--oneline", "-5"], true],
    [["git", "diff", "HEAD~1"], true],
    [["git", "show", "HEAD:README.md"], true],
    [["git", "branch"], true],
    [["git", "branch", "-a", "-v"], true],
    [["git", "branch", "-D", "main"], false],
    [["git", "branch", "new-name"], false],
    [["git", "log", "--output=/tmp/x"], false],
    [["git", "diff", "--output", "x"], false],
    [["git", "-c", "core.pager=sh", "log"], false],
    [["git", "-C", "/elsewhere", "status"], false],
    [["git", "push"], false],
    [["git", "checkout", "."], false],
    [["bash", "-lc", "git status && git diff"], true],
    [["bash", "-lc", "git log | head -5"], true],
  ];
  for (const [argv, expected] of cases) {
    assert.equal(await isKnownSafeCommand(argv, sandboxed), expected, argv.join(" "));
    assert.equal(await isKnownSafeCommand(argv), false, `${argv.join(" ")} unsandboxed`);
  }
});
