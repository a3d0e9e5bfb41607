import { test } from "node:test";
import assert from "node:assert/strict";
import { withFormDefaults } from "./form-defaults.js";

void test("accepted forms get the defaults of the fields left empty; given values win", () => {
  const schema = { type: "object", properties: { a: { type: "string", default: "x" }, b: { type: "number", default: 2 }, c: { type: "boolean" } } };
  assert.deepEqual(withFormDefaults(schema, undefined), { a: "x", b: 2 });
  assert.deepEqual(withFormDefaults(schema, { b: 5 }), { a: "x", b: 5 });
  assert.deepEqual(withFormDefaults({ type: "object", properties: { c: { type: "boolean" } } }, undefined), undefined);
  assert.deepEqual(withFormDefaults(undefined, { z: 1 }), { z: 1 });
});
