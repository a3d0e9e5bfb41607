import { test } from "node:test";
import assert from "node:assert/strict";
import { Transcript, TranscriptPager } from "./transcript.js";
import { createTheme, stripAnsi } from "./parts/theme.js";

const theme = createTheme(0);

void test("the transcript draws every cell again at the width asked, cells added later included", () => {
  const t = new Transcript();
  t.add((w) => [`first at ${w}`]);
  assert.deepEqual(t.lines(40), ["first at 40"]);
  t.add((w) => [`second at ${w}`, ""]);
  assert.deepEqual(t.lines(40), ["first at 40", "second at 40", ""]);
  assert.deepEqual(t.lines(80), ["first at 80", "second at 80", ""]);
});

void test("the pager opens at the end, scrolls with the keys and closes with q", () => {
  const t = new Transcript();
  for (let i = 1; i <= 30; i++) t.add(() => [`line ${i}`]);
  let closed = false;
  const pager = new TranscriptPager(theme, t, () => (closed = true));
  const view = (): string[] => pager.render(40, 12).map((l) => stripAnsi(l));
  assert.equal(view()[0], "Transcript · lines 21–30 of 30");
  assert.equal(view()[10], "line 30");
  pager.handleInput("\x1b[A"); // up
  assert.equal(view()[0], "Transcript · lines 20–29 of 30");
  pager.handleInput("\x1b[5~"); // page up
  assert.equal(view()[0], "Transcript · lines 10–19 of 30");
  pager.handleInput("\x1b[H"); // home
  assert.equal(view()[1], "line 1");
  pager.handleInput("\x1b[F"); // end
  assert.equal(view()[0], "Transcript · lines 21–30 of 30");
  // Following the end: a cell added meanwhile shows up.
  t.add(() => ["line 31"]);
  assert.equal(view()[10], "line 31");
  pager.handleInput("q");
  assert.equal(closed, true);
});
