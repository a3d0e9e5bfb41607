/**
 * Which events a rollout keeps. Like the reference's "limited" persistence mode, only events a
 * reader needs to replay the conversation are written (messages, reasoning, token counts, turn
 * boundaries, compactions, rollbacks), plus, as its "extended" mode keeps them, what a resume
 * needs to redraw the conversation as it was shown: plan updates, finished MCP tool calls, web
 * searches, viewed images, errors, and the questions the user answered (codex-ts's own
 * `question_asked` / `question_resolved`, which the reference skips) and undos (`undo_completed`,
 * which a resume also replays into its undo history); commands and file changes are recorded by
 * item-journal.ts, which asks this policy about everything else. Deltas, begin events and MCP
 * start-up progress would multiply the file's size for nothing, since the response items
 * already hold what the model saw.
 */
import type { EventMsg } from "../protocol/events.js";

// Sub-agents' events are kept too (the ends of the collab tool calls and each child's status), so
// a resumed thread knows its children again and a redraw shows what they did.
export function isPersistedEvent(msg: EventMsg): boolean {
  switch (msg.type) {
    case "user_message":
    case "agent_message":
    case "agent_reasoning":
    case "token_count":
    case "question_asked":
    case "question_resolved":
    case "plan_update":
    case "view_image_tool_call":
    case "error":
    case "mcp_tool_call_end":
    case "web_search_end":
    case "turn_aborted":
    case "task_started":
    case "task_complete":
    case "entered_review_mode":
    case "exited_review_mode":
    case "context_compacted":
    case "thread_rolled_back":
    case "collab_agent_spawn_end":
    case "collab_agent_interaction_end":
    case "collab_waiting_end":
    case "collab_close_end":
    case "collab_resume_end":
    case "sub_agent_status":
    case "thread_goal_updated":
    case "undo_completed":
      return true;
    default:
      return false;
  }
}
