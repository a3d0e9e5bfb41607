import { test } from "node:test";
import assert from "node:assert/strict";
import { bashParserLoads, withBashTree, type Node } from "./bash-parser.js";

function types(node: Node): string[] {
  return [node.type, ...node.namedChildren.flatMap((child) => (child ? types(child) : []))];
}

// Runs first: nothing may be loaded merely by importing the module.
void test("importing the module does not load the grammar", () => {
  assert.equal(bashParserLoads(), 0);
});

void test("parses a simple script into bash node types", async () => {
  const seen = await withBashTree("ls -la | grep foo", (root) => ({ types: types(root), hasError: root.hasError }));
  assert.deepEqual(seen, {
    hasError: false,
    types: ["program", "pipeline", "command", "command_name", "word", "word", "command", "command_name", "word", "word"],
  });
});

void test("reuses the cached parser and reports syntax errors to the caller", async () => {
  const [first, second] = await Promise.all([
    withBashTree("echo 'hi'", (root) => root.namedChild(0)?.type),
    withBashTree("if then ((", (root) => root.hasError),
  ]);
  assert.equal(first, "command");
  assert.equal(second, true);
  assert.equal(bashParserLoads(), 1);
});

void test("node text is correct for non-ASCII source", async () => {
  const text = await withBashTree("echo 'é😀' x", (root) => root.namedChild(0)?.childrenForFieldName("argument")[1]?.text);
  assert.equal(text, "x");
});
