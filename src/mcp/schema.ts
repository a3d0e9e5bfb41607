/**
 * MCP input schemas turned into the JSON-schema subset tool parameters use. Servers send schemas
 * that lack `type`, use unions, boolean schemas or `integer`; the Responses API wants every node
 * typed, objects with `properties` and arrays with `items`. The repair follows the reference:
 * infer a missing type from the keywords present (properties/required/additionalProperties →
 * object, items → array, enum/const/format → string, numeric bounds → number, else string), take
 * the first known member of a type union, turn `true`/`false` schemas into strings, then keep only
 * the keywords the subset knows. Property names come out sorted, as the reference's ordered map
 * emits them.
 */
import type { JsonSchema } from "../protocol/tool-spec.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const KNOWN_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean"]);

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function has(map: JsonObject, ...keys: string[]): boolean {
  return keys.some((k) => Object.hasOwn(map, k));
}

/** The reference's repair pass, in place on a JSON value (boolean schemas are replaced). */
export function repairSchema(value: Json): Json {
  if (typeof value === "boolean") return { type: "string" };
  if (Array.isArray(value)) return value.map(repairSchema);
  if (!isObject(value)) return value;
  const map = value;
  const props = map.properties;
  if (isObject(props)) for (const key of Object.keys(props)) props[key] = repairSchema(props[key] ?? null);
  if (map.items !== undefined) map.items = repairSchema(map.items);
  for (const combiner of ["oneOf", "anyOf", "allOf", "prefixItems"]) {
    const entry = map[combiner];
    if (entry !== undefined) map[combiner] = repairSchema(entry);
  }
  let type = typeof map.type === "string" ? map.type : undefined;
  if (type === undefined && Array.isArray(map.type)) {
    type = map.type.find((t): t is string => typeof t === "string" && KNOWN_TYPES.has(t));
  }
  if (type === undefined) {
    if (has(map, "properties", "required", "additionalProperties")) type = "object";
    else if (has(map, "items", "prefixItems")) type = "array";
    else if (has(map, "enum", "const", "format")) type = "string";
    else if (has(map, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")) type = "number";
  }
  type ??= "string";
  map.type = type;
  if (type === "object") {
    if (!Object.hasOwn(map, "properties")) map.properties = {};
    const extra = map.additionalProperties;
    if (extra !== undefined && typeof extra !== "boolean") map.additionalProperties = repairSchema(extra);
  }
  if (type === "array" && !Object.hasOwn(map, "items")) map.items = { type: "string" };
  return map;
}

/**
 * Keeps what the tool-parameter subset carries, keys in the fixed order the built-in tools use
 * (type, description, properties/items, enum, required, additionalProperties). `integer` becomes
 * `number`, as the reference's schema type folds them together; tuple `items` keep their first
 * member; a schema-valued `additionalProperties` is dropped (the subset only has booleans, and an
 * absent value is just as permissive).
 */
function project(value: Json): JsonSchema {
  if (!isObject(value)) return { type: "string" };
  const rawType = typeof value.type === "string" ? value.type : "string";
  const type = rawType === "integer" ? "number" : rawType;
  const out: JsonSchema = { type };
  if (typeof value.description === "string") out.description = value.description;
  if (type === "object") {
    const properties: Record<string, JsonSchema> = {};
    const props = isObject(value.properties) ? value.properties : {};
    for (const key of Object.keys(props).sort()) properties[key] = project(props[key] ?? null);
    out.properties = properties;
  }
  if (type === "array") {
    const items = Array.isArray(value.items) ? value.items[0] : value.items;
    out.items = items === undefined ? { type: "string" } : project(items);
  }
  if (Array.isArray(value.enum) && value.enum.length > 0 && value.enum.every((v) => typeof v === "string")) {
    out.enum = value.enum as string[];
  }
  if (type === "object") {
    if (Array.isArray(value.required)) out.required = value.required.filter((r): r is string => typeof r === "string");
    if (typeof value.additionalProperties === "boolean") out.additionalProperties = value.additionalProperties;
  }
  return out;
}

/**
 * The parameters schema for an MCP tool's `inputSchema`. A missing top-level `properties` is
 * added first, as the OpenAI models require it (the Agents SDK does the same).
 */
export function toolParameters(inputSchema: unknown): JsonSchema {
  const copy: Json = isObject(inputSchema) ? (structuredClone(inputSchema) as JsonObject) : { type: "object" };
  if (isObject(copy) && (copy.properties === undefined || copy.properties === null)) copy.properties = {};
  return project(repairSchema(copy));
}
