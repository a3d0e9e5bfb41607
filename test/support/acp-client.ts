/**
 * An ACP client for end-to-end tests: the SDK's client app connected to the real `codex-ts acp`
 * running as a child process, with every message either side sends checked against the ACP JSON
 * Schema the SDK ships (ajv, draft 2020-12): the message as a whole, and its params or result
 * against the definition of its method (a response against the response of the request it
 * answers). The client's side is checked too, so a test cannot pass by sending what no editor
 * could. What does not fit is collected in `violations`, which tests expect to stay empty.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PassThrough, Readable, Writable } from "node:stream";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import {
  client,
  ndJsonStream,
  type ClientCapabilities,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type McpServer,
  type ReadTextFileRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
  type WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { CLI_PATH, testEnv, type Workspace } from "./cli.js";
import type { ModelServer } from "./model-server.js";

type Json = Record<string, unknown>;

interface SchemaDefinition extends Json {
  "x-side"?: string;
  "x-method"?: string;
}

type Side = "agent" | "client";

/**
 * Methods a party may send that the stable schema does not define, each with why it is allowed:
 * `session/set_model` is the model picker of clients from before config options, which the agent
 * still serves (the tests send it as such a client would).
 */
const SERVED_LEGACY_METHODS: Record<Side, ReadonlySet<string>> = { agent: new Set(), client: new Set(["session/set_model"]) };

/** Compiled checks for the messages one side of the protocol sends. */
class SideSchema {
  private readonly message: ValidateFunction;
  private readonly protocolLevel: ValidateFunction;
  private readonly error: ValidateFunction;
  /** Requests and notifications this side sends, by method. */
  private readonly outgoing = new Map<string, ValidateFunction>();
  /** Results this side answers with, by the method of the request. */
  private readonly results = new Map<string, ValidateFunction>();

  constructor(
    ajv: Ajv2020,
    schema: { $defs: Record<string, SchemaDefinition> },
    private readonly side: Side,
  ) {
    const ref = (name: string): ValidateFunction => ajv.getSchema(`acp#/$defs/${name}`) as ValidateFunction;
    // The schema's top level: anyOf [agent message, client message, protocol-level notification].
    this.message = ajv.getSchema(`acp#/anyOf/${side === "agent" ? 0 : 1}`) as ValidateFunction;
    this.protocolLevel = ajv.getSchema("acp#/anyOf/2") as ValidateFunction;
    this.error = ref("Error");
    // `x-side` names the side that handles a method: what this side sends is handled by the other.
    const other: Side = side === "agent" ? "client" : "agent";
    for (const [name, def] of Object.entries(schema.$defs)) {
      const method = def["x-method"];
      if (method === undefined) continue;
      if (def["x-side"] === other && /(Request|Notification)$/.test(name)) this.outgoing.set(method, ref(name));
      if (def["x-side"] === side && name.endsWith("Response")) this.results.set(method, ref(name));
    }
  }

  /** What is wrong with one message this side sent (empty when nothing); `requestMethod` names the request a response answers. */
  check(message: Json, requestMethod: string | undefined): string[] {
    const problems: string[] = [];
    const method = typeof message.method === "string" ? message.method : undefined;
    if (method !== undefined && SERVED_LEGACY_METHODS[this.side].has(method)) return problems;
    const whole = method?.startsWith("$/") ? this.protocolLevel : this.message;
    if (!whole(message)) problems.push(`not an ACP ${this.side} message: ${ajvErrors(whole)}`);
    if (method !== undefined) {
      if (method.startsWith("$/")) return problems;
      const params = this.outgoing.get(method);
      if (!params) problems.push(`the ${this.side} sent ${method}, which ACP v1 does not define for it`);
      else if (!params(message.params)) problems.push(`${method} params: ${ajvErrors(params)}`);
    } else if ("error" in message) {
      if (!this.error(message.error)) problems.push(`error response: ${ajvErrors(this.error)}`);
    } else if (requestMethod !== undefined) {
      const result = this.results.get(requestMethod);
      if (result && !result(message.result)) problems.push(`${requestMethod} result: ${ajvErrors(result)}`);
    }
    return problems;
  }
}

