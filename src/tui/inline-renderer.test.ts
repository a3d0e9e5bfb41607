import { test } from "node:test";
import assert from "node:assert/strict";
import xtermHeadless from "@xterm/headless";
import { InlineRenderer, type Screen } from "./inline-renderer.js";

/** A headless terminal the renderer draws into, recording every write. */
function terminal(cols = 40, rows = 10): { screen: Screen; writes: string[]; text: () => Promise<string[]> } {
  const term = new xtermHeadless.Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
  const writes: string[] = [];
  let pending = Promise.resolve();
  const screen: Screen = {
    write: (d) => {
      writes.push(d);
      pending = pending.then(() => new Promise<void>((r) => term.write(d, r)));
    },
    get columns() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
  };
  const text = async (): Promise<string[]> => {
    await pending;
    const buf = term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < buf.length; i++) out.push(buf.getLine(i)?.translateToString(true) ?? "");
    while (out.length > 0 && out[out.length - 1] === "") out.pop();
    return out;
  };
  return { screen, writes, text };
}

void test("committed lines are written once above the live region and stay in scrollback", async () => {
  const { screen, writes, text } = terminal(40, 6);
  const r = new InlineRenderer(screen);
  r.paint(["> compose", "status"]);
  for (let i = 1; i <= 8; i++) r.commit([`cell ${i}`], ["> compose", "status"]);
  const all = await text();
  assert.deepEqual(all, ["cell 1", "cell 2", "cell 3", "cell 4", "cell 5", "cell 6", "cell 7", "cell 8", "> compose", "status"]);
  // Repainting the live region never rewrites a committed cell.
  writes.length = 0;
  r.paint(["> compose!", "status"]);
  assert.ok(!writes.join("").includes("cell"), "committed text was redrawn");
  assert.deepEqual((await text()).slice(-2), ["> compose!", "status"]);
});

void test("a repaint rewrites only from the first changed row, inside synchronized output", async () => {
  const { screen, writes, text } = terminal(40, 10);
  const r = new InlineRenderer(screen);
  r.paint(["a", "b", "c"]);
  writes.length = 0;
  r.paint(["a", "b", "C"]);
  const out = writes.join("");
  assert.ok(out.startsWith("\x1b[?2026h") && out.endsWith("\x1b[?2026l"));
  assert.ok(!out.includes("a") && !out.includes("b"), JSON.stringify(out));
  writes.length = 0;
  r.paint(["a", "b", "C"]);
  assert.equal(writes.length, 0, "an unchanged frame writes nothing");
  r.paint(["a"]);
  assert.deepEqual(await text(), ["a"]);
});

void test("rows wider than the terminal are cut with …, so the terminal never wraps them; no row keeps trailing padding", async () => {
  const { screen, writes, text } = terminal(10, 5);
  const r = new InlineRenderer(screen);
  r.paint(["0123456789abcdef", "x", "padded    "]);
  assert.deepEqual(await text(), ["012345678…", "x", "padded"]);
  assert.ok(!writes.join("").includes("padded "), "the padding was written");
});

void test("a live region taller than the screen keeps its bottom rows", async () => {
  const { screen, text } = terminal(20, 4);
  const r = new InlineRenderer(screen);
  r.paint(["1", "2", "3", "4", "5", "6"]);
  assert.deepEqual(await text(), ["4", "5", "6"]);
});

void test("close clears the live region and nothing is drawn afterwards", async () => {
  const { screen, text } = terminal(20, 6);
  const r = new InlineRenderer(screen);
  r.commit(["kept"], ["live 1", "live 2"]);
  r.close();
  r.paint(["ghost"]);
  assert.deepEqual(await text(), ["kept"]);
});

void test("a commit never clears the whole screen, even when the live region starts at the top-left corner", async () => {
  // tmux (scroll-on-clear) pushes a wholly cleared screen into scrollback, which would leave a
  // stray copy of the first live region above the transcript.
  const { screen, writes, text } = terminal(40, 10);
  const r = new InlineRenderer(screen);
  r.paint(["", "-----", "> compose", "-----", "hint"]);
  writes.length = 0;
  r.commit(["header 1", "header 2"], ["-----", "> compose", "-----", "hint"]);
  r.commit(["a very long cell", "with", "many", "rows", "in", "it"], ["> compose"]);
  assert.ok(writes.every((w) => !w.includes("\x1b[J")), "rows are overwritten, the screen is never cleared below");
  assert.deepEqual(await text(), ["header 1", "header 2", "a very long cell", "with", "many", "rows", "in", "it", "> compose"]);
});

void test("a commit shorter than the old live region clears the rows left below it", async () => {
  const { screen, text } = terminal(40, 10);
  const r = new InlineRenderer(screen);
  r.paint(["overlay 1", "overlay 2", "overlay 3", "overlay 4", "> compose"]);
  r.commit(["cell"], ["> compose"]);
  assert.deepEqual(await text(), ["cell", "> compose"]);
});
