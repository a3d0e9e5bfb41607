/**
 * MCP elicitation: a server asking the user for input in the middle of a request. The manager
 * hands each request to the session's handler (which shows it as an `elicitation_request` event
 * and waits for a `resolve_elicitation` op) and sends the answer back to the server.
 */
import type { ElicitationAction } from "../protocol/ops.js";

export interface McpElicitation {
  /** The JSON-RPC id of the server's request: with the server name, it names the question. */
  id: string | number;
  message: string;
  /** The form the server asks to be filled in; absent for a plain yes/no. */
  requestedSchema?: unknown;
}

export interface ElicitationAnswer {
  action: ElicitationAction;
  content?: Record<string, unknown>;
}

export type McpElicitationHandler = (server: string, request: McpElicitation) => Promise<ElicitationAnswer>;
