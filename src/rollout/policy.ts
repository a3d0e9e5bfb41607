/**
 * Which events a rollout keeps. Like the reference's "limited" persistence mode, only events a
 * reader needs to replay the conversation are written (messages, reasoning, token counts, turn
 * boundaries, applied patches, finished MCP tool calls and web searches, undos, which a resume
 * replays into its undo history); deltas, command output, begin/end
 * chatter and MCP start-up progress would multiply the file's size for nothing, since the
 * response items already hold what the model saw.
 */
import type { EventMsg } from "../protocol/events.js";

export function isPersistedEvent(msg: EventMsg): boolean {
  switch (msg.type) {
    case "user_message":
    case "agent_message":
    case "agent_reasoning":
    case "token_count":
    case "patch_apply_end":
    case "mcp_tool_call_end":
    case "web_search_end":
    case "turn_aborted":
    case "task_started":
    case "task_complete":
    case "entered_review_mode":
    case "exited_review_mode":
    case "context_compacted":
    case "thread_rolled_back":
    case "thread_goal_updated":
    case "undo_completed":
      return true;
    default:
      return false;
  }
}
