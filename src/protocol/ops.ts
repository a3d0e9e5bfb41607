/**
 * Ops: everything a front end can ask of a session. Tagged by `type` in snake_case, as the
 * reference's `Op` enum serializes, so a submission can cross a process boundary as JSON.
 */
import type { ReviewRequest } from "./review.js";
import type { AskForApproval, ExecApprovalDecision, ReasoningEffort, ReasoningSummary, ReviewDecision, SandboxPolicy } from "./policy.js";
import type { UserInputResponse } from "./user-questions.js";
import type { McpServerConfig } from "./mcp-servers.js";
import type { HookOp } from "./hook-events.js";

export type UserInput =
  | { type: "text"; text: string }
  | { type: "image"; image_url: string }
  | { type: "local_image"; path: string };

/** Settings a user turn may change; absent fields keep the session's current value. */
export interface TurnOverrides {
  cwd?: string;
  approval_policy?: AskForApproval;
  sandbox_policy?: SandboxPolicy;
  model?: string;
  /** `null` clears the effort (the model's default applies); absent keeps it. */
  effort?: ReasoningEffort | null;
  summary?: ReasoningSummary;
  /** `plan`: the agent plans and changes nothing (read-only commands, no patches); `default`: it works. */
  collaboration_mode?: CollaborationMode;
}

export const COLLABORATION_MODES = ["default", "plan"] as const;
export type CollaborationMode = (typeof COLLABORATION_MODES)[number];

/** What a rollback puts back: the conversation, the files, or both (see `thread_rollback`). */
export const ROLLBACK_RESTORES = ["conversation", "code", "both"] as const;
export type RollbackRestore = (typeof ROLLBACK_RESTORES)[number];

export type ElicitationAction = "accept" | "decline" | "cancel";

/**
 * The answer to a `question_asked`, by kind of question: a decision for an approval, answers for
 * request_user_input, an action (and the form's values) for an MCP elicitation; `cancel`
 * withdraws the question (the front end cannot or will not answer it).
 */
export type QuestionAnswer =
  | { type: "decision"; decision: ExecApprovalDecision }
  | { type: "user_input"; response: UserInputResponse }
  | { type: "elicitation"; action: ElicitationAction; content?: Record<string, unknown> }
  | { type: "cancel" };

