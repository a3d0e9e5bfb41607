/**
 * Faults in the middle of a commit, injected for real: the commit runs in a child process whose
 * file-size limit (`ulimit -f`) makes a write stop part-way with EFBIG, as a full disk or a
 * quota would. A write that fails after some bytes landed is undone like any other step, and
 * when the undo itself cannot put a file back (its old content no longer fits under the limit),
 * the error names that file instead of claiming that nothing changed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { snapshot, workspace, wrapPatch } from "../../test/support/patch-tree.js";

/** `ulimit -f` counts 512-byte blocks in POSIX sh: files stop growing at this many bytes. */
const LIMIT_BLOCKS = 100;
const LIMIT_BYTES = LIMIT_BLOCKS * 512;

const engine = (name: string): string => pathToFileURL(join(import.meta.dirname, name)).href;

/** Plans and commits `patch` (sent on stdin) in `dir` in a child under the file-size limit; the commit's error message, or "". */
function commitUnderLimit(dir: string, patch: string): string {
  const script = `
    const { readFileSync } = await import("node:fs");
    const { parsePatch } = await import(${JSON.stringify(engine("parser.js"))});
    const { planPatch } = await import(${JSON.stringify(engine("plan.js"))});
    const { commitPlan } = await import(${JSON.stringify(engine("commit.js"))});
    const dir = ${JSON.stringify(dir)};
    const plan = await planPatch(parsePatch(readFileSync(0, "utf8")), dir);
    try {
      await commitPlan(plan, { roots: [dir], protectedPaths: [], approved: [] });
      process.stdout.write(JSON.stringify(""));
    } catch (err) {
      process.stdout.write(JSON.stringify(err.message));
    }`;
  const child = spawnSync("/bin/sh", ["-c", `ulimit -f ${LIMIT_BLOCKS} && exec "$0" --input-type=module -e "$1"`, process.execPath, script], { encoding: "utf8", input: patch });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as string;
}

const lines = (count: number, label: string): string[] => Array.from({ length: count }, (_, i) => `${label} line ${i} ${"-".repeat(60)}`);

void test("a write that stops part-way is undone with everything before it", { skip: process.platform === "win32" }, () => {
  const dir = workspace({ "a.txt": "a\n", "grow.txt": `${lines(50, "grow").join("\n")}\n` });
  const before = snapshot(dir);
  const big = lines(1_200, "big");
  assert.ok(big.join("\n").length > LIMIT_BYTES);
  const message = commitUnderLimit(
    dir,
    wrapPatch(["*** Update File: a.txt", "@@", "-a", "+A", "*** Update File: grow.txt", "@@", "+appended", "*** Add File: big.txt", ...big.map((l) => `+${l}`)].join("\n")),
  );
  assert.equal(message, `Failed to write file ${join(dir, "big.txt")}: File too large (os error 27)`);
  assert.deepEqual(snapshot(dir), before, "the partly written file is gone and the earlier writes are undone");
});

void test("an undo that cannot restore a file says which, and restores the rest", { skip: process.platform === "win32" }, () => {
  const huge = lines(1_000, "huge");
  const dir = workspace({ "a.txt": "a\n", "huge.txt": `${huge.join("\n")}\n` });
  assert.ok(statSync(join(dir, "huge.txt")).size > LIMIT_BYTES, "the old content no longer fits under the limit");
  // The patch shrinks huge.txt (fits), then adds a file that does not fit: the undo must write
  // huge.txt's old content back, which the limit stops part-way.
  const kept = huge.slice(0, 10);
  const patch = wrapPatch(
    [
      "*** Update File: a.txt",
      "@@",
      "-a",
      "+A",
      "*** Update File: huge.txt",
      "@@",
      ...kept.map((l) => ` ${l}`),
      ...huge.slice(10).map((l) => `-${l}`),
      "*** Add File: big.txt",
      ...lines(1_200, "big").map((l) => `+${l}`),
    ].join("\n"),
  );
  const message = commitUnderLimit(dir, patch);
  assert.equal(
    message,
    `Failed to write file ${join(dir, "big.txt")}: File too large (os error 27)\n` +
      `The patch was undone except for this path, which could not be restored:\n  ${join(dir, "huge.txt")}: File too large (os error 27)`,
  );
  assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "a\n", "the other write was undone");
  assert.equal(snapshot(dir)["big.txt"], undefined, "the added file is gone");
});
