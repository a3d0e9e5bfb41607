import { test } from "node:test";
import assert from "node:assert/strict";
import { RemoteFileSearch, type FuzzyFileSearch, type RemoteFileMatch } from "./remote-file-search.js";

/** A server whose answers the test releases one by one, recording what it was asked. */
function server(): { ask: FuzzyFileSearch; asked: string[]; answer: (files: RemoteFileMatch[] | Error) => Promise<void> } {
  const asked: string[] = [];
  const waiting: Array<(files: RemoteFileMatch[] | Error) => void> = [];
  const ask: FuzzyFileSearch = (params) => {
    assert.deepEqual(params.roots, ["/srv/work"]);
    assert.match(params.cancellationToken, /^tui-mention-\d+$/);
    asked.push(params.query);
    return new Promise((resolve, reject) => waiting.push((r) => (r instanceof Error ? reject(r) : resolve({ files: r }))));
  };
  const answer = async (files: RemoteFileMatch[] | Error): Promise<void> => {
    waiting.shift()?.(files);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { ask, asked, answer };
}

const file = (path: string, indices: number[] | null = null): RemoteFileMatch => ({ path, match_type: "file", score: 10, indices });

void test("a query is asked once; its answer is shown when it arrives, and kept for typing back", async () => {
  const s = server();
  const search = new RemoteFileSearch("/srv/work", s.ask);
  let told = 0;
  search.watch(() => told++);
  assert.deepEqual(search.search("", 50), [], "an empty query is not asked");
  assert.deepEqual(search.search("ab", 50), []);
  assert.deepEqual(search.search("ab", 50), [], "asked once while waiting");
  assert.deepEqual(s.asked, ["ab"]);
  await s.answer([file("src/ab.ts", [4, 5])]);
  assert.equal(told, 1);
  assert.deepEqual(search.search("ab", 50), [{ path: "src/ab.ts", kind: "file", score: 10, indices: [4, 5] }]);
  // While the next answer is on its way, the last matches stay on screen.
  assert.deepEqual(search.search("abc", 50).map((m) => m.path), ["src/ab.ts"]);
  await s.answer([]);
  assert.deepEqual(search.search("abc", 50), []);
  assert.deepEqual(search.search("ab", 50).map((m) => m.path), ["src/ab.ts"], "answered before: not asked again");
  assert.deepEqual(s.asked, ["ab", "abc"]);
});

void test("an answer to a query typed over is dropped (it may be a cancelled search's empty one)", async () => {
  const s = server();
  const search = new RemoteFileSearch("/srv/work", s.ask);
  let told = 0;
  search.watch(() => told++);
  search.search("a", 50);
  search.search("ab", 50);
  await s.answer([]);
  assert.equal(told, 0);
  await s.answer([file("ab.md")]);
  assert.equal(told, 1);
  assert.deepEqual(search.search("ab", 50).map((m) => m.path), ["ab.md"]);
  search.search("a", 50);
  assert.deepEqual(s.asked, ["a", "ab", "a"], "the dropped answer was not kept");
});

void test("the server's positions count characters; the popup's count UTF-16 units", async () => {
  const s = server();
  const search = new RemoteFileSearch("/srv/work", s.ask);
  search.search("x", 50);
  // "😀/x": the emoji is one character and two units.
  await s.answer([file("😀/x", [0, 2])]);
  assert.deepEqual(search.search("x", 50)[0]?.indices, [0, 3]);
});

void test("a failed search says so, and the next answer clears it", async () => {
  const s = server();
  const search = new RemoteFileSearch("/srv/work", s.ask);
  search.search("q", 50);
  await s.answer(new Error("method not found: fuzzyFileSearch"));
  assert.equal(search.state, "failed");
  assert.match(search.error ?? "", /the server's file search failed: method not found: fuzzyFileSearch/);
  search.search("qq", 50);
  await s.answer([file("qq")]);
  assert.equal(search.state, "ready");
  assert.equal(search.error, null);
});
