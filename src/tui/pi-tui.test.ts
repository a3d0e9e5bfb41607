import { test } from "node:test";
import assert from "node:assert/strict";
import { loadMarkdown, renderMarkdown } from "./pi-tui.js";
import { createTheme, stripAnsi } from "./parts/theme.js";
import { markdownTheme } from "./cells.js";

const theme = markdownTheme(createTheme(0));
const plain = (lines: string[]): string => lines.map((l) => stripAnsi(l).trimEnd()).join("\n");

// The two tests run in order: the first sees the module before the Markdown component is loaded.
void test("before the Markdown component is loaded, the text is wrapped as it is and nothing is lost", () => {
  const lines = renderMarkdown("Some **bold** words that wrap\n\n- a point", theme, 12);
  assert.equal(plain(lines), "Some\n**bold**\nwords that\nwrap\n\n- a point");
});

void test("once loaded, the text is rendered as markdown", async () => {
  await loadMarkdown();
  await loadMarkdown(); // a second call finds it loaded
  const text = plain(renderMarkdown("Some **bold** words\n\n- a point", theme, 40));
  assert.match(text, /^Some bold words$/m);
  assert.doesNotMatch(text, /\*\*/);
  assert.match(text, /- a point/);
});
