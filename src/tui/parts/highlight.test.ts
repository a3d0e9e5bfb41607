/* eslint-disable no-control-regex -- the assertions match escape sequences */
import { test } from "node:test";
import assert from "node:assert/strict";
import { highlightCode, highlightReady, knownLanguage, loadHighlighter } from "./highlight.js";
import { createTheme, setTheme, stripAnsi } from "./theme.js";

const CODE = 'const greeting = "hi <there>"; // say it\nfunction f(x: number) {\n  return x + 1;\n}\n';

void test("before loading: plain lines, and the load starts", async () => {
  setTheme(createTheme(1));
  assert.equal(highlightReady(), false);
  assert.deepEqual(highlightCode(CODE, "ts"), CODE.slice(0, -1).split("\n"));
  await loadHighlighter();
  assert.equal(highlightReady(), true);
});

void test("after loading: coloured lines whose text is unchanged, one style per line", async () => {
  setTheme(createTheme(1));
  await loadHighlighter();
  const lines = highlightCode(CODE, "ts");
  assert.deepEqual(lines.map(stripAnsi), CODE.slice(0, -1).split("\n"));
  assert.equal(lines[0], '\u001b[35mconst\u001b[39m greeting = \u001b[32m"hi <there>"\u001b[39m; \u001b[90m// say it\u001b[39m');
  // Every line closes what it opens.
  for (const line of lines) assert.equal((line.match(/\u001b\[(?:3[0-8]|9[0-7])m/g) ?? []).length, (line.match(/\u001b\[39m/g) ?? []).length);
  // A comment over several lines is coloured on each.
  const block = highlightCode("/* one\ntwo */\nx", "javascript");
  assert.deepEqual(block, ["\u001b[90m/* one\u001b[39m", "\u001b[90mtwo */\u001b[39m", "x"]);
});

void test("a block drawn again comes from the cache, and callers cannot spoil it", async () => {
  setTheme(createTheme(1));
  await loadHighlighter();
  const code = Array.from({ length: 50 }, (_, i) => `let v${i} = "s${i}";`).join("\n");
  const first = highlightCode(code, "js");
  first[0] = "spoiled";
  const second = highlightCode(code, "js");
  assert.notEqual(second[0], "spoiled");
  assert.deepEqual(second.map(stripAnsi), code.split("\n"));
  // Another colour level is another entry.
  setTheme(createTheme(0));
  assert.deepEqual(highlightCode(code, "js"), code.split("\n"));
  setTheme(createTheme(1));
  assert.deepEqual(highlightCode(code, "js"), second);
});

const STREAMED = [
  "/**",
  " * A doc comment over",
  " * several lines.",
  " */",
  "export class Greeter<T> {",
  "  private readonly names: string[] = [];",
  "  greet(name: string): string {",
  "    const text = `hello ${name},",
  "and more on the next line`;",
  "    return text.replace(/o+/g, \"0\"); // a regexp",
  "  }",
  "}",
].join("\n");

void test("a block that grows as it streams is coloured as if it came whole", async () => {
  setTheme(createTheme(1));
  await loadHighlighter();
  // Arrives in uneven pieces, some cutting a line (and a token) in two.
  let last: string[] = [];
  for (let end = 7; end < STREAMED.length + 7; end += 7) last = highlightCode(STREAMED.slice(0, end), "ts");
  // "typescript" is another cache entry and another growing block: coloured whole.
  const whole = highlightCode(STREAMED, "typescript");
  assert.deepEqual(last, whole);
  assert.deepEqual(whole.map(stripAnsi), STREAMED.split("\n"));
});

void test("aliases are known; unknown languages, no language and NO_COLOR stay plain", async () => {
  await loadHighlighter();
  setTheme(createTheme(1));
  for (const lang of ["ts", "js", "py", "sh", "bash", "rs", "go", "json", "yaml", "yml", "toml", "html", "diff", "Python"]) assert.ok(knownLanguage(lang), lang);
  assert.equal(knownLanguage("brainfuck"), false);
  assert.deepEqual(highlightCode("x = 1", "brainfuck"), ["x = 1"]);
  assert.deepEqual(highlightCode("x = 1"), ["x = 1"]);
  setTheme(createTheme(0));
  assert.deepEqual(highlightCode("let x = 1;", "js"), ["let x = 1;"]);
});