/** Both sides' checks, compiled once from the ACP JSON Schema the SDK ships. */
function compileSchemas(): Record<Side, SideSchema> {
  const path = createRequire(import.meta.url).resolve("@agentclientprotocol/sdk/schema/v1/schema.json");
  const schema = JSON.parse(readFileSync(path, "utf8")) as { $defs: Record<string, SchemaDefinition> };
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  // Annotations the schema carries for its generators, not constraints.
  for (const keyword of ["x-side", "x-method", "x-docs-ignore", "x-deserialize-default-on-error", "x-deserialize-default-on-null", "x-deserialize-skip-invalid-items", "discriminator"]) {
    ajv.addKeyword(keyword);
  }
  const integer = (min: number, max: number) => ({ type: "number" as const, validate: (n: number) => Number.isInteger(n) && n >= min && n <= max });
  ajv.addFormat("int32", integer(-(2 ** 31), 2 ** 31 - 1));
  ajv.addFormat("int64", integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
  ajv.addFormat("uint16", integer(0, 2 ** 16 - 1));
  ajv.addFormat("uint32", integer(0, 2 ** 32 - 1));
  ajv.addFormat("uint64", integer(0, Number.MAX_SAFE_INTEGER));
  ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat("uri", (s: string) => URL.canParse(s));
  ajv.addSchema(schema, "acp");
  return { agent: new SideSchema(ajv, schema, "agent"), client: new SideSchema(ajv, schema, "client") };
}

function ajvErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 6)
    .map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`)
    .join("; ");
}

let schemas: Record<Side, SideSchema> | null = null;

export interface AcpClientOptions {
  cwd: string;
  home: string;
  env?: Record<string, string | undefined>;
  /** Extra arguments after `acp`. */
  args?: string[];
  /** Advertised in `initialize` (by the test's own calls); the handlers below answer what they allow. */
  capabilities?: ClientCapabilities;
  /** Answers `session/request_permission`; by default the first option of kind allow_once. */
  permission?: (request: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  readTextFile?: (request: ReadTextFileRequest) => string | Promise<string>;
  writeTextFile?: (request: WriteTextFileRequest) => void | Promise<void>;
  elicitation?: (request: CreateElicitationRequest) => CreateElicitationResponse | Promise<CreateElicitationResponse>;
}

export interface AcpTestClient {
  connection: ClientConnection;
  child: ChildProcessWithoutNullStreams;
  /** Every `session/update`, in arrival order. */
  updates: SessionNotification[];
  /** Every raw message the agent sent, in order. */
  received: Json[];
  permissions: RequestPermissionRequest[];
  violations: string[];
  stderr(): string;
  /** Closes stdin and waits for the agent to exit. */
  close(): Promise<number | null>;
}

export function startAcpClient(options: AcpClientOptions): AcpTestClient {
  schemas ??= compileSchemas();
  const schema = schemas;
  const child = spawn(process.execPath, [CLI_PATH, "acp", ...(options.args ?? [])], { cwd: options.cwd, env: testEnv(options.home, options.env), stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const updates: SessionNotification[] = [];
  const received: Json[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const violations: string[] = [];
  /** The methods of each side's requests, by id, to check each answer against its own schema. */
  const clientRequests = new Map<string, string>();
  const agentRequests = new Map<string, string>();
  /** Where a message goes wrong; `method` requests are remembered so their answers are checked too. */
  const check = (side: Side, message: Json, line: string): void => {
    const mine = side === "agent" ? agentRequests : clientRequests;
    const theirs = side === "agent" ? clientRequests : agentRequests;
    const answers = "id" in message && message.method === undefined ? String(message.id) : undefined;
    if (typeof message.method === "string" && "id" in message) mine.set(String(message.id), message.method);
    for (const problem of schema[side].check(message, answers === undefined ? undefined : theirs.get(answers))) violations.push(`${side}: ${problem}\n  in ${line.slice(0, 400)}`);
  };

  const fromAgent = new PassThrough();
  let pending = "";
  child.stdout.on("data", (d: Buffer) => {
    pending += d.toString();
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
      if (line.trim() === "") continue;
      let message: Json;
      try {
        message = JSON.parse(line) as Json;
      } catch {
        violations.push(`not JSON on stdout: ${line.slice(0, 200)}`);
        continue;
      }
      received.push(message);
      check("agent", message, line);
      fromAgent.write(`${line}\n`);
    }
  });
  child.stdout.on("end", () => fromAgent.end());

  let outgoing = "";
  const toAgent = new Writable({
    write(chunk: Buffer, _encoding, done) {
      outgoing += chunk.toString();
      let newline = outgoing.indexOf("\n");
      while (newline >= 0) {
        const line = outgoing.slice(0, newline);
        outgoing = outgoing.slice(newline + 1);
        newline = outgoing.indexOf("\n");
        check("client", JSON.parse(line) as Json, line);
      }
      if (child.stdin.writable) child.stdin.write(chunk, done);
      else done();
    },
    final(done) {
      child.stdin.end();
      done();
    },
  });

  const app = client({ name: "codex-ts e2e client" })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
    })
    .onRequest("session/request_permission", async ({ params }) => {
      permissions.push(params);
      if (options.permission) return options.permission(params);
      const allow = params.options.find((o) => o.kind === "allow_once");
      return { outcome: allow ? { outcome: "selected", optionId: allow.optionId } : { outcome: "cancelled" } };
    })
    .onRequest("fs/read_text_file", async ({ params }) => {
      if (!options.readTextFile) throw new Error("this client reads no files");
      return { content: await options.readTextFile(params) };
    })
    .onRequest("fs/write_text_file", async ({ params }) => {
      if (!options.writeTextFile) throw new Error("this client writes no files");
      await options.writeTextFile(params);
      return {};
    })
    .onRequest("elicitation/create", async ({ params }) => {
      if (!options.elicitation) return { action: "decline" };
      return options.elicitation(params);
    });
  const connection = app.connect(ndJsonStream(Writable.toWeb(toAgent) as WritableStream<Uint8Array>, Readable.toWeb(fromAgent) as ReadableStream<Uint8Array>));

  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    connection,
    child,
    updates,
    received,
    permissions,
    violations,
    stderr: () => stderr,
    close: async () => {
      connection.close();
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The text of the agent's message chunks among `updates` (from index `from` on). */
export function agentText(updates: readonly SessionNotification[], from = 0): string {
  return updates
    .slice(from)
    .map((n) => n.update)
    .flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []))
    .join("");
}

/** config.toml pointing the built-in provider at the scripted server, plus `extra` lines. */
export function configFor(server: ModelServer, extra = ""): string {
  return `openai_base_url = "${server.url}"\n${extra}`;
}

/** Starts the agent, initializes it and opens a session in the workspace. */
export async function openSession(ws: Workspace, options: Partial<AcpClientOptions> = {}, mcpServers: McpServer[] = []): Promise<{ acp: AcpTestClient; sessionId: string }> {
  const acp = startAcpClient({ cwd: ws.dir, home: ws.home, ...options });
  await acp.connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: options.capabilities ?? {} });
  const session = await acp.connection.agent.request("session/new", { cwd: ws.dir, mcpServers });
  return { acp, sessionId: session.sessionId };
}

export function updatesOf(acp: AcpTestClient, from = 0): SessionUpdate[] {
  return acp.updates.slice(from).map((n: SessionNotification) => n.update);
}

export type CallUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

/** The tool_call and tool_call_update notifications about one call, in order. */
export function callUpdates(updates: readonly SessionUpdate[], id: string): CallUpdate[] {
  return updates.filter((u): u is CallUpdate => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === id);
}

/** Runs `body`, then checks the agent kept to the schema and the model server saw well-formed requests. */
export async function checked(acp: AcpTestClient, server: ModelServer, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    assert.deepEqual(acp.violations, [], "every agent message fits the ACP schema");
    assert.deepEqual(server.violations, []);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nagent stderr:\n${acp.stderr()}`, { cause: err });
  } finally {
    await acp.close();
  }
}
