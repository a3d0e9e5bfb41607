import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileTooLargeError, NotRegularFileError, readBoundedBytes, readTextFile, readTextPrefix } from "./bounded-read.js";
import { errorCode } from "./errors.js";

function withDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "bounded-read-"));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void test("a link to /dev/zero is refused before a byte is read", () => {
  withDir((dir) => {
    const link = join(dir, "AGENTS.md");
    symlinkSync("/dev/zero", link);
    assert.throws(() => readTextPrefix(link, 1024), (err: unknown) => err instanceof NotRegularFileError && /AGENTS\.md is a character device/.test(err.message));
  });
});

void test("a FIFO is refused at once instead of waiting for a writer", () => {
  withDir((dir) => {
    const fifo = join(dir, "config.toml");
    execFileSync("mkfifo", [fifo]);
    assert.throws(() => readTextFile(fifo), (err: unknown) => err instanceof NotRegularFileError && /named pipe/.test(err.message));
  });
});

void test("a directory fails with EISDIR, as reading one always has", () => {
  withDir((dir) => {
    assert.throws(() => readTextFile(dir), (err: unknown) => errorCode(err) === "EISDIR");
  });
});

void test("a large file gives only its prefix, with its real size, and is not read further", () => {
  withDir((dir) => {
    const file = join(dir, "big.md");
    writeFileSync(file, "x".repeat(5 * 1024 * 1024));
    const read = readTextPrefix(file, 1000);
    assert.equal(read.text.length, 1000);
    assert.equal(read.truncated, true);
    assert.equal(read.size, 5 * 1024 * 1024);
  });
});

void test("readTextFile refuses a file over its limit, naming the file and both sizes", () => {
  withDir((dir) => {
    const file = join(dir, "config.toml");
    writeFileSync(file, "a".repeat(3000));
    assert.throws(
      () => readTextFile(file, 2048),
      (err: unknown) => err instanceof FileTooLargeError && err.message.includes(file) && /2\.9 KiB, over the 2 KiB/.test(err.message),
    );
    assert.equal(readTextFile(file, 3000).length, 3000, "exactly the limit is allowed");
  });
});

void test("a cut never splits a multi-byte character", () => {
  withDir((dir) => {
    const file = join(dir, "accents.md");
    writeFileSync(file, "é".repeat(10)); // 2 bytes each
    assert.equal(readTextPrefix(file, 5).text, "éé");
    writeFileSync(file, "a😀b");
    assert.equal(readTextPrefix(file, 4).text, "a");
    assert.equal(readTextPrefix(file, 5).text, "a😀");
  });
});

void test("files that report size 0 (as /proc's do) are still read up to the limit", () => {
  const read = readBoundedBytes("/proc/self/status", 1 << 20);
  assert.equal(read.truncated, false);
  assert.match(read.data.toString("utf8"), /^Name:/);
  const capped = readBoundedBytes("/proc/self/status", 10);
  assert.equal(capped.data.length, 10);
  assert.equal(capped.truncated, true);
});

void test("an empty file and a small file read whole", () => {
  withDir((dir) => {
    const file = join(dir, "small");
    writeFileSync(file, "");
    assert.deepEqual(readTextPrefix(file, 10), { text: "", size: 0, truncated: false });
    writeFileSync(file, "hello");
    assert.deepEqual(readTextPrefix(file, 10), { text: "hello", size: 5, truncated: false });
    assert.deepEqual(readTextPrefix(file, 5), { text: "hello", size: 5, truncated: false });
  });
});
