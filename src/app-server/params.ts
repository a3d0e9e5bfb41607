/**
 * Reading a request's params with the reference's wording for what does not fit
 * ("Invalid request: missing field `threadId`", "… invalid type: …"), so a client sees which
 * field is wrong and the server goes on serving.
 */
import { invalidRequest } from "../app-server-protocol/jsonrpc.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const describe = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "a sequence" : typeof v === "object" ? "a map" : `${typeof v} ${JSON.stringify(v)}`);

export class Params {
  private readonly fields: Json;

  /** Absent or null params read as `{}` (every field then missing). */
  constructor(raw: unknown) {
    if (raw !== undefined && raw !== null && !isObject(raw)) throw invalidRequest(`Invalid request: params must be an object, not ${describe(raw)}`);
    this.fields = raw ?? {};
  }

  has(key: string): boolean {
    return this.fields[key] !== undefined && this.fields[key] !== null;
  }

  raw(key: string): unknown {
    return this.fields[key];
  }

  string(key: string): string {
    const v = this.fields[key];
    if (v === undefined) throw invalidRequest(`Invalid request: missing field \`${key}\``);
    if (typeof v !== "string") throw invalidRequest(`Invalid request: invalid type: ${describe(v)}, expected a string for \`${key}\``);
    return v;
  }

  optionalString(key: string): string | undefined {
    return this.has(key) ? this.string(key) : undefined;
  }

  optionalBoolean(key: string): boolean | undefined {
    const v = this.fields[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "boolean") throw invalidRequest(`Invalid request: invalid type: ${describe(v)}, expected a boolean for \`${key}\``);
    return v;
  }

  optionalInteger(key: string, min = 0): number | undefined {
    const v = this.fields[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min) throw invalidRequest(`Invalid request: invalid value: ${describe(v)}, expected an integer of at least ${min} for \`${key}\``);
    return v;
  }

  array(key: string): unknown[] {
    const v = this.fields[key];
    if (v === undefined) throw invalidRequest(`Invalid request: missing field \`${key}\``);
    if (!Array.isArray(v)) throw invalidRequest(`Invalid request: invalid type: ${describe(v)}, expected a sequence for \`${key}\``);
    return v;
  }

  optionalStrings(key: string): string[] | undefined {
    if (!this.has(key)) return undefined;
    const list = this.array(key);
    if (!list.every((s) => typeof s === "string")) throw invalidRequest(`Invalid request: \`${key}\` must be a list of strings`);
    return list as string[];
  }

  /** One of `allowed`, or undefined when absent or null. */
  optionalEnum<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const v = this.fields[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "string" && (allowed as readonly string[]).includes(v)) return v as T;
    throw invalidRequest(`Invalid request: unknown variant ${JSON.stringify(v)} for \`${key}\`, expected one of ${allowed.map((a) => `\`${a}\``).join(", ")}`);
  }

  optionalObject(key: string): Json | undefined {
    const v = this.fields[key];
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) throw invalidRequest(`Invalid request: invalid type: ${describe(v)}, expected a map for \`${key}\``);
    return v;
  }
}
