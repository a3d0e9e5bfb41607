/**
 * Checking an MCP tool call's arguments before it goes to the server. The model is offered a
 * simplified copy of the tool's input schema (schema.ts), so the check uses the server's own
 * schema instead: a call the server would accept is never refused because the copy lost a union
 * or a bound. Ajv does the work; it is loaded on the first check (sessions with MCP servers
 * already load it through the MCP SDK) and each schema is compiled once. A schema Ajv cannot
 * compile (an unknown draft, a broken $ref) is simply not checked: the server still is.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { ARGUMENTS_ERROR_PREFIX, at, invalidType } from "../tools/argument-check.js";

type Validator = ValidateFunction | null;

interface Compilers {
  draft7: { compile(schema: object): ValidateFunction };
  draft2020: { compile(schema: object): ValidateFunction };
}

let compilers: Promise<Compilers> | null = null;
/** Keyed by the server's schema object, which lives as long as the server's tool list. */
const compiled = new WeakMap<object, Validator>();

function loadCompilers(): Promise<Compilers> {
  // Ajv is CommonJS: the classes are taken from its module.exports (the namespace's default), the
  // one shape Node's loader and the bundle's split chunks both give a dynamic import of it.
  compilers ??= Promise.all([import("ajv"), import("ajv/dist/2020.js")]).then(([draft7, draft2020]) => {
    // Unknown keywords and formats are a server's business, never a reason to refuse a call; and
    // the core must not write to the console, which Ajv does for warnings unless told otherwise.
    const options = { strict: false, validateFormats: false, allErrors: false, logger: false } as const;
    return { draft7: new draft7.default.Ajv(options), draft2020: new draft2020.default.Ajv2020(options) };
  });
  return compilers;
}

async function validatorFor(schema: object): Promise<Validator> {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  const { draft7, draft2020 } = await loadCompilers();
  const dialect = (schema as { $schema?: unknown }).$schema;
  let validator: Validator;
  try {
    validator = (typeof dialect === "string" && dialect.includes("2020-12") ? draft2020 : draft7).compile(schema);
  } catch {
    validator = null;
  }
  compiled.set(schema, validator);
  return validator;
}

/**
 * The problem with `raw` for the server's `inputSchema`, or null when it fits, when there are no
 * arguments, or when they are not JSON (the tool handler reports that, as the reference does).
 */
export async function mcpArgumentProblem(inputSchema: unknown, raw: string): Promise<string | null> {
  if (typeof inputSchema !== "object" || inputSchema === null || raw.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
  const validate = await validatorFor(inputSchema);
  if (!validate || validate(value)) return null;
  const error = validate.errors?.[0];
  return ARGUMENTS_ERROR_PREFIX + (error ? describeError(error, value) : "the arguments do not match the tool's input schema");
}

/** One Ajv error in the words the built-in tools use, naming the field. */
function describeError(error: ErrorObject, root: unknown): string {
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  switch (error.keyword) {
    case "required":
      return `missing field \`${String((error.params as { missingProperty?: unknown }).missingProperty)}\`${at(path)}`;
    case "type":
      return invalidType(valueAt(root, path), String((error.params as { type?: unknown }).type), path);
    default:
      return `${error.message ?? "does not match the schema"}${at(path)}`;
  }
}

function valueAt(root: unknown, path: Array<string | number>): unknown {
  let value = root;
  for (const part of path) value = (value as Record<string | number, unknown> | null)?.[part];
  return value;
}
