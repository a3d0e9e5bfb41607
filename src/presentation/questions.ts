/** Text about the agent's questions, shared by front ends. */
import type { EventMsg } from "../protocol/events.js";

/** A few words on what a question is about, for its notification. */
export function questionSummary(msg: EventMsg): string {
  switch (msg.type) {
    case "exec_approval_request":
      return msg.command.join(" ");
    case "apply_patch_approval_request": {
      const files = Object.keys(msg.changes).length;
      return `edit ${files} file${files === 1 ? "" : "s"}`;
    }
    case "mcp_tool_call_approval_request":
      return `${msg.server}.${msg.tool}`;
    default:
      return "the agent has a question";
  }
}
