/**
 * Checks what an app-server sends against the reference's own JSON Schema (test/fixtures/
 * app-server-schema): notifications against `ServerNotification`, server requests against
 * `ServerRequest`, responses against the response type of the method they answer (named after
 * the method's params type, as the schema pairs them), errors against `JSONRPCError`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";

const FOLDER = fileURLToPath(new URL("../../../test/fixtures/app-server-schema/", import.meta.url));

type Json = Record<string, unknown>;

function load(name: string): Json {
  return JSON.parse(readFileSync(FOLDER + name, "utf8")) as Json;
}

/** Responses whose type is not named after the params (`XParams` → `XResponse`). */
const RESPONSE_OF: Record<string, string> = {
  "config/value/write": "ConfigWriteResponse",
  "config/batchWrite": "ConfigWriteResponse",
  "account/logout": "LogoutAccountResponse",
  "config/mcpServer/reload": "McpServerRefreshResponse",
};

export class ProtocolSchema {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  /** Each notification's and server request's params type, by method. */
  private readonly notifications = new Map<string, ValidateFunction>();
  private readonly serverRequests = new Map<string, ValidateFunction>();
  private readonly error: ValidateFunction;
  private readonly responses = new Map<string, ValidateFunction>();
  private readonly responseNames = new Map<string, string>();

  constructor() {
    const v2 = load("codex_app_server_protocol.v2.schemas.json");
    this.ajv.addSchema(v2, "v2");
    const requestSchema = load("ServerRequest.json");
    this.ajv.addSchema(requestSchema, "requests");
    this.paramsByMethod((v2.definitions as Record<string, { oneOf: Json[] }>).ServerNotification?.oneOf ?? [], "v2", this.notifications);
    this.paramsByMethod((requestSchema as { oneOf: Json[] }).oneOf, "requests", this.serverRequests);
    this.error = this.ajv.compile(load("JSONRPCError.json"));
    this.responses.set("initialize", this.ajv.compile(load("InitializeResponse.json")));
    this.responses.set("fuzzyFileSearch", this.ajv.compile(load("FuzzyFileSearchResponse.json")));
    // The session form is experimental: outside the stable bundle, in files of its own.
    for (const step of ["Start", "Update", "Stop"]) this.responses.set(`fuzzyFileSearch/session${step}`, this.ajv.compile(load(`FuzzyFileSearchSession${step}Response.json`)));
    const defs = v2.definitions as Record<string, Json>;
    const requests = (defs.ClientRequest as { oneOf: Json[] }).oneOf;
    for (const variant of requests) {
      const props = variant.properties as Record<string, Json>;
      const method = (props.method as { enum: string[] }).enum[0] ?? "";
      const ref = JSON.stringify(props.params ?? {}).match(/#\/definitions\/(\w+)Params/)?.[1];
      const name = RESPONSE_OF[method] ?? (ref ? `${ref}Response` : null);
      if (name && defs[name]) this.responseNames.set(method, name);
    }
  }

  private paramsByMethod(variants: Json[], schemaId: string, into: Map<string, ValidateFunction>): void {
    for (const variant of variants) {
      const props = variant.properties as Record<string, Json>;
      const method = (props.method as { enum: string[] }).enum[0] ?? "";
      const ref = (props.params as { $ref?: string }).$ref;
      if (ref) into.set(method, this.ref(`${schemaId}${ref}`));
    }
  }

  private ref(ref: string): ValidateFunction {
    const fn = this.ajv.getSchema(ref);
    if (!fn) throw new Error(`no schema at ${ref}`);
    return fn;
  }

  /** Whether the reference's schema knows a response type for this method. */
  hasResponse(method: string): boolean {
    return this.responses.has(method) || this.responseNames.has(method);
  }

  /**
   * What is wrong with one message the server sent (empty when it fits). `method` is the method
   * of the request a response answers; a response to a method the schema does not have (one of
   * our additions) is checked as a JSON-RPC response only.
   */
  check(message: Json, method?: string): string[] {
    if (typeof message.method === "string") {
      const isRequest = "id" in message;
      const fn = (isRequest ? this.serverRequests : this.notifications).get(message.method);
      if (!fn) return [`the reference's schema has no ${isRequest ? "server request" : "notification"} \`${message.method}\``];
      if (isRequest && typeof message.id !== "number" && typeof message.id !== "string") return [`server request ${message.method} without a usable id`];
      return fn(message.params) ? [] : this.errors(fn, message.params);
    }
    if ("error" in message) return this.error(message) ? [] : this.errors(this.error, message);
    if (!("result" in message)) return [`neither a notification, a request nor a response: ${JSON.stringify(message).slice(0, 200)}`];
    if (method === undefined) return [`a response to no request we sent: ${JSON.stringify(message).slice(0, 200)}`];
    let fn = this.responses.get(method);
    if (!fn) {
      const name = this.responseNames.get(method);
      if (!name) return [];
      fn = this.ref(`v2#/definitions/${name}`);
      this.responses.set(method, fn);
    }
    return fn(message.result) ? [] : this.errors(fn, message.result);
  }

  private errors(fn: ValidateFunction, value: unknown): string[] {
    const details = (fn.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
    return [`${JSON.stringify(value).slice(0, 300)}\n    ${details.join("\n    ")}`];
  }
}
