import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError } from "./overrides.js";
import { parseTomlFile } from "./toml-errors.js";

/** The first line of the error `text` raises in config.toml. */
function problem(text: string): string {
  try {
    parseTomlFile("/h/config.toml", text);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message.split("\n")[0] ?? "";
  }
  assert.fail(`parsed without error: ${JSON.stringify(text)}`);
}

void test("an unclosed table header says ']' is expected, at the end of the header line", () => {
  assert.equal(problem('model = "a"\n[tui\nanimations = true\n'), "/h/config.toml:2:5: invalid TOML: unclosed table header, expected ']'");
  assert.equal(problem("[tui"), "/h/config.toml:1:5: invalid TOML: unclosed table header, expected ']'");
  assert.equal(problem("[[skills.config]\npath = 'x'\n"), "/h/config.toml:1:17: invalid TOML: unclosed array-of-tables header, expected ']]'");
});

void test("a key with no value, or with an unquoted word, says what is missing", () => {
  assert.equal(problem("model = \n"), "/h/config.toml:1:9: invalid TOML: missing value after '='");
  assert.equal(problem("model =   # to do\n"), "/h/config.toml:1:11: invalid TOML: missing value after '='");
  assert.equal(problem("model = o3\n"), '/h/config.toml:1:9: invalid TOML: string values must be quoted: write "o3"');
  assert.equal(problem("hide_agent_reasoning = True\n"), "/h/config.toml:1:24: invalid TOML: booleans are written in lower case: true");
  assert.equal(problem('model "o3"\n'), "/h/config.toml:1:7: invalid TOML: missing '=' after the key 'model'");
});

void test("an unterminated string names the missing quote", () => {
  assert.equal(problem('model = "o3\nsandbox_mode = "read-only"\n'), "/h/config.toml:1:12: invalid TOML: unterminated string, expected a closing \" before the end of the line");
  assert.equal(problem("model = 'o3\n"), "/h/config.toml:1:12: invalid TOML: unterminated string, expected a closing ' before the end of the line");
  assert.equal(problem('developer_instructions = """be brief\n'), '/h/config.toml:1:26: invalid TOML: unterminated multi-line string, expected a closing """');
});

void test("a duplicate key or table is named", () => {
  assert.equal(problem('model = "a"\nmodel = "b"\n'), "/h/config.toml:2:1: invalid TOML: duplicate key 'model': it is already set");
  assert.equal(problem("[tui]\n[tui]\n"), "/h/config.toml:2:2: invalid TOML: duplicate table [tui]: it is already defined above");
  assert.equal(problem("x = { a = 1, a = 2 }\n"), "/h/config.toml:1:14: invalid TOML: duplicate key 'a' in this inline table: it is already set");
});

void test("arrays and inline tables left open, or missing a comma", () => {
  assert.equal(problem('notify = ["a", "b"\nmodel = "x"\n'), "/h/config.toml:1:10: invalid TOML: unclosed array, expected ']'");
  assert.equal(problem('notify = ["a" "b"]\n'), "/h/config.toml:1:15: invalid TOML: expected ',' or ']' in the array");
  assert.equal(problem("env = { A = '1'\n"), "/h/config.toml:1:7: invalid TOML: unclosed inline table, expected '}' on the same line (inline tables cannot span lines)");
  assert.equal(problem("env = { A = '1' B = '2' }\n"), "/h/config.toml:1:17: invalid TOML: expected ',' or '}' in the inline table");
});

void test("other mistakes in plain words", () => {
  assert.equal(problem('model = "a" "b"\n'), "/h/config.toml:1:13: invalid TOML: unexpected text after the value: put each `key = value` on a line of its own");
  assert.equal(problem('mo@del = "a"\n'), "/h/config.toml:1:3: invalid TOML: '@' cannot appear in a bare key: put the key in quotes, e.g. \"mo@del\"");
  assert.equal(problem('x = "a\\qb"\n'), "/h/config.toml:1:8: invalid TOML: unknown escape sequence '\\q' in a string: write \\\\ for a backslash, or use a 'literal string'");
  assert.equal(problem("x = 012\n"), "/h/config.toml:1:5: invalid TOML: a number cannot start with 0 (write it without the leading zero, or quote it as a string)");
  assert.equal(problem("x = 1_\n"), "/h/config.toml:1:5: invalid TOML: malformed number");
  assert.equal(problem("x = 99999999999999999999\n"), "/h/config.toml:1:5: invalid TOML: integer too large (beyond ±9007199254740991)");
  assert.equal(problem("[a.]\n"), "/h/config.toml:1:4: invalid TOML: invalid table name in the header (a name part is empty or has a character that needs quotes)");
  assert.equal(problem(" = 1\n"), "/h/config.toml:1:2: invalid TOML: missing key: a key (or a part of a dotted key) is empty");
});

void test("the message shows the offending line with a caret under the column", () => {
  assert.throws(
    () => parseTomlFile("/h/config.toml", 'model = "a"\n\tmodel_provider = \n'),
    (err: Error) => {
      assert.equal(err.message, ["/h/config.toml:2:19: invalid TOML: missing value after '='", "  2 |  model_provider = ", `    | ${" ".repeat(18)}^`].join("\n"));
      return true;
    },
  );
});

void test("valid TOML parses", () => {
  assert.deepEqual({ ...parseTomlFile("/h/config.toml", 'model = "o3"\n') }, { model: "o3" });
});
