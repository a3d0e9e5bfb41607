/**
 * The MCP events a session emits, in the reference's `EventMsg` shapes (snake_case, tagged by
 * `type`): per-server start-up progress, a start-up summary, and a begin/end pair around each
 * MCP tool call (the resource tools report through the same pair), and the answer to
 * `list_mcp_tools`. They are members of the
 * `EventMsg` union in events.ts.
 */

/** A tool result as the reference's protocol carries it (camelCase, absent fields left out). */
export interface McpCallToolResult {
  content: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: unknown;
}

export interface McpInvocation {
  /** The server's name as configured (the `[mcp_servers.<name>]` key). */
  server: string;
  /** The tool's name as the server gave it (not the qualified name the model used). */
  tool: string;
  /** The parsed arguments; null when the model sent none. */
  arguments: unknown;
}

/** A Rust `Duration` as serde writes it, matching exec_command_end's `duration`. */
export interface EventDuration {
  secs: number;
  nanos: number;
}

/** Serde's encoding of `Result<CallToolResult, String>`. */
export type McpToolCallOutcome = { Ok: McpCallToolResult } | { Err: string };

export type McpStartupStatus =
  | { state: "starting" }
  | { state: "ready" }
  | { state: "failed"; error: string }
  | { state: "cancelled" };

export interface McpStartupFailure {
  server: string;
  error: string;
}

export type McpStartupEventMsg =
  | { type: "mcp_startup_update"; server: string; status: McpStartupStatus }
  | { type: "mcp_startup_complete"; ready: string[]; failed: McpStartupFailure[]; cancelled: string[] };

export type McpToolCallEventMsg =
  | { type: "mcp_tool_call_begin"; call_id: string; invocation: McpInvocation }
  | {
      type: "mcp_tool_call_end";
      call_id: string;
      invocation: McpInvocation;
      duration: EventDuration;
      result: McpToolCallOutcome;
    };

/** How an MCP server authenticates, as the reference's `McpAuthStatus` serialises. */
export type McpAuthStatus = "unsupported" | "not_logged_in" | "bearer_token" | "o_auth";

/** A tool as the server listed it (MCP's `Tool`: name, description, input schema, …). */
export interface McpToolDefinition {
  name: string;
  description?: string;
  inputSchema: unknown;
  [field: string]: unknown;
}

/** What a server said about itself in the MCP handshake (MCP's `Implementation`). */
export interface McpServerInfo {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: unknown[];
}

/**
 * codex-ts: one configured server as the session found it, for clients that show each server's
 * state (the app-server's `mcpServerStatus/list`).
 */
export interface McpServerDetail {
  name: string;
  /** Its start-up state; `disabled` when the config turns it off, `not_started` when nothing started it. */
  status: "starting" | "ready" | "failed" | "cancelled" | "disabled" | "not_started";
  /** Why it did not start (the cause, without the hint the start-up event adds). */
  error: string | null;
  /** It did not start because it wants a login. */
  auth_required: boolean;
  server_info: McpServerInfo | null;
  /** The capabilities it announced; null before the handshake. */
  capabilities: Record<string, unknown> | null;
  /** Its tools by their own names, after `enabled_tools` / `disabled_tools`. */
  tools: McpToolDefinition[];
}

/**
 * The answer to `list_mcp_tools`: the ready servers' tools by qualified name (`mcp__server__tool`),
 * their resources and resource templates by server, and every enabled server's auth status;
 * codex-ts adds `servers`, every configured server's state by name order.
 */
export interface McpListToolsResponse {
  type: "mcp_list_tools_response";
  tools: Record<string, McpToolDefinition>;
  resources: Record<string, unknown[]>;
  resource_templates: Record<string, unknown[]>;
  auth_statuses: Record<string, McpAuthStatus>;
  servers?: McpServerDetail[];
}

/** codex-ts: the answers to a front end's own `read_mcp_resource` and `call_mcp_tool` ops. */
export type McpClientCallEventMsg =
  | { type: "mcp_resource_read_response"; server: string; uri: string; contents: unknown[] }
  | { type: "mcp_tool_call_response"; server: string; tool: string; result: McpCallToolResult };

export type McpEventMsg = McpStartupEventMsg | McpToolCallEventMsg | McpListToolsResponse | McpClientCallEventMsg;

/** The reference's success test for an end event: an Ok result not flagged as an error. */
export function isSuccessfulOutcome(result: McpToolCallOutcome): boolean {
  return "Ok" in result && result.Ok.isError !== true;
}

/** How MCP tool names are made model-safe (front ends read qualified names with it): replaces every character outside `[A-Za-z0-9_-]` with `_` (one per code point); never empty. */
export function sanitizeToolName(name: string): string {
  let out = "";
  for (const ch of name) out += /^[A-Za-z0-9_-]$/.test(ch) ? ch : "_";
  return out === "" ? "_" : out;
}
