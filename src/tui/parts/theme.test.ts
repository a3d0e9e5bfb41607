/* eslint-disable no-control-regex -- the assertions match escape sequences */
import { test } from "node:test";
import assert from "node:assert/strict";
import { colorLevel, createTheme, stripAnsi } from "./theme.js";

// Any colour SGR: 30-37, 39, 40-47, 49, 90-97, 100-107, or an extended 38/48 colour.
const COLOUR_CODE = /\u001b\[(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;

void test("NO_COLOR, TERM=dumb and FORCE_COLOR=0 mean no colour", () => {
  assert.equal(colorLevel({ NO_COLOR: "1", COLORTERM: "truecolor", TERM: "xterm-256color" }), 0);
  assert.equal(colorLevel({ TERM: "dumb" }), 0);
  assert.equal(colorLevel({ FORCE_COLOR: "0", COLORTERM: "truecolor" }), 0);
  // An empty NO_COLOR does not count, as the convention says.
  assert.equal(colorLevel({ NO_COLOR: "", TERM: "xterm" }), 1);
});

void test("the level follows COLORTERM and TERM", () => {
  assert.equal(colorLevel({ TERM: "xterm" }), 1);
  assert.equal(colorLevel({ TERM: "linux" }), 1);
  assert.equal(colorLevel({ TERM: "xterm-256color" }), 2);
  assert.equal(colorLevel({ TERM: "xterm-256color", COLORTERM: "truecolor" }), 3);
  assert.equal(colorLevel({ COLORTERM: "24bit" }), 3);
  assert.equal(colorLevel({ FORCE_COLOR: "2", TERM: "dumb" }), 2);
});

void test("level 0 writes no colour code but keeps attributes", () => {
  const t = createTheme(0);
  const styled = t.fg("error", "x") + t.bg("addedLine", "y") + t.bold(t.fg("accent", "z"));
  assert.doesNotMatch(styled, COLOUR_CODE);
  assert.equal(stripAnsi(styled), "xyz");
  assert.equal(t.bold("b"), "\u001b[1mb\u001b[22m");
});

void test("level 1 uses only the 16 ANSI colours", () => {
  const t = createTheme(1);
  const roles = ["accent", "muted", "success", "error", "warning", "heading", "code", "link", "added", "removed", "match", "user"] as const;
  for (const role of roles) {
    const s = t.fg(role, "x");
    assert.doesNotMatch(s, /\u001b\[[34]8;/, role);
    assert.match(s, /^\u001b\[(3[0-7]|9[0-7])mx\u001b\[39m$/, role);
  }
  assert.equal(t.bg("addedLine", "x"), "x");
});

void test("levels 2 and 3 use 256-colour and RGB codes", () => {
  assert.match(createTheme(2).fg("error", "x"), /^\u001b\[38;5;\d+mx\u001b\[39m$/);
  assert.match(createTheme(3).fg("error", "x"), /^\u001b\[38;2;\d+;\d+;\d+mx\u001b\[39m$/);
  assert.match(createTheme(3).bg("removedLine", "x"), /^\u001b\[48;2;/);
});

void test("nested colours re-open the outer colour after the inner one ends", () => {
  const t = createTheme(1);
  const s = t.fg("muted", `a${t.fg("error", "b")}c`);
  assert.equal(s, "\u001b[90ma\u001b[31mb\u001b[39m\u001b[90mc\u001b[39m");
});

void test("stripAnsi removes CSI, OSC and APC sequences", () => {
  assert.equal(stripAnsi("\u001b[1;31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007\u001b_pi:c\u0007"), "red link");
});