export type Op =
  | { type: "user_input"; items: UserInput[]; final_output_json_schema?: unknown }
  | ({ type: "user_turn"; items: UserInput[]; final_output_json_schema?: unknown } & TurnOverrides)
  | ({ type: "override_turn_context" } & TurnOverrides)
  | { type: "interrupt" }
  /** Answers the open question `key` (from its `question_asked` event). */
  | { type: "answer_question"; key: string; answer: QuestionAnswer }
  /** `id` is the call id of the tool call awaiting approval. */
  | { type: "exec_approval"; id: string; decision: ExecApprovalDecision }
  | { type: "patch_approval"; id: string; decision: ReviewDecision }
  | { type: "mcp_tool_call_approval"; id: string; decision: ReviewDecision }
  /** Answers an `elicitation_request`; `content` holds the form's values when accepted. */
  | { type: "resolve_elicitation"; server_name: string; request_id: string | number; decision: ElicitationAction; content?: Record<string, unknown> }
  /** Reviews code (uncommitted changes, a branch, a commit, or custom instructions) as a task of its own. */
  | { type: "review"; review_request: ReviewRequest }
  /** Summarises the conversation so far to free context; `instructions` says what to keep. */
  | { type: "compact"; instructions?: string }
  /**
   * Drops the last `num_turns` user turns from the thread (not while a turn runs). `restore`
   * (codex-ts) says what goes back to how it was before those turns: the conversation (the
   * default, and all the reference does), the files they changed (`code`), or both. A file
   * changed by hand since is not overwritten unless named in `overwrite` (see `undo`).
   */
  | { type: "thread_rollback"; num_turns: number; restore?: RollbackRestore; overwrite?: string[] }
  /**
   * Puts the files the last file-changing turn changed back as they were before it (the
   * reference's `Op::Undo`). codex-ts: a file changed by hand since that turn is named in
   * `undo_completed.conflicts` and left alone unless listed in `overwrite` (as those paths were
   * named). Not while a turn runs.
   */
  | { type: "undo"; overwrite?: string[] }
  /** codex-ts: reverses the last undo (or code rollback), while no turn has changed files since. */
  | { type: "redo"; overwrite?: string[] }
  /** Runs a command the user typed (`!cmd` in a UI) under the session's sandbox, as its own task. */
  | { type: "run_user_shell_command"; command: string }
  /** codex-ts: stops one MCP server and starts it again (after an OAuth sign-in, say); progress as `mcp_startup_*` events. */
  | { type: "restart_mcp_server"; server: string }
  /**
   * codex-ts: replaces the session's MCP servers with `servers` (the config read again): every
   * running server stops, the enabled ones start, progress as `mcp_startup_*` events; the next
   * turn offers the new servers' tools.
   */
  | { type: "reload_mcp_servers"; servers: Record<string, McpServerConfig> }
  /**
   * Answers a `request_user_input` event. `id` is the event's `call_id`; the event's `turn_id`
   * (what the reference keys answers by) is accepted too and answers that turn's oldest question.
   */
  | { type: "user_input_answer"; id: string; response: UserInputResponse }
  /** Asks for the custom prompts (`$CODEX_HOME/prompts/*.md`); answered by list_custom_prompts_response. */
  | { type: "list_custom_prompts" }
  /** Asks for the skills seen from these folders (the session's cwd when empty); answered by list_skills_response. */
  | { type: "list_skills"; cwds?: string[] }
  /** codex-ts: reads a resource of one of the session's MCP servers for the front end; answered by mcp_resource_read_response (or an error). */
  | { type: "read_mcp_resource"; server: string; uri: string }
  /**
   * codex-ts: calls a tool of one of the session's MCP servers for the front end (the user's own
   * call: no approval, not part of the conversation); answered by mcp_tool_call_response (or an error).
   */
  | { type: "call_mcp_tool"; server: string; tool: string; arguments: unknown }
  /** Asks for the MCP servers' tools, resources and auth status; answered by mcp_list_tools_response. */
  | { type: "list_mcp_tools" }
  /**
   * codex-ts: signs in to an OAuth MCP server of the session (the browser flow; its progress as
   * mcp_sign_in_update, its end as mcp_sign_in_complete), then starts the server again with the tokens.
   */
  | { type: "mcp_sign_in"; server: string }
  /** codex-ts: asks for the models this thread may switch to (the account's list, else the catalog's); answered by list_models_response. */
  | { type: "list_models" }
  /** Appends a prompt to $CODEX_HOME/history.jsonl (front ends send it when the user submits). */
  | { type: "add_to_history"; text: string }
  /** Asks for one prompt-history entry (Up-arrow recall); answered by get_history_entry_response. */
  | { type: "get_history_entry_request"; offset: number; log_id: number }
  /** codex-ts: the user sets the thread's goal (`/goal OBJECTIVE`), replacing a finished one; answered by thread_goal_updated. */
  | { type: "set_thread_goal"; objective: string; token_budget?: number | null }
  /** codex-ts: the user pauses, resumes or completes the goal; answered by thread_goal_updated (or an error). */
  | { type: "set_thread_goal_status"; status: "active" | "paused" | "complete" }
  /**
   * codex-ts: the user edits the goal in place (the app-server's `thread/goal/set`): a new
   * objective or budget keeps its progress, a status changes it as set_thread_goal_status does;
   * with no goal, an objective makes one. Answered by thread_goal_updated (or an error).
   */
  | { type: "update_thread_goal"; objective?: string; token_budget?: number | null; status?: "active" | "paused" | "blocked" | "complete" }
  /** codex-ts: the user drops the goal. */
  | { type: "clear_thread_goal" }
  | { type: "shutdown" }
  /** Listing, trusting and turning lifecycle hooks on or off (see hook-events.ts). */
  | HookOp;

export interface Submission {
  id: string;
  op: Op;
}
