import { test } from "node:test";
import assert from "node:assert/strict";
import { FileIndex } from "../../file-search/file-index.js";
import { FileSearchPopup, highlightPath, mentionText } from "./file-search-popup.js";
import { createTheme, setTheme, stripAnsi } from "./theme.js";

setTheme(createTheme(1));

const FILES = [
  "src/tui/parts/theme.ts",
  "src/tui/parts/file-search.ts",
  "src/tui/parts/file-search-popup.ts",
  "docs/tui.md",
  "src/core/session.ts",
  "a/very/long/folder/name/that/goes/on/and/on/target.ts",
];

async function readyIndex(files = FILES): Promise<FileIndex> {
  const index = new FileIndex("/repo", { lister: () => Promise.resolve({ files, source: "git" as const }) });
  await index.whenReady();
  return index;
}

const UP = "\u001b[A";
const DOWN = "\u001b[B";

void test("lists the best matches, the first selected, at a fixed width", async () => {
  const popup = new FileSearchPopup(await readyIndex(), { onSelect: () => {}, onCancel: () => {} });
  popup.setQuery("fsearch");
  assert.deepEqual(popup.render(40).map(stripAnsi), ["› src/tui/parts/file-search.ts", "  src/tui/parts/file-search-popup.ts"]);
  popup.setQuery("zzz");
  assert.deepEqual(popup.render(40).map(stripAnsi), ["  no matches"]);
});

void test("long paths lose characters on the left so the file name stays", async () => {
  const popup = new FileSearchPopup(await readyIndex(), { onSelect: () => {}, onCancel: () => {} });
  popup.setQuery("target");
  const [row] = popup.render(24).map(stripAnsi);
  assert.equal(row, "› …s/on/and/on/target.ts");
  assert.equal(row?.length, 24);
});

void test("matched characters are bold and coloured", () => {
  const s = highlightPath({ path: "ab/cd.ts", kind: "file", score: 0, indices: [3, 4] }, 40, false);
  assert.equal(s, "ab/\u001b[1m\u001b[36mc\u001b[39m\u001b[22m\u001b[1m\u001b[36md\u001b[39m\u001b[22m.ts");
});

void test("Up/Down move and wrap, Tab and Enter pick, Esc cancels, other keys are left alone", async () => {
  const picked: string[] = [];
  let cancelled = 0;
  const popup = new FileSearchPopup(await readyIndex(), { onSelect: (p) => picked.push(p), onCancel: () => cancelled++ });
  popup.setQuery("tui");
  assert.equal(popup.handleInput(DOWN), true);
  const second = popup.selectedPath();
  assert.ok(second);
  assert.equal(stripAnsi(popup.render(60)[1] ?? ""), `› ${second}`);
  popup.handleInput(UP);
  popup.handleInput(UP); // wraps to the last match
  const last = popup.selectedPath();
  assert.notEqual(last, second);
  assert.equal(popup.handleInput("\t"), true);
  assert.equal(popup.handleInput("\r"), true);
  assert.deepEqual(picked, [last, last]);
  assert.equal(popup.handleInput("\u001b"), true);
  assert.equal(cancelled, 1);
  assert.equal(popup.handleInput("x"), false);
});

void test("the list scrolls to keep the selection visible", async () => {
  const files = Array.from({ length: 20 }, (_, i) => `file${String(i).padStart(2, "0")}.ts`);
  const popup = new FileSearchPopup(await readyIndex(files), { onSelect: () => {}, onCancel: () => {}, maxVisible: 3 });
  popup.setQuery("file");
  for (let i = 0; i < 4; i++) popup.handleInput(DOWN);
  const rows = popup.render(30).map(stripAnsi);
  assert.equal(rows.length, 3);
  assert.equal(rows[2], `› ${popup.selectedPath() ?? ""}`);
});

void test("while the index builds it says so, then re-renders with matches", async () => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const index = new FileIndex("/repo", {
    lister: async () => {
      await gate;
      return { files: FILES, source: "walk" as const };
    },
  });
  let renders = 0;
  const popup = new FileSearchPopup(index, { onSelect: () => {}, onCancel: () => {}, requestRender: () => renders++ });
  popup.setQuery("session");
  assert.deepEqual(popup.render(40).map(stripAnsi), ["  indexing files…"]);
  release();
  await index.whenReady();
  await new Promise((r) => setImmediate(r));
  assert.equal(renders, 1);
  assert.deepEqual(popup.render(40).map(stripAnsi), ["› src/core/session.ts"]);
});

void test("mentionText quotes paths with spaces", () => {
  assert.equal(mentionText("src/a.ts"), "src/a.ts");
  assert.equal(mentionText("my docs/a b.md"), '"my docs/a b.md"');
  assert.equal(mentionText(`it's.md`), `"it's.md"`);
});
