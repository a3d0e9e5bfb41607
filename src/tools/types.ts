/**
 * The contract between the turn loop and tools: a handler gets one invocation (its payload, the
 * turn's context, a way to emit events, an abort signal) and returns the text the model reads.
 * Errors come in two kinds: ones the model should see and recover from (ToolError with
 * fatal=false, or just a failing output), and fatal ones that end the turn.
 */
import type { EventMsg } from "../protocol/events.js";
import type { FunctionCallOutputContentItem } from "../protocol/items.js";
import type { TurnContext } from "./turn-context.js";
import type { TurnDiffTracker } from "../patch/turn-diff.js";
import { errorMessage } from "../util/errors.js";

export type ToolPayload = { kind: "function"; arguments: string } | { kind: "custom"; input: string };

export interface ToolInvocation {
  callId: string;
  name: string;
  payload: ToolPayload;
  turn: TurnContext;
  signal: AbortSignal;
  emit: (msg: EventMsg) => void;
  /** Collects what patches changed during the turn, for the turn_diff event. */
  turnDiff: TurnDiffTracker;
}

export interface ToolOutput {
  /** What the model reads; for a function call with `contentItems`, what text-only wires send instead. */
  text: string;
  success: boolean;
  /** Text and images (an MCP tool's image result): sent in place of `text` where the wire takes them. */
  contentItems?: FunctionCallOutputContentItem[];
  /**
   * Whether the tool ran to an outcome, which PostToolUse hooks then hear about: a command that
   * exited (whatever its code) did; a refused call or a command still running did not.
   * Absent: it ran when it succeeded.
   */
  ran?: boolean;
  /** What PostToolUse hooks are told it answered (`tool_response`); absent: the content items, else the text. */
  hookResponse?: unknown;
}

/** A call as lifecycle hooks name it (`tool_name`, `tool_input`, other names a matcher may use). */
export interface HookIdentity {
  toolName: string;
  toolInput: unknown;
  matcherAliases?: readonly string[];
  /** An MCP server's tool (PostToolUse's `updatedMCPToolOutput` applies to it). */
  mcp?: boolean;
}

export class ToolError extends Error {
  constructor(
    message: string,
    readonly fatal = false,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

export interface ToolHandler {
  /** Which payload shape this tool accepts ("any": both); a call in another shape is a fatal mismatch. */
  readonly payloadKind: ToolPayload["kind"] | "any";
  handle(invocation: ToolInvocation): Promise<ToolOutput>;
  /**
   * Checks a function call's raw arguments in place of the router's check against the offered
   * schema (a tool whose real schema is richer than the one offered); the problem, or null.
   */
  checkArguments?(toolName: string, rawArguments: string): Promise<string | null>;
  /** How hooks name this call; absent: the call's own name and its parsed arguments. */
  hookIdentity?(invocation: ToolInvocation): HookIdentity;
  /**
   * The invocation a PreToolUse hook's `updatedInput` asks for, or why it cannot be given one;
   * absent: a function call's arguments become the new input, a freeform call cannot be rewritten.
   */
  withHookInput?(invocation: ToolInvocation, input: unknown): ToolInvocation | string;
  /** What the model reads when a PostToolUse hook replaces the output (absent: the text, or its JSON). */
  hookReplacement?(value: unknown): ToolOutput;
}

/** Parses a function call's JSON arguments, or explains to the model what was wrong with them. */
export function parseArguments<T>(invocation: ToolInvocation): T {
  if (invocation.payload.kind !== "function") {
    throw new ToolError(`tool ${invocation.name} invoked with incompatible payload`, true);
  }
  try {
    return JSON.parse(invocation.payload.arguments || "{}") as T;
  } catch (err) {
    throw new ToolError(`failed to parse function arguments: ${errorMessage(err)}`);
  }
}
