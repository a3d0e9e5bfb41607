/**
 * `codex-ts completion SHELL`: each script, loaded into the real shell, completes subcommands,
 * options and an option's fixed values. bash is always there; zsh, fish and elvish are driven
 * when installed (the test says so when one is not).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeWorkspace, runCli } from "../support/cli.js";

const installed = (shell: string): boolean => spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;

async function script(shell: string): Promise<string> {
  const ws = makeWorkspace();
  const r = await runCli(["completion", shell], { cwd: ws.dir, home: ws.home });
  assert.equal(r.code, 0, r.stderr);
  const file = join(ws.dir, `completion.${shell}`);
  writeFileSync(file, r.stdout);
  return file;
}

function run(shell: string, args: string[]): string {
  const r = spawnSync(shell, args, { encoding: "utf8", timeout: 20_000 });
  assert.equal(r.status, 0, `${shell}: ${r.stderr}`);
  return r.stdout;
}

void test("completion without a shell is bash's, and an unknown shell is a usage error naming the shells", async () => {
  const ws = makeWorkspace();
  const plain = await runCli(["completion"], { cwd: ws.dir, home: ws.home });
  const bash = await runCli(["completion", "bash"], { cwd: ws.dir, home: ws.home });
  assert.equal(plain.stdout, bash.stdout);
  const bad = await runCli(["completion", "tcsh"], { cwd: ws.dir, home: ws.home });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /'tcsh' is invalid .*bash, zsh, fish, elvish, powershell/);
});

void test("bash: subcommands, nested subcommands after options, option names and fixed values", async () => {
  const file = await script("bash");
  const out = run("bash", [
    "-c",
    `source ${file}
t() { COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _codex_ts; echo "\${COMPREPLY[*]}"; }
t codex-ts fea
t codex-ts features ''
t codex-ts -c k=v exec resume --la
t codex-ts exec -s w
t codex-ts completion z`,
  ]);
  assert.deepEqual(out.trim().split("\n"), ["features", "list enable disable -h --help", "--last", "workspace-write", "zsh"]);
});

void test("zsh: the completion function offers the same, through _describe and compadd", { skip: installed("zsh") ? false : "zsh is not installed" }, async () => {
  const file = await script("zsh");
  // The completion system's functions are replaced by ones that print what they were given.
  const out = run("zsh", [
    "-f",
    "-c",
    `compdef() { :; }
_describe() { local -a arr; arr=("\${(@P)\${@[-1]}}"); print -r -- "\${(j: :)\${arr[@]%%:*}}"; }
compadd() { shift; print -r -- "$*"; }
_files() { print -r -- files; }
source ${file}
t() { words=("$@"); CURRENT=\${#words}; _codex_ts; }
t codex-ts features ''
t codex-ts exec -s ''
t codex-ts exec resume ''`,
  ]);
  const lines = out.trim().split("\n");
  assert.equal(lines[0], "list enable disable -h --help");
  assert.equal(lines[1], "read-only workspace-write danger-full-access");
  assert.match(lines[2] ?? "", /--last/);
  assert.equal(lines[3], "files", "resume takes a free argument (an id or a name), so files are offered too");
});

void test("fish: complete -C lists subcommands with descriptions and option values", { skip: installed("fish") ? false : "fish is not installed" }, async () => {
  const file = await script("fish");
  const out = run("fish", ["-c", `source ${file}; complete -C "codex-ts fea"; complete -C "codex-ts exec --sandbox "; complete -C "codex-ts mcp lo"`]);
  const names = out.trim().split("\n").map((l) => l.split("\t")[0]);
  assert.deepEqual(names, ["features", "danger-full-access", "read-only", "workspace-write", "login", "logout"]);
});

void test("elvish: the arg completer yields candidates and option values", { skip: installed("elvish") ? false : "elvish is not installed" }, async () => {
  const file = await script("elvish");
  // edit: exists only in an interactive shell: the same completer is bound to a plain variable.
  const text = (await import("node:fs")).readFileSync(file, "utf8")
    .replace("set edit:completion:arg-completer[codex-ts] =", "var completer =")
    .replace(/edit:complex-candidate (\$item\[0\]) &display=[^}]*/, "echo $1")
    .replace("edit:complete-filename $current", "echo files");
  writeFileSync(file, `${text}\n$completer codex-ts features ''\n$completer codex-ts exec -s ''\n`);
  const out = run("elvish", [file]);
  // Values (rather than bytes) print with a marker when the completer runs outside the editor.
  assert.deepEqual(out.trim().split("\n").map((l) => l.replace(/^▶ /, "")), ["list", "enable", "disable", "-h", "--help", "read-only", "workspace-write", "danger-full-access"]);
});

void test("powershell: the script registers a native completer with the command tree", async (t) => {
  const file = await script("powershell");
  if (!installed("pwsh")) {
    // Without PowerShell here, check the parts the completer reads are all present.
    const text = (await import("node:fs")).readFileSync(file, "utf8");
    assert.match(text, /Register-ArgumentCompleter -Native -CommandName 'codex-ts'/);
    assert.match(text, /'codex-ts exec,--sandbox' = @\('read-only', 'workspace-write', 'danger-full-access'\)/);
    assert.match(text, /'codex-ts,features' = 'codex-ts features'/);
    t.diagnostic("pwsh is not installed: the script was checked as text only");
    return;
  }
  const out = run("pwsh", ["-NoProfile", "-Command", `. ${file}; (TabExpansion2 -inputScript 'codex-ts features ' -cursorColumn 18).CompletionMatches.CompletionText`]);
  assert.match(out, /list/);
});
