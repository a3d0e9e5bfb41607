/**
 * Approval of MCP tool calls. MCP tools run in their server, outside our sandbox, so the sandbox
 * policy cannot contain them; what the reference does instead:
 *   - in full-access mode (approval `never` with `danger-full-access`) nothing is asked;
 *   - a tool whose server sent no annotations is called without asking;
 *   - otherwise it asks when the annotations say the tool may change things: `destructiveHint`
 *     true, or not `readOnlyHint` and either hint about effects (`destructiveHint`,
 *     `openWorldHint`) left unset or true;
 *   - the user can allow once, allow for the session (remembered per server and tool), decline
 *     ("user rejected MCP tool call") or cancel ("user cancelled MCP tool call").
 * The reference asks through its request_user_input/elicitation UI. Until the session has such a
 * channel, asking is delegated to an optional hook; without one, calls proceed, which is also what
 * the reference does for every call when approvals are not required.
 */
import type { AskForApproval, SandboxPolicy } from "../protocol/policy.js";

/** The MCP `ToolAnnotations` hints that matter for approval. */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type McpApprovalDecision = "accept" | "accept_for_session" | "decline" | "cancel";

export interface McpApprovalRequest {
  callId: string;
  /** The name the model called it by (`mcp__server__tool`), as hooks name it. */
  qualifiedName: string;
  server: string;
  tool: string;
  arguments: unknown;
  annotations: McpToolAnnotations;
  /** The reference's fallback question, e.g. `Allow the docs MCP server to run tool "search"?` */
  question: string;
}

export type McpApprovalHook = (request: McpApprovalRequest, signal: AbortSignal) => Promise<McpApprovalDecision>;

export const MCP_TOOL_CALL_REJECTED = "user rejected MCP tool call";
export const MCP_TOOL_CALL_CANCELLED = "user cancelled MCP tool call";

export function requiresMcpToolApproval(annotations: McpToolAnnotations): boolean {
  if (annotations.destructiveHint === true) return true;
  if (annotations.readOnlyHint === true) return false;
  return (annotations.destructiveHint ?? true) || (annotations.openWorldHint ?? true);
}

export function isFullAccessMode(approvalPolicy: AskForApproval, sandboxPolicy: SandboxPolicy): boolean {
  return approvalPolicy === "never" && sandboxPolicy.type === "danger-full-access";
}

export function approvalQuestion(server: string, tool: string): string {
  return `Allow the ${server} MCP server to run tool "${tool}"?`;
}

/** Tools the user allowed for the rest of the session, keyed by server and tool. */
export class McpApprovalMemory {
  private readonly allowed = new Set<string>();

  has(server: string, tool: string): boolean {
    return this.allowed.has(JSON.stringify([server, tool]));
  }

  remember(server: string, tool: string): void {
    this.allowed.add(JSON.stringify([server, tool]));
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The annotations of a listed tool, or null when the server sent none. */
export function toolAnnotations(definition: { annotations?: unknown }): McpToolAnnotations | null {
  const raw = definition.annotations;
  if (!isRecord(raw)) return null;
  const out: McpToolAnnotations = {};
  if (typeof raw.title === "string") out.title = raw.title;
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    const value = raw[key];
    if (typeof value === "boolean") out[key] = value;
  }
  return out;
}
