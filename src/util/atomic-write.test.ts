import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";

void test("replaces the file whole, with exactly the mode asked for, and leaves no temporary file", () => {
  const dir = mkdtempSync(join(tmpdir(), "atomic-"));
  try {
    const file = join(dir, "auth.json");
    writeFileSync(file, "old contents that are longer");
    chmodSync(file, 0o644);
    writeFileAtomic(file, "new");
    assert.equal(readFileSync(file, "utf8"), "new");
    assert.equal(statSync(file).mode & 0o777, 0o600, "the old file's looser mode does not carry over");
    writeFileAtomic(file, "cache", 0o644);
    assert.equal(statSync(file).mode & 0o777, 0o644);
    assert.deepEqual(readdirSync(dir), ["auth.json"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test("a failed rename leaves the target as it was and removes the temporary file", () => {
  const dir = mkdtempSync(join(tmpdir(), "atomic-"));
  try {
    // A directory where the file should go: the rename fails.
    const target = join(dir, "taken");
    mkdirSync(join(target, "inside"), { recursive: true });
    assert.throws(() => writeFileAtomic(target, "data"));
    assert.deepEqual(readdirSync(dir), ["taken"]);
    assert.ok(statSync(target).isDirectory());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
