import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFunctionArguments } from "./argument-check.js";
import { buildToolSpecs } from "./specs.js";
import { modelInfoFor } from "../model/catalog.js";
import type { JsonSchema } from "../protocol/tool-spec.js";

/** The parameters of a built-in tool as offered to `slug`. */
function params(slug: string, name: string): JsonSchema {
  const spec = buildToolSpecs(modelInfoFor(slug)).find((s) => s.type === "function" && s.name === name);
  assert.ok(spec?.type === "function", `${slug} offers ${name}`);
  return spec.parameters;
}

const check = (schema: JsonSchema, args: unknown): string | null =>
  checkFunctionArguments(schema, typeof args === "string" ? args : JSON.stringify(args));

void test("a missing required field is named, in serde's words", () => {
  assert.equal(check(params("gpt-5.5", "exec_command"), { workdir: "." }), "failed to parse function arguments: missing field `cmd`");
  assert.equal(check(params("o3", "shell"), {}), "failed to parse function arguments: missing field `command`");
  assert.equal(check(params("o3", "shell"), ""), "failed to parse function arguments: missing field `command`", "no arguments at all");
});

void test("a wrong type names what came, what was expected, and where", () => {
  assert.equal(
    check(params("gpt-5.5", "exec_command"), { cmd: 5 }),
    "failed to parse function arguments: invalid type: integer `5`, expected a string at `cmd`",
  );
  assert.equal(
    check(params("o3", "shell"), { command: "ls -la" }),
    'failed to parse function arguments: invalid type: string "ls -la", expected a sequence at `command`',
  );
  assert.equal(
    check(params("o3", "shell"), { command: ["ls", 1.5] }),
    "failed to parse function arguments: invalid type: floating point `1.5`, expected a string at `command[1]`",
  );
  assert.equal(
    check(params("gpt-5.5", "write_stdin"), { session_id: "7" }),
    'failed to parse function arguments: invalid type: string "7", expected a number at `session_id`',
  );
  assert.equal(check(params("gpt-5.5", "view_image"), [1]), "failed to parse function arguments: invalid type: sequence, expected an object");
  assert.equal(
    check(params("gpt-5.5", "exec_command"), { cmd: null }),
    "failed to parse function arguments: invalid type: null, expected a string at `cmd`",
  );
});

void test("nested objects and enums are checked, with serde's variant lists", () => {
  const rui = params("gpt-5.5", "request_user_input");
  assert.equal(
    check(rui, { questions: [{ id: "a", header: "A", question: "?" }] }),
    "failed to parse function arguments: missing field `options` at `questions[0]`",
  );
  assert.equal(
    check(rui, { questions: [{ id: "a", header: "A", question: "?", options: [{ label: "x", description: false }] }] }),
    "failed to parse function arguments: invalid type: boolean `false`, expected a string at `questions[0].options[0].description`",
  );
  assert.equal(
    check(params("o3", "update_plan"), { plan: [{ step: "s", status: "done" }] }),
    "failed to parse function arguments: unknown variant `done`, expected one of `pending`, `in_progress`, `completed` at `plan[0].status`",
  );
  assert.equal(
    check(params("o3", "shell"), { command: ["ls"], sandbox_permissions: "sudo" }),
    "failed to parse function arguments: unknown variant `sudo`, expected `use_default` or `require_escalated` at `sandbox_permissions`",
  );
});

void test("what serde would accept passes: unknown fields, null optional fields, fitting calls", () => {
  assert.equal(check(params("gpt-5.5", "view_image"), { path: "a.png", extra: 1 }), null);
  assert.equal(check(params("gpt-5.5", "exec_command"), { cmd: "ls", workdir: null, yield_time_ms: 500 }), null);
  assert.equal(check(params("o3", "update_plan"), { plan: [{ step: "s", status: "pending" }], explanation: "why" }), null);
});

void test("text that is not JSON is reported as such", () => {
  assert.match(check(params("gpt-5.5", "exec_command"), "not json") ?? "", /^failed to parse function arguments: Unexpected token/);
});
