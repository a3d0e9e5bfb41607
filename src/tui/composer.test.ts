import { test } from "node:test";
import assert from "node:assert/strict";
import { Composer, SlashCompletions } from "./composer.js";
import { createTheme, stripAnsi } from "./parts/theme.js";
import type { SearchableIndex } from "./parts/file-search-popup.js";

const UP = "\x1b[A";
const DOWN = "\x1b[B";

function composer(fetched: number[]): Composer {
  const index: SearchableIndex = {
    state: "ready",
    error: null,
    search: (q) => (q === "" || "src/main.ts".includes(q) ? [{ path: "src/main.ts", kind: "file", score: 1, indices: [] }] : []),
    whenReady: () => Promise.resolve(),
  };
  return new Composer({ requestRender: () => undefined, terminal: { rows: 30 } }, createTheme(0), new SlashCompletions(() => []), {
    cwd: () => "/nonexistent",
    fileIndex: () => index,
    fetchHistory: (offset) => void fetched.push(offset),
  });
}

void test("Up walks this session's prompts first, then asks the core for older ones; Down comes back", () => {
  const fetched: number[] = [];
  const c = composer(fetched);
  c.setHistory(7, 2);
  // The newest entry is asked for at once (a prompt that repeats it is not stored again).
  assert.deepEqual(fetched, [1]);
  c.remember("sent just now");
  c.handleInput(UP);
  assert.equal(c.text, "sent just now");
  c.handleInput(UP);
  assert.deepEqual(fetched, [1, 1]);
  c.historyEntry(7, 1, "from the file");
  assert.equal(c.text, "from the file");
  c.historyEntry(8, 0, "another log"); // a different history file: ignored
  c.handleInput(DOWN);
  assert.equal(c.text, "sent just now");
  c.handleInput(DOWN);
  assert.equal(c.text, "");
});

void test("@ opens the file popup under the composer; Tab puts the path in place of the word", () => {
  const c = composer([]);
  for (const ch of "see @mai") c.handleInput(ch);
  assert.ok(c.popupOpen);
  assert.match(c.render(40).map((l) => stripAnsi(l)).join("\n"), /src\/main\.ts/);
  c.handleInput("\t");
  assert.equal(c.text, "see src/main.ts ");
  assert.equal(c.popupOpen, false);
});

void test("the same prompt twice in a row is kept once, also when it repeats the file's newest entry", () => {
  const c = composer([]);
  c.setHistory(3, 1);
  c.historyEntry(3, 0, "run the tests");
  assert.equal(c.remember("run the tests"), false);
  assert.equal(c.remember("fix it"), true);
  assert.equal(c.remember("fix it"), false);
  assert.equal(c.remember("run the tests"), true);
  c.handleInput(UP);
  assert.equal(c.text, "run the tests");
  c.handleInput(UP);
  assert.equal(c.text, "fix it");
});

void test("a large recalled entry is a placeholder, the same one each time it comes back, and is sent whole", () => {
  const c = composer([]);
  c.setHistory(7, 1);
  const blob = "z".repeat(300_000);
  c.handleInput(UP);
  c.historyEntry(7, 0, blob);
  assert.equal(c.text, "[Pasted Content 300000 chars]");
  c.handleInput(DOWN);
  assert.equal(c.text, "");
  c.handleInput(UP);
  assert.equal(c.text, "[Pasted Content 300000 chars]", "walking back does not number a second copy");
  assert.equal(c.take(c.text).text, blob);
});

void test("text put in whole (an earlier message, the external editor's result) is folded like a paste; expandedText puts it back", () => {
  const c = composer([]);
  const many = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n");
  c.setText(many);
  assert.equal(c.text, `[Pasted Content ${many.length} chars]`);
  assert.equal(c.expandedText, many);
  c.setText("short enough to edit");
  assert.equal(c.text, "short enough to edit");
});
