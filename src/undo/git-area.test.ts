import { test } from "node:test";
import assert from "node:assert/strict";
import { hiddenFrom, parseStatus, type GitCapture } from "./git-area.js";

void test("git status's porcelain v2 gives changed tracked paths (spaces kept), untracked and ignored ones", () => {
  const out = [
    "1 .M N... 100644 100644 100644 aaa bbb dir/with space.txt",
    "1 D. N... 100644 000000 000000 aaa 000 gone.txt",
    "u UU N... 100644 100644 100644 100644 a b c both.txt",
    "? new file.txt",
    "? nested-repo/",
    "! node_modules/",
    "! debug.log",
  ].join("\0") + "\0";
  assert.deepEqual(parseStatus(Buffer.from(out)), {
    tracked: ["dir/with space.txt", "gone.txt", "both.txt"],
    untracked: ["new file.txt", "nested-repo/"],
    ignored: ["node_modules/", "debug.log"],
  });
});

void test("a path is hidden from a snapshot when ignored, inside an ignored folder, or left out for its size or folder", () => {
  const capture: GitCapture = {
    tree: "t",
    head: null,
    untrackedFiles: [],
    untrackedDirs: [],
    ignored: ["node_modules/", "debug.log"],
    leftOut: { largeFiles: [{ path: "big.bin", bytes: 1 }], largeDirs: [{ path: "gen", files: 300 }] },
  };
  for (const path of ["node_modules/x.js", "debug.log", "big.bin", "gen/a.ts"]) assert.equal(hiddenFrom(capture, path), true, path);
  for (const path of ["src/a.ts", "generated.ts", "debug.log.txt"]) assert.equal(hiddenFrom(capture, path), false, path);
});
