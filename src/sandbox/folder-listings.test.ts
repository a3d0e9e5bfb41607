import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FolderListings } from "./folder-listings.js";

const names = (listing: { entries: readonly { name: string }[] } | null): string[] => (listing?.entries ?? []).map((e) => e.name).sort();

/** Runs `fn` with the clock a minute ahead, so no folder just made counts as changed moments ago. */
function aMinuteLater(fn: () => void): void {
  const realNow = Date.now;
  Date.now = () => realNow() + 60_000;
  try {
    fn();
  } finally {
    Date.now = realNow;
  }
}

void test("a folder is listed again after it changed, even when its modification time is set back", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-listings-")));
  writeFileSync(join(dir, "a"), "");
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(dir, old, old);
  aMinuteLater(() => {
    const listings = new FolderListings<string>();
    assert.deepEqual(names(listings.get(dir)), ["a"]);
    writeFileSync(join(dir, ".env"), "");
    // What a command could do to hide the change: put the old modification time back.
    utimesSync(dir, old, old);
    assert.deepEqual(names(listings.get(dir)), [".env", "a"]);
    assert.equal(listings.get(join(dir, "a")), null, "a file is not a folder");
  });
});

void test("a listing of a folder changed moments before it was read is not trusted: an entry made in the same tick is found", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-listings-")));
  mkdirSync(join(dir, "sub"));
  const listings = new FolderListings<string>();
  const first = await listings.load(join(dir, "sub"));
  assert.deepEqual(names(first), []);
  first?.memo.set(0, "matches");
  // Same change time as far as a coarse clock can tell; the racy listing is read again anyway.
  writeFileSync(join(dir, "sub", ".env"), "");
  const second = listings.get(join(dir, "sub"));
  assert.deepEqual(names(second), [".env"]);
  assert.equal(second?.memo.size, 0, "what was worked out from the old entries is dropped with them");
});

void test("an unchanged folder whose last change is long past is served from the cache, with its memo", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-listings-")));
  writeFileSync(join(dir, "a"), "");
  aMinuteLater(() => {
    const listings = new FolderListings<string>();
    const first = listings.get(dir);
    first?.memo.set(0, "matches");
    const second = listings.get(dir);
    assert.equal(second, first);
    assert.equal(second?.memo.get(0), "matches");
  });
});
