/**
 * The `exec --json` stream: one JSON object per line, the reference's ThreadEvent shapes, which
 * the official TypeScript SDK parses. Item ids are "item_N" in order of first appearance.
 */

import type { AgentStatusName } from "./collab.js";
import type { ReviewFinding } from "./review.js";
import type { WebSearchAction } from "./web-search.js";

export interface Usage {
  input_tokens: number;
  cached_input_tokens: number;
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
}

/** A call to an MCP tool: result and error stay null until it ends (a failed call may carry either). */
export interface McpToolCallThreadItem {
  id: string;
  type: "mcp_tool_call";
  server: string;
  tool: string;
  arguments: unknown;
  result: { content: unknown[]; structured_content: unknown } | null;
  error: { message: string } | null;
  status: "in_progress" | "completed" | "failed";
}

/**
 * A hosted web search. `search_id` is the search's own id, which the line writer puts out as a
 * second `id` key, as the reference does (cli/exec/web-search-items.ts).
 */
export interface WebSearchThreadItem {
  id: string;
  type: "web_search";
  search_id: string;
  query: string;
  action: WebSearchAction;
}

/** One agent's state in a collab_tool_call item: its status's name and the message it carries. */
export interface CollabAgentState {
  status: AgentStatusName;
  message: string | null;
}

/**
 * A call of one of the collab tools (sub-agents). `tool` is the reference's name for it (resume_agent
 * is reported as `wait`, as the reference does); `agents_states` is empty until the call ends.
 */
export interface CollabToolCallThreadItem {
  id: string;
  type: "collab_tool_call";
  tool: "spawn_agent" | "send_input" | "wait" | "close_agent";
  sender_thread_id: string;
  receiver_thread_ids: string[];
  prompt: string | null;
  agents_states: Record<string, CollabAgentState>;
  status: "in_progress" | "completed" | "failed";
}

export type ThreadItem =
  | { id: string; type: "agent_message"; text: string }
  | { id: string; type: "reasoning"; text: string }
  | {
      id: string;
      type: "command_execution";
      command: string;
      aggregated_output: string;
      exit_code: number | null;
      status: "in_progress" | "completed" | "failed" | "declined";
    }
  | {
      id: string;
      type: "file_change";
      changes: Array<{ path: string; kind: "add" | "delete" | "update" }>;
      status: "in_progress" | "completed" | "failed";
    }
  | McpToolCallThreadItem
  | WebSearchThreadItem
  | CollabToolCallThreadItem
  | { id: string; type: "todo_list"; items: Array<{ text: string; completed: boolean }> }
  | { id: string; type: "error"; message: string }
  /** `exec review`: one item per finding, then the verdict. */
  | ({ id: string; type: "review_finding" } & ReviewFinding)
  | { id: string; type: "review"; overall_correctness: string; overall_explanation: string; overall_confidence_score: number; findings: number };

export type ThreadEvent =
  | { type: "thread.started"; thread_id: string }
  | { type: "turn.started" }
  | { type: "turn.completed"; usage: Usage }
  | { type: "turn.failed"; error: { message: string } }
  | { type: "item.started"; item: ThreadItem }
  | { type: "item.updated"; item: ThreadItem }
  | { type: "item.completed"; item: ThreadItem }
  | { type: "error"; message: string };
