/**
 * Checks a function call's arguments against the parameters schema the model was offered, before
 * any handler runs, and explains the first problem in one line that names the field.
 *
 * The wording follows the reference, whose handlers deserialize arguments with serde: "missing
 * field `cmd`", "invalid type: integer `5`, expected a string", "unknown variant `x`, expected
 * `a` or `b`", all after "failed to parse function arguments: ". Where serde gives a line and
 * column we give the field's path instead (`questions[0].options`), which says more.
 *
 * As with serde, a field the schema does not list is ignored rather than refused, and an optional
 * field may be null (an absent value). Offered schemas only use the subset `JsonSchema` describes
 * (type, properties, required, items, enum), so this covers all of it; no schema library is
 * loaded for the built-in tools.
 */
import type { JsonSchema } from "../protocol/tool-spec.js";
import { errorMessage } from "../util/errors.js";

export const ARGUMENTS_ERROR_PREFIX = "failed to parse function arguments: ";

/** The problem with `raw` (a function call's JSON arguments) for `schema`, or null when it fits. */
export function checkFunctionArguments(schema: JsonSchema, raw: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(raw.trim() === "" ? "{}" : raw) as unknown;
  } catch (err) {
    return ARGUMENTS_ERROR_PREFIX + errorMessage(err);
  }
  const problem = schemaProblem(schema, value, []);
  return problem === null ? null : ARGUMENTS_ERROR_PREFIX + problem;
}

type Path = Array<string | number>;

/** The first mismatch between `value` and `schema`, worded like serde, or null. */
export function schemaProblem(schema: JsonSchema, value: unknown, path: Path): string | null {
  switch (schema.type) {
    case "object": {
      if (!isPlainObject(value)) return invalidType(value, "object", path);
      for (const key of schema.required ?? []) {
        if (value[key] === undefined) return `missing field \`${key}\`${at(path)}`;
      }
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        const field = value[key];
        if (field === undefined) continue;
        // serde reads a null optional field as absent; a required one must hold a value.
        if (field === null && !(schema.required ?? []).includes(key)) continue;
        const problem = schemaProblem(child, field, [...path, key]);
        if (problem !== null) return problem;
      }
      return null;
    }
    case "array": {
      if (!Array.isArray(value)) return invalidType(value, "array", path);
      if (!schema.items) return null;
      for (let i = 0; i < value.length; i++) {
        const problem = schemaProblem(schema.items, value[i] as unknown, [...path, i]);
        if (problem !== null) return problem;
      }
      return null;
    }
    case "string":
      if (typeof value !== "string") return invalidType(value, "string", path);
      if (schema.enum && !schema.enum.includes(value)) return `unknown variant \`${value}\`, expected ${oneOf(schema.enum)}${at(path)}`;
      return null;
    case "number":
      return typeof value === "number" ? null : invalidType(value, "number", path);
    case "boolean":
      return typeof value === "boolean" ? null : invalidType(value, "boolean", path);
    default:
      return null;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function invalidType(value: unknown, type: string, path: Path): string {
  return `invalid type: ${describeValue(value)}, expected ${EXPECTED[type] ?? type}${at(path)}`;
}

/** A JSON-schema type as the "expected …" part of an error. */
const EXPECTED: Record<string, string> = {
  object: "an object",
  array: "a sequence",
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  null: "null",
};

/** A JSON value as serde names it in "invalid type" errors. */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (typeof value === "number") return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return "sequence";
  return "map";
}

/** serde's list of expected variants: "`a`", "`a` or `b`", "one of `a`, `b`, `c`". */
function oneOf(values: string[]): string {
  const quoted = values.map((v) => `\`${v}\``);
  if (quoted.length <= 2) return quoted.join(" or ");
  return `one of ${quoted.join(", ")}`;
}

/** " at `questions[0].id`" for a nested field; "" at the top level. */
export function at(path: Path): string {
  if (path.length === 0) return "";
  const text = path.map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? part : `.${part}`)).join("");
  return ` at \`${text}\``;
}
