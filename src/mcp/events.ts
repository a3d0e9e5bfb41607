/** Helpers for the MCP events (their types live in src/protocol/mcp-events.ts). */
import type { EventMsg } from "../protocol/events.js";
import type { EventDuration, McpEventMsg, McpToolCallOutcome } from "../protocol/mcp-events.js";

export function eventDuration(ms: number): EventDuration {
  const secs = Math.floor(ms / 1000);
  return { secs, nanos: Math.round((ms - secs * 1000) * 1e6) };
}

/** The reference's success test for an end event: an Ok result not flagged as an error. */
export function isSuccessfulOutcome(result: McpToolCallOutcome): boolean {
  return "Ok" in result && result.Ok.isError !== true;
}

/** Sends an MCP event through a tool invocation's `emit`. */
export function emitMcpEvent(emit: (msg: EventMsg) => void, msg: McpEventMsg): void {
  emit(msg);
}
