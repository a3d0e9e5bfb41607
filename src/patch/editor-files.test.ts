import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePatch } from "./parser.js";
import { pathsWrittenBy, planPatch } from "./plan.js";
import { commitPlanThroughEditor, readThroughEditor } from "./editor-files.js";
import type { WriteScope } from "../util/write-scope.js";

function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-editor-files-")));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "a.txt"), "one\n");
  return dir;
}

const UPDATE_AND_ADD = "*** Begin Patch\n*** Update File: src/a.txt\n@@\n-one\n+two\n*** Add File: src/new.txt\n+fresh\n*** Delete File: src/gone.txt\n*** End Patch\n";

/** Writes may land in `dir` only. */
function scopeOf(dir: string): WriteScope {
  return { roots: [dir], protectedPaths: [join(dir, ".git")], approved: [] };
}

void test("a link swapped into a patched path after the check cannot carry an editor write out of the scope", async () => {
  const dir = workspace();
  writeFileSync(join(dir, "src", "gone.txt"), "bye\n");
  const parsed = parsePatch(UPDATE_AND_ADD);
  const plan = await planPatch(parsed, dir);
  // While the user was deciding, src became a link to a folder outside the workspace.
  const outside = mkdtempSync(join(tmpdir(), "codex-ts-outside-"));
  writeFileSync(join(outside, "a.txt"), "one\n");
  writeFileSync(join(outside, "gone.txt"), "bye\n");
  renameSync(join(dir, "src"), join(dir, "src-moved"));
  symlinkSync(outside, join(dir, "src"));
  const writes: string[] = [];
  await assert.rejects(
    commitPlanThroughEditor(plan, { writeTextFile: (path) => Promise.resolve(void writes.push(path)) }, scopeOf(dir)),
    /Failed to write file .*a\.txt: the path leads to .*codex-ts-outside-.*a\.txt, outside the folders this session may write to/,
  );
  assert.deepEqual(writes, []);
  assert.equal(readFileSync(join(outside, "a.txt"), "utf8"), "one\n");
  assert.equal(existsSync(join(outside, "new.txt")), false);
  assert.equal(existsSync(join(outside, "gone.txt")), true);
});

void test("a failure after some steps undoes them all: editor rewrites get their text back, created files are removed", async () => {
  const dir = workspace();
  writeFileSync(join(dir, "src", "gone.txt"), "bye\n");
  const parsed = parsePatch(UPDATE_AND_ADD);
  const written = pathsWrittenBy(parsed, dir);
  const buffers = new Map([[join(dir, "src", "a.txt"), "one\n"]]);
  const preread = await readThroughEditor(written, { readTextFile: (path) => Promise.resolve(buffers.get(path) ?? readFileSync(path, "utf8")) });
  const plan = await planPatch(parsed, dir, preread);
  // The deletion fails (the file turned into a folder); everything before it is undone.
  renameSync(join(dir, "src", "gone.txt"), join(dir, "gone-away.txt"));
  mkdirSync(join(dir, "src", "gone.txt"));
  const writes: Array<[string, string]> = [];
  await assert.rejects(
    commitPlanThroughEditor(plan, { writeTextFile: (path, text) => Promise.resolve(void writes.push([path, text])) }, scopeOf(dir)),
    /Failed to delete file .*gone\.txt/,
  );
  const a = join(dir, "src", "a.txt");
  assert.deepEqual(writes, [
    [a, "two\n"],
    [a, "one\n"],
  ]);
  assert.equal(existsSync(join(dir, "src", "new.txt")), false, "the created file was removed again");
});

void test("the editor's text wins over the disk's; a file the editor cannot read stops the plan with the editor's reason", async () => {
  const dir = workspace();
  const parsed = parsePatch("*** Begin Patch\n*** Update File: src/a.txt\n@@\n-unsaved\n+saved\n*** End Patch\n");
  const written = pathsWrittenBy(parsed, dir);
  const fromBuffer = await readThroughEditor(written, { readTextFile: () => Promise.resolve("unsaved\n") });
  const plan = await planPatch(parsed, dir, fromBuffer);
  assert.equal(plan.changes[0]?.newContent, "saved\n");
  const refused = await readThroughEditor(written, { readTextFile: () => Promise.reject(new Error("no buffer for you")) });
  await assert.rejects(planPatch(parsed, dir, refused), /Failed to read file to update .*a\.txt: the editor could not read it: no buffer for you/);
});
