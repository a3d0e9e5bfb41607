/**
 * The three resource tools. Each answers with compact JSON, in the reference's shapes:
 *   list_mcp_resources          {"server"?, "resources": [{"server", …resource}], "nextCursor"?}
 *   list_mcp_resource_templates {"server"?, "resourceTemplates": [{"server", …template}], "nextCursor"?}
 *   read_mcp_resource           {"server", "uri", "contents": […]}
 * Without `server` the lists cover every server that started (all pages, servers in name order);
 * a cursor only makes sense for one server. Each call is reported as an MCP tool call (invocation
 * server "codex" when no server was named) whose result is the JSON text.
 */
import { performance } from "node:perf_hooks";
import type { ToolHandler, ToolInvocation } from "../tools/types.js";
import { chainText } from "./errors.js";
import { emitMcpEvent, eventDuration } from "./events.js";
import type { McpInvocation, McpToolCallOutcome } from "../protocol/mcp-events.js";
import type { McpConnectionManager } from "./manager.js";
import { errorMessage } from "../util/errors.js";

export const RESOURCE_TOOL_NAMES = {
  list: "list_mcp_resources",
  templates: "list_mcp_resource_templates",
  read: "read_mcp_resource",
} as const;

/** What the model sees when its request cannot be served; never thrown past the handler. */
class RespondToModel extends Error {}

type Args = Record<string, unknown>;

/** Parses the arguments: null for none, an object otherwise (anything else is the model's mistake). */
function parseArgs(raw: string): Args | null {
  if (raw.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new RespondToModel(`failed to parse function arguments: ${errorMessage(err)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RespondToModel("failed to parse function arguments: expected an object");
  }
  return value as Args;
}

/** A string field; blank counts as absent. */
function optionalString(args: Args | null, field: string): string | undefined {
  const value = args?.[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new RespondToModel(`failed to parse function arguments: \`${field}\` must be a string`);
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

function requiredString(args: Args | null, field: string): string {
  if (args === null) throw new RespondToModel("failed to parse function arguments: expected value");
  if (args[field] === undefined) throw new RespondToModel(`failed to parse function arguments: missing field \`${field}\``);
  const value = optionalString(args, field);
  if (value === undefined) throw new RespondToModel(`${field} must be provided`);
  return value;
}

interface Prepared {
  server: string;
  run: () => Promise<unknown>;
}

/**
 * The shared shape of the three handlers: validate (errors go straight back, no events), then
 * begin event, work, end event with the JSON text as a one-block result or the error message.
 */
function resourceHandler(tool: string, prepare: (args: Args | null, signal: AbortSignal) => Prepared): ToolHandler {
  return {
    payloadKind: "function",
    async handle(inv: ToolInvocation) {
      if (inv.payload.kind !== "function") return { text: `tool ${tool} invoked with incompatible payload`, success: false };
      let prepared: Prepared;
      let args: Args | null;
      try {
        args = parseArgs(inv.payload.arguments);
        prepared = prepare(args, inv.signal);
      } catch (err) {
        if (err instanceof RespondToModel) return { text: err.message, success: false };
        throw err;
      }
      const invocation: McpInvocation = { server: prepared.server, tool, arguments: args };
      emitMcpEvent(inv.emit, { type: "mcp_tool_call_begin", call_id: inv.callId, invocation });
      const started = performance.now();
      let text: string;
      let result: McpToolCallOutcome;
      let success: boolean;
      try {
        text = JSON.stringify(await prepared.run());
        result = { Ok: { content: [{ type: "text", text }], isError: false } };
        success = true;
      } catch (err) {
        text = errorMessage(err);
        result = { Err: text };
        success = false;
      }
      const duration = eventDuration(performance.now() - started);
      emitMcpEvent(inv.emit, { type: "mcp_tool_call_end", call_id: inv.callId, invocation, duration, result });
      return { text, success };
    },
  };
}

function failure(prefix: string, err: unknown): Error {
  return new Error(`${prefix}: ${chainText(err)}`);
}

export function listResourcesTool(manager: McpConnectionManager): ToolHandler {
  return listingTool(RESOURCE_TOOL_NAMES.list, "resources", "resources/list failed", {
    all: (signal) => manager.listAllResources(signal),
    page: async (server, cursor, signal) => {
      const page = await manager.listResources(server, cursor, signal);
      return { items: page.resources, nextCursor: page.nextCursor };
    },
  });
}

export function listResourceTemplatesTool(manager: McpConnectionManager): ToolHandler {
  return listingTool(RESOURCE_TOOL_NAMES.templates, "resourceTemplates", "resources/templates/list failed", {
    all: (signal) => manager.listAllResourceTemplates(signal),
    page: async (server, cursor, signal) => {
      const page = await manager.listResourceTemplates(server, cursor, signal);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    },
  });
}

/** How one listing tool reads from the servers: every server's whole list, or one page of one. */
interface Listing<T extends object> {
  all: (signal: AbortSignal) => Promise<ReadonlyMap<string, readonly T[]>>;
  page: (server: string, cursor: string | undefined, signal: AbortSignal) => Promise<{ items: readonly T[]; nextCursor?: string }>;
}

/**
 * The two listing tools behave alike: without a server every server's complete list (tagged
 * with its server; a cursor makes no sense then), with one a page of it and the next cursor.
 */
function listingTool<T extends object>(name: string, key: string, failurePrefix: string, listing: Listing<T>): ToolHandler {
  return resourceHandler(name, (args, signal) => {
    const server = optionalString(args, "server");
    const cursor = optionalString(args, "cursor");
    if (server === undefined) {
      if (cursor !== undefined) throw new RespondToModel("cursor can only be used when a server is specified");
      return {
        server: "codex",
        run: async () => {
          const all = await listing.all(signal);
          return { [key]: [...all].flatMap(([name, items]) => items.map((item) => ({ server: name, ...item }))) };
        },
      };
    }
    return {
      server,
      run: async () => {
        const page = await listing.page(server, cursor, signal).catch((err: unknown) => {
          throw failure(failurePrefix, err);
        });
        const items = page.items.map((item) => ({ server, ...item }));
        return page.nextCursor === undefined ? { server, [key]: items } : { server, [key]: items, nextCursor: page.nextCursor };
      },
    };
  });
}

export function readResourceTool(manager: McpConnectionManager): ToolHandler {
  return resourceHandler(RESOURCE_TOOL_NAMES.read, (args, signal) => {
    const server = requiredString(args, "server");
    const uri = requiredString(args, "uri");
    return {
      server,
      run: async () => {
        const result = await manager.readResource(server, uri, signal).catch((err: unknown) => {
          throw failure("resources/read failed", err);
        });
        return { server, uri, contents: result.contents };
      },
    };
  });
}
