import { test } from "node:test";
import assert from "node:assert/strict";
import { describeLeftOut, inSkippedFolder, selectUntracked } from "./exclusions.js";

void test("untracked files above the size, folders with many files and dependency folders are left out", () => {
  const files = ["a.txt", "big.bin", "node_modules/x/index.js", ".env", "gen/1.ts", "gen/2.ts", "gen/3.ts", "src/deep/x.ts"];
  const sizes: Record<string, number> = { "big.bin": 5000 };
  const { kept, leftOut } = selectUntracked(files, { largeFileBytes: 1000, largeDirFiles: 3 }, (p) => sizes[p] ?? 10);
  assert.deepEqual(kept, ["a.txt", "src/deep/x.ts"]);
  assert.deepEqual(leftOut.largeFiles, [{ path: "big.bin", bytes: 5000 }]);
  assert.deepEqual(leftOut.largeDirs, [{ path: "gen", files: 3 }]);
  assert.match(describeLeftOut(leftOut) ?? "", /gen\/: 3 files[\s\S]*big\.bin: 5 KiB/);
});

void test("a limit of 0 leaves nothing out for that reason; the top folder is never left out whole", () => {
  const files = ["1", "2", "3", "huge"];
  const { kept, leftOut } = selectUntracked(files, { largeFileBytes: 0, largeDirFiles: 2 }, () => 1e12);
  assert.deepEqual(kept, files);
  assert.equal(describeLeftOut(leftOut), null);
  assert.equal(inSkippedFolder("a/__pycache__/m.pyc"), true);
  assert.equal(inSkippedFolder("a/builder/m.py"), false);
});
