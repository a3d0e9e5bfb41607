import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePlainCommands, parsePlainScript, shellScriptCommand } from "./bash-commands.js";

/** [script, expected commands or null when the script is not plain]. */
const PARSE_CASES: ReadonlyArray<readonly [string, string[][] | null]> = [
  // Accepted shapes.
  ["ls -1", [["ls", "-1"]]],
  ["ls && pwd; echo 'hi there' | wc -l", [["ls"], ["pwd"], ["echo", "hi there"], ["wc", "-l"]]],
  ["ls || pwd", [["ls"], ["pwd"]]],
  ["ls;", [["ls"]]],
  ["ls\npwd", [["ls"], ["pwd"]]],
  ["ls &&\npwd", [["ls"], ["pwd"]]],
  ["cat a | head -n 5 | wc -l", [["cat", "a"], ["head", "-n", "5"], ["wc", "-l"]]],
  ['echo "hello world"', [["echo", "hello world"]]],
  ["echo 'hi there'", [["echo", "hi there"]]],
  ['git commit -m "line1\nline2"', [["git", "commit", "-m", "line1\nline2"]]],
  [`echo "/usr"'/'"local"/bin`, [["echo", "/usr/local/bin"]]],
  [`echo '/usr'"/"'local'/bin`, [["echo", "/usr/local/bin"]]],
  ["echo 123 456 -1", [["echo", "123", "456", "-1"]]],
  ['rg -n "foo" -g"*.py"', [["rg", "-n", "foo", "-g*.py"]]],
  ["grep -n 'pattern' -g'*.txt'", [["grep", "-n", "pattern", "-g*.txt"]]],
  ['echo "" x', [["echo", "", "x"]]],
  ["echo ''", [["echo", ""]]],
  ["echo 'é😀' x", [["echo", "é😀", "x"]]],
  ["echo {} a{2}", [["echo", "{}", "a{2}"]]],
  ["echo ~/x a=b !x %", [["echo", "~/x", "a=b", "!x", "%"]]],
  ["ls -- -x", [["ls", "--", "-x"]]],
  ["", []],
  ["   \n  ", []],
  // Quote removal and escapes, checked against bash's own behaviour.
  ["echo x\\ y", [["echo", "x y"]]],
  ['echo "a\\"b"', [["echo", 'a"b']]],
  ['echo "a\\\\b"', [["echo", "a\\b"]]],
  ['echo "a\\b"', [["echo", "a\\b"]]],
  ["echo 'a\\b'", [["echo", "a\\b"]]],
  ['echo "\\$HOME"', [["echo", "$HOME"]]],
  ["echo \\$HOME", [["echo", "$HOME"]]],
  ["echo '$HOME'", [["echo", "$HOME"]]],
  ["echo \\'", [["echo", "'"]]],
  ["find . -\\exec rm {} \\;", [["find", ".", "-exec", "rm", "{}", ";"]]],
  ["\\ls", [["ls"]]],
  ["ls \\\n  -la", [["ls", "-la"]]],
  ["ls && \\\npwd", [["ls"], ["pwd"]]],
  ['echo "a\\\nb"', [["echo", "ab"]]],
  // Refused: expansions and substitutions.
  ['echo "hi ${USER}"', null],
  ['echo "$HOME"', null],
  ["echo $HOME", null],
  ["echo ${HOME}", null],
  ["echo $(pwd)", null],
  ["echo `pwd`", null],
  ['echo "x`pwd`"', null],
  ["echo $((1+2))", null],
  ["echo $'a\\nb'", null],
  ['echo $"x"', null],
  ['echo "a$"', null],
  ["echo a$", null],
  ['echo "a\\\\$HOME"', null],
  ['rg -g"$VAR" pattern', null],
  ['rg -g"${VAR}" pattern', null],
  ['rg -g"$(pwd)" pattern', null],
  ["cat <(ls)", null],
  ["echo -e{xec,}", null],
  ["echo {1..3}", null],
  ["echo a{b,c}d", null],
  // Refused: redirections.
  ["ls > out.txt", null],
  ["ls >> out.txt", null],
  ["ls 2>/dev/null", null],
  ["ls >&2", null],
  ["cat < in.txt", null],
  ["cat <<< hi", null],
  ["cat <<EOF\nhi\nEOF", null],
  // Refused: structure.
  ["(ls)", null],
  ["ls || (pwd && echo hi)", null],
  ["{ ls; }", null],
  ["ls &", null],
  ["echo hi & echo bye", null],
  ["ls |& wc", null],
  ["! ls", null],
  ["FOO=bar ls", null],
  ["a=1", null],
  ["if true; then ls; fi", null],
  ["for f in a b; do cat f; done", null],
  ["while true; do ls; done", null],
  ["case x in x) ls;; esac", null],
  ["f() { ls; }", null],
  ["ls # comment", null],
  ["'ls' -la", null],
  ['"ls"', null],
  ['l"s" -a', null],
  // Refused: syntax errors and empty command positions.
  ["ls &&", null],
  ["&& ls", null],
  ["ls ;; pwd", null],
  ["ls | | wc", null],
  ["ls |", null],
  ["ls &&& pwd", null],
  ["ls\n; pwd", null],
  ["ls\n&& pwd", null],
  ["echo 'unterminated", null],
  ['echo "unterminated', null],
  ["echo a\\", null],
  // A continuation glues words together in bash; the grammar would split them.
  ["echo a\\\nb", null],
  ["find . -del\\\nete", null],
  ["l\\\ns", null],
];

