import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commitBody, writeLooseObject } from "./loose-object.js";

void test("a commit written without git is one git reads, with the id git gives it, in SHA-1 and SHA-256 repositories", () => {
  for (const [format, bytes] of [["sha1", 20], ["sha256", 32]] as const) {
    const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-loose-"));
    const git = (args: string[], input?: string): string => execFileSync("git", args, { cwd: dir, encoding: "utf8", input });
    git(["init", "-q", `--object-format=${format}`]);
    const tree = git(["mktree"], "").trim();
    const when = new Date("2026-03-01T12:00:00Z");
    const root = writeLooseObject(join(dir, ".git", "objects"), "commit", commitBody(tree, null, "A U Thor <a@example.com>", "first", when), bytes);
    const child = writeLooseObject(join(dir, ".git", "objects"), "commit", commitBody(tree, root, "A U Thor <a@example.com>", "second", when), bytes);
    assert.equal(git(["cat-file", "-t", child]).trim(), "commit", format);
    assert.equal(git(["rev-parse", `${child}^`]).trim(), root, `${format}: the parent`);
    assert.equal(git(["rev-parse", `${child}^{tree}`]).trim(), tree);
    assert.match(git(["log", "--format=%an <%ae> %at %s", child]), /^A U Thor <a@example\.com> 1772366400 second\nA U Thor <a@example\.com> 1772366400 first\n$/);
    assert.equal(git(["hash-object", "-t", "commit", "--stdin"], git(["cat-file", "commit", child])).trim(), child, "the id is git's own for these bytes");
    git(["fsck", "--strict", "--no-dangling"]);
    assert.equal(writeLooseObject(join(dir, ".git", "objects"), "commit", commitBody(tree, root, "A U Thor <a@example.com>", "second", when), bytes), child, "written again: the same object");
  }
});
