import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureStore, removeThreadStore, storeLayout, sweepStores, UNDO_SUBDIR } from "./storage.js";

const A = "01a217e6-e2dd-7f6b-9e59-0d482f5955d9";
const B = "01a217e6-e2dd-7f6b-9e59-0d482f5955da";

void test("a thread's undo data lives with its session: removed with it, or by a sweep once its session file is gone", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-undo-storage-"));
  const base = join(home, UNDO_SUBDIR);
  for (const id of [A, B]) {
    const layout = storeLayout(base, id);
    ensureStore(layout);
    writeFileSync(join(layout.blobs, "x"), "copy");
  }
  mkdirSync(join(base, "not-a-thread"));
  assert.deepEqual(sweepStores(home, (id) => id === A), [B]);
  assert.deepEqual(readdirSync(base).sort(), [A, "not-a-thread"], "only thread folders are swept");
  removeThreadStore(home, A.toUpperCase());
  assert.equal(existsSync(join(base, A)), false);
  removeThreadStore(home, "../../etc");
  assert.ok(existsSync(join(base, "not-a-thread")), "a name that is no thread id removes nothing");
});
