import { test } from "node:test";
import assert from "node:assert/strict";
import { mcpArgumentProblem } from "./argument-schema.js";

const SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    a: { type: "integer" },
    b: { anyOf: [{ type: "string" }, { type: "number" }] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["a"],
};

void test("MCP arguments are checked against the server's own schema, naming the field", async () => {
  assert.equal(await mcpArgumentProblem(SCHEMA, '{"b":"x"}'), "failed to parse function arguments: missing field `a`");
  assert.equal(
    await mcpArgumentProblem(SCHEMA, '{"a":1.5}'),
    "failed to parse function arguments: invalid type: floating point `1.5`, expected an integer at `a`",
  );
  assert.equal(
    await mcpArgumentProblem(SCHEMA, '{"a":1,"tags":["x",2]}'),
    "failed to parse function arguments: invalid type: integer `2`, expected a string at `tags[1]`",
  );
  // A union the model was offered as a plain string still takes a number, as the server does.
  assert.equal(await mcpArgumentProblem(SCHEMA, '{"a":1,"b":2}'), null);
});

void test("calls go through unchecked when there is nothing to check against or nothing to check", async () => {
  assert.equal(await mcpArgumentProblem(SCHEMA, ""), null, "no arguments: the server decides");
  assert.equal(await mcpArgumentProblem(SCHEMA, "{not json"), null, "the handler reports unparseable arguments");
  assert.equal(await mcpArgumentProblem(undefined, '{"x":1}'), null);
  // A schema Ajv cannot compile is not a reason to refuse calls.
  assert.equal(await mcpArgumentProblem({ type: "object", properties: { x: { $ref: "#/definitions/missing" } } }, '{"x":1}'), null);
  assert.equal(await mcpArgumentProblem({ type: "object", properties: { url: { type: "string", format: "uri" } } }, '{"url":"not a uri"}'), null);
});

void test("draft 2020-12 schemas are understood", async () => {
  const schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } },
    required: ["pair"],
  };
  assert.equal(await mcpArgumentProblem(schema, '{"pair":["a",1]}'), null);
  assert.equal(
    await mcpArgumentProblem(schema, '{"pair":[1,1]}'),
    "failed to parse function arguments: invalid type: integer `1`, expected a string at `pair[0]`",
  );
});
