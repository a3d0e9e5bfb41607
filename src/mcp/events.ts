/** Helpers for the MCP events (their types live in src/protocol/mcp-events.ts). */
import type { EventMsg } from "../protocol/events.js";
import type { EventDuration, McpEventMsg } from "../protocol/mcp-events.js";

export function eventDuration(ms: number): EventDuration {
  const secs = Math.floor(ms / 1000);
  return { secs, nanos: Math.round((ms - secs * 1000) * 1e6) };
}

/** Sends an MCP event through a tool invocation's `emit`. */
export function emitMcpEvent(emit: (msg: EventMsg) => void, msg: McpEventMsg): void {
  emit(msg);
}
