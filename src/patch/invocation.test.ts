import { test } from "node:test";
import assert from "node:assert/strict";
import { bashParserLoads } from "../shell/bash-parser.js";
import { extractApplyPatchInvocation, shellScriptOf } from "./invocation.js";

const PATCH = "*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch";

function heredoc(prefix: string, delimiter = "'EOF'", closer = "EOF"): string {
  return `${prefix}apply_patch <<${delimiter}\n${PATCH}\n${closer}\n`;
}

async function extract(argv: readonly string[]): Promise<{ body: string; workdir: string | null } | null> {
  return extractApplyPatchInvocation(argv);
}

async function bashScript(script: string): Promise<{ body: string; workdir: string | null } | null> {
  return extract(["bash", "-lc", script]);
}

// Runs first, before any test has loaded the grammar.
void test("direct argv and ordinary commands never load the parser", async () => {
  assert.deepEqual(await extract(["apply_patch", PATCH]), { body: PATCH, workdir: null });
  assert.deepEqual(await extract(["applypatch", `${PATCH}\n`]), { body: `${PATCH}\n`, workdir: null });
  assert.equal(await bashScript("ls -la"), null);
  assert.equal(await extract(["ls", "-la"]), null);
  assert.equal(await extract(["python", "-c", "print(1)"]), null);
  assert.equal(bashParserLoads(), 0);
});

void test("direct argv needs exactly the program and the patch", async () => {
  assert.equal(await extract(["apply_patch"]), null);
  assert.equal(await extract(["apply_patch", PATCH, "extra"]), null);
  assert.equal(await extract(["/usr/bin/apply_patch", PATCH]), null);
});

void test("recognises a heredoc under each supported shell and flag", async () => {
  const script = heredoc("");
  const argvs: string[][] = [
    ["bash", "-lc", script],
    ["bash", "-c", script],
    ["/bin/bash", "-lc", script],
    ["zsh", "-lc", script],
    ["/bin/sh", "-c", script],
    ["bash.exe", "-c", script],
    ["powershell", "-Command", script],
    ["powershell.exe", "-command", script],
    ["pwsh", "-COMMAND", script],
    ["powershell", "-NoProfile", "-Command", script],
    ["pwsh", "-noprofile", "-command", script],
    ["cmd", "/c", script],
    ["C:\\Windows\\System32\\CMD.EXE", "/C", script],
  ];
  for (const argv of argvs) {
    assert.deepEqual(await extract(argv), { body: PATCH, workdir: null }, argv.slice(0, -1).join(" "));
  }
});

void test("rejects unsupported shells and flags", async () => {
  const script = heredoc("");
  const argvs: string[][] = [
    ["bash", "-LC", script],
    ["bash", "-l", script],
    ["fish", "-c", script],
    ["cmd", "/k", script],
    ["powershell", "-c", script],
    ["bash", "-NoProfile", "-Command", script],
    ["pwsh", "-NoLogo", "-Command", script],
    ["python3", "-c", script],
  ];
  for (const argv of argvs) {
    assert.equal(await extract(argv), null, argv.slice(0, -1).join(" "));
  }
});

void test("accepts any heredoc delimiter and quoting", async () => {
  assert.deepEqual(await bashScript(heredoc("", "EOF")), { body: PATCH, workdir: null });
  assert.deepEqual(await bashScript(heredoc("", "'PATCH'", "PATCH")), { body: PATCH, workdir: null });
  assert.deepEqual(await bashScript(heredoc("", '"EOF"')), { body: PATCH, workdir: null });
  assert.deepEqual(await bashScript(heredoc("", "X", "X")), { body: PATCH, workdir: null });
  assert.deepEqual(await bashScript(`applypatch <<'EOF'\n${PATCH}\nEOF`), { body: PATCH, workdir: null });
});

void test("trims trailing newlines but keeps other trailing whitespace", async () => {
  const script = `apply_patch <<'EOF'\n${PATCH} \n\n\nEOF\n`;
  assert.deepEqual(await bashScript(script), { body: `${PATCH} `, workdir: null });
});

void test("leading blank lines and indentation are not part of the body (as in the reference)", async () => {
  const script = `apply_patch <<'EOF'\n\n  ${PATCH}\nEOF\n`;
  assert.deepEqual(await bashScript(script), { body: PATCH, workdir: null });
});

void test("returns the cd directory as written", async () => {
  assert.deepEqual(await bashScript(heredoc("cd foo && ")), { body: PATCH, workdir: "foo" });
  assert.deepEqual(await bashScript(heredoc("cd 'foo bar' && ")), { body: PATCH, workdir: "foo bar" });
  assert.deepEqual(await bashScript(heredoc('cd "foo bar" && ')), { body: PATCH, workdir: "foo bar" });
  assert.deepEqual(await bashScript(heredoc("cd ../x/y && ")), { body: PATCH, workdir: "../x/y" });
  assert.deepEqual(await bashScript(`cd ~/src && applypatch <<EOF\n${PATCH}\nEOF`), { body: PATCH, workdir: "~/src" });
});

void test("rejects scripts that do more than apply the patch", async () => {
  const scripts = [
    heredoc("cd foo; "),
    heredoc("cd foo || "),
    heredoc("cd foo | "),
    heredoc("cd foo && cd bar && "),
    heredoc("echo x; cd bar && "),
    heredoc("cd foo bar && "),
    heredoc("cd && "),
    heredoc("ls foo && "),
    heredoc('cd "$HOME/x" && '),
    heredoc("FOO=1 "),
    `cd bar && apply_patch <<'EOF' && echo done\n${PATCH}\nEOF\n`,
    `apply_patch foo <<'EOF'\n${PATCH}\nEOF\n`,
    `cd bar && apply_patch foo <<'EOF'\n${PATCH}\nEOF\n`,
    `apply_patch <<'EOF' | cat\n${PATCH}\nEOF\n`,
    `apply_patch <<'EOF' > out.txt\n${PATCH}\nEOF\n`,
    `${heredoc("")}echo done\n`,
    `# apply the patch\n${heredoc("")}`,
    `apply_patch < patch.diff`,
    `apply_patch <<< "${PATCH}"`,
    `apply_patch`,
    `echo apply_patch`,
    `"apply_patch" <<'EOF'\n${PATCH}\nEOF\n`,
    `not_apply_patch <<'EOF'\n${PATCH}\nEOF\n`,
  ];
  for (const script of scripts) {
    assert.equal(await bashScript(script), null, script);
  }
});

void test("garbage and unterminated scripts are not invocations", async () => {
  assert.equal(await bashScript("apply_patch <<'EOF'\n*** Begin Patch\n"), null);
  assert.equal(await bashScript("apply_patch ((( <<"), null);
  assert.equal(await bashScript("}{ apply_patch ) if fi"), null);
});

void test("shellScriptOf returns the script of any shell call", () => {
  assert.equal(shellScriptOf(["bash", "-lc", "ls -la"]), "ls -la");
  assert.equal(shellScriptOf(["/usr/bin/zsh", "-c", "echo hi"]), "echo hi");
  assert.equal(shellScriptOf(["pwsh", "-NoProfile", "-Command", "dir"]), "dir");
  assert.equal(shellScriptOf(["cmd", "/c", "dir"]), "dir");
  assert.equal(shellScriptOf(["node", "-e", "1"]), null);
  assert.equal(shellScriptOf(["bash", "-lc"]), null);
  assert.equal(shellScriptOf(["bash", "-x", "-lc", "ls"]), null);
  assert.equal(shellScriptOf([]), null);
});
