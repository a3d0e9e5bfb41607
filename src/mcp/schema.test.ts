import { test } from "node:test";
import assert from "node:assert/strict";
import { toolParameters } from "./schema.js";

void test("a schema without properties gets an empty properties map", () => {
  assert.deepEqual(toolParameters({ type: "object" }), { type: "object", properties: {} });
  assert.deepEqual(toolParameters(undefined), { type: "object", properties: {} });
});

void test("properties come out sorted, integer reads as number, required and additionalProperties are kept", () => {
  const out = toolParameters({
    type: "object",
    properties: { b: { type: "integer", description: "second" }, a: { type: "string" } },
    required: ["a", "b"],
    additionalProperties: false,
    $schema: "http://json-schema.org/draft-07/schema#",
  });
  assert.equal(JSON.stringify(out), JSON.stringify({
    type: "object",
    properties: { a: { type: "string" }, b: { type: "number", description: "second" } },
    required: ["a", "b"],
    additionalProperties: false,
  }));
});

void test("missing types are inferred from the keywords present, as the reference does", () => {
  const out = toolParameters({
    type: "object",
    properties: {
      choice: { enum: ["a", "b"] },
      count: { minimum: 1 },
      tags: { items: { type: "string" } },
      nested: { properties: { deep: { type: ["integer", "null"] } } },
      anything: true,
      free: {},
      list: { type: "array" },
      tuple: { type: "array", items: [{ type: "string" }, { type: "number" }] },
      map: { type: "object", additionalProperties: { type: "string" } },
    },
  });
  assert.deepEqual(out.properties, {
    anything: { type: "string" },
    choice: { type: "string", enum: ["a", "b"] },
    count: { type: "number" },
    free: { type: "string" },
    list: { type: "array", items: { type: "string" } },
    map: { type: "object", properties: {} },
    nested: { type: "object", properties: { deep: { type: "number" } } },
    tags: { type: "array", items: { type: "string" } },
    tuple: { type: "array", items: { type: "string" } },
  });
});

void test("the input is not modified", () => {
  const input = { type: "object", properties: { x: { enum: ["1"] } } };
  const before = JSON.stringify(input);
  toolParameters(input);
  assert.equal(JSON.stringify(input), before);
});