for (const [script, expected] of PARSE_CASES) {
  void test(`parsePlainCommands(${JSON.stringify(script)})`, async () => {
    assert.deepEqual(await parsePlainCommands(script), expected);
  });
}

const bash = spawnSync("bash", ["--version"]).status === 0;

/**
 * Runs each accepted script under real bash with every command replaced by a function that
 * reports its argv, in an empty directory so globs stay literal, and compares with the parse.
 */
void test("accepted scripts give the argv bash itself passes", { skip: !bash && "bash not installed" }, () => {
  const dir = mkdtempSync(join(tmpdir(), "plain-commands-"));
  try {
    let compared = 0;
    for (const [script, expected] of PARSE_CASES) {
      if (expected === null || expected.length === 0 || expected.flat().some((word) => word.startsWith("~"))) continue;
      const names = new Set(expected.map(([name]) => name ?? ""));
      const functions = [...names].map((name) => `${name}() { printf '%s\\0' "$FUNCNAME" "$@" $'\\001' >&2; }`);
      const result = spawnSync("bash", ["--norc", "--noprofile", "-c", `${functions.join("\n")}\n${script}`], {
        cwd: dir,
        encoding: "utf8",
      });
      const seen = result.stderr
        .split("\u0001\u0000")
        .filter((record) => record !== "")
        .map((record) => JSON.stringify(record.split("\u0000").slice(0, -1)));
      const wanted = expected.map((words) => JSON.stringify(words));
      // Pipeline members run concurrently, so compare without order; `||` may skip commands.
      for (const record of seen) assert.ok(wanted.includes(record), `${JSON.stringify(script)}: bash ran ${record}`);
      assert.ok(seen.length > 0, `${JSON.stringify(script)}: nothing ran`);
      compared += 1;
    }
    assert.ok(compared > 30, `compared ${compared} scripts`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test("glob words carry a pattern that over-approximates their expansion", async () => {
  const commands = await parsePlainScript("cat *.ts src/* '*' \\* [ab]x a[ -* \"-\"?");
  assert.ok(commands !== null);
  const [words] = commands;
  assert.ok(words !== undefined);
  const [, star, underSrc, quoted, escaped, bracket, unclosed, dash, quotedDash] = words;
  assert.equal(star?.text, "*.ts");
  assert.equal(star?.pattern?.regex.test("a.ts"), true);
  assert.equal(star?.pattern?.regex.test("-delete"), false);
  assert.equal(star?.pattern?.mayBeOption, true);
  assert.equal(underSrc?.pattern?.regex.test("src/a.ts"), true);
  assert.equal(underSrc?.pattern?.mayBeOption, false);
  assert.equal(quoted?.text, "*");
  assert.equal(quoted?.pattern, null);
  assert.equal(escaped?.text, "*");
  assert.equal(escaped?.pattern, null);
  assert.equal(bracket?.pattern?.regex.test("ax"), true);
  assert.equal(bracket?.pattern?.mayBeOption, true);
  assert.equal(unclosed?.pattern, null);
  assert.equal(dash?.pattern?.regex.test("-delete"), true);
  assert.equal(dash?.pattern?.mayBeOption, true);
  assert.equal(quotedDash?.pattern?.regex.test("-z"), true);
  assert.equal(quotedDash?.pattern?.mayBeOption, true);
});

void test("plain words have no pattern", async () => {
  const commands = await parsePlainScript("ls -la 'a b' \"c\"");
  assert.deepEqual(
    commands?.[0]?.map((word) => word.pattern),
    [null, null, null, null],
  );
});

const SHELL_CASES: ReadonlyArray<readonly [string[], { shell: string; script: string } | null]> = [
  [["bash", "-lc", "ls"], { shell: "bash", script: "ls" }],
  [["bash", "-c", "ls"], { shell: "bash", script: "ls" }],
  [["zsh", "-lc", "ls"], { shell: "zsh", script: "ls" }],
  [["sh", "-c", "ls"], { shell: "sh", script: "ls" }],
  [["/bin/bash", "-lc", "ls"], { shell: "/bin/bash", script: "ls" }],
  [["/usr/bin/bash", "-c", "ls"], { shell: "/usr/bin/bash", script: "ls" }],
  [["/bin/zsh", "-lc", "ls"], { shell: "/bin/zsh", script: "ls" }],
  [["/opt/homebrew/bin/zsh", "-lc", "ls"], { shell: "/opt/homebrew/bin/zsh", script: "ls" }],
  [["/bin/sh", "-c", "ls"], { shell: "/bin/sh", script: "ls" }],
  [["bash", "-lc", ""], { shell: "bash", script: "" }],
  [[".poc/bash", "-lc", "ls"], null],
  [["/tmp/bash", "-lc", "ls"], null],
  [["./bash", "-lc", "ls"], null],
  [["bash.evil", "-lc", "ls"], null],
  [["dash", "-c", "ls"], null],
  [["fish", "-c", "ls"], null],
  [["pwsh", "-Command", "ls"], null],
  [["bash", "-lc"], null],
  [["bash", "-lc", "git", "status"], null],
  [["bash", "-x", "ls"], null],
  [["bash", "-l", "ls"], null],
  [["bash", "ls"], null],
  [["ls"], null],
  [[], null],
];

for (const [argv, expected] of SHELL_CASES) {
  void test(`shellScriptCommand(${JSON.stringify(argv)})`, () => {
    assert.deepEqual(shellScriptCommand(argv), expected);
  });
}
