import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { editExternally, editorCommand, EditorError } from "./external-editor.js";

/** A real editor: a shell script that rewrites the file it is given. */
function scriptEditor(dir: string, body: string): string {
  const path = join(dir, "fake editor.sh");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function handover(): { calls: string[]; terminal: { suspend(): void; resume(): void } } {
  const calls: string[] = [];
  return { calls, terminal: { suspend: () => void calls.push("suspend"), resume: () => void calls.push("resume") } };
}

void test("VISUAL wins over EDITOR and is split into words", () => {
  assert.deepEqual(editorCommand({ VISUAL: "code --wait", EDITOR: "vim" }), ["code", "--wait"]);
  assert.deepEqual(editorCommand({ EDITOR: '"/opt/My Editor/edit" -w' }), ["/opt/My Editor/edit", "-w"]);
  assert.deepEqual(editorCommand({ VISUAL: "  ", EDITOR: "nano" }), ["nano"]);
  assert.equal(editorCommand({}), null);
  assert.throws(() => editorCommand({ EDITOR: 'vim "unclosed' }), /cannot read \$EDITOR/);
});

void test("the editor edits a temp file with the terminal handed over, and the file is removed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "editor-test-"));
  try {
    // Appends a line, the way an editor saving with a final newline would.
    const editor = scriptEditor(dir, 'printf "%s\\nsecond line\\n" "$(cat "$1")" > "$1"');
    const { calls, terminal } = handover();
    const env = { ...process.env, VISUAL: `"${editor}"`, EDITOR: "" };
    const tmp = join(dir, "tmp");
    mkdirSync(tmp);
    const edited = await editExternally("first line", { terminal, env, tmpDir: tmp });
    assert.equal(edited, "first line\nsecond line");
    assert.deepEqual(calls, ["suspend", "resume"]);
    assert.deepEqual(readdirSync(tmp), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test("clear errors: no editor, a missing one, a failing one; the terminal is always taken back", async () => {
  const dir = mkdtempSync(join(tmpdir(), "editor-test-"));
  try {
    const { calls, terminal } = handover();
    await assert.rejects(editExternally("x", { terminal, env: {} }), (err: Error) => err instanceof EditorError && /no editor set: export VISUAL or EDITOR/.test(err.message));
    assert.deepEqual(calls, []);
    await assert.rejects(editExternally("x", { terminal, env: { ...process.env, VISUAL: "no-such-editor-xyz" } }), /editor `no-such-editor-xyz` not found/);
    const failing = scriptEditor(dir, "exit 3");
    await assert.rejects(editExternally("x", { terminal, env: { ...process.env, VISUAL: `"${failing}"` } }), /exited with status 3; the prompt is unchanged/);
    assert.deepEqual(calls, ["suspend", "resume", "suspend", "resume"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
