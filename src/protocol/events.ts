/**
 * Events: everything a session tells its front ends. `msg.type` values and payload fields follow
 * the reference's `EventMsg` (snake_case, internally tagged), so JSON consumers written for it
 * read ours unchanged. Every event carries the id of the submission that caused it ("" for
 * session start-up).
 */
import type { AgentRef, CollabEventMsg } from "./collab.js";
import type { ThreadGoal } from "./goals.js";
import type { ReviewOutputEvent, ReviewRequest } from "./review.js";
import type { AskForApproval, ReasoningEffort, SandboxPolicy } from "./policy.js";
import type { McpEventMsg } from "./mcp-events.js";
import type { HookEventMsg } from "./hook-events.js";
import type { UserQuestion } from "./user-questions.js";
import type { WebSearchAction } from "./web-search.js";
import type { QuestionAnswer } from "./ops.js";

export interface TokenUsage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
}

export interface TokenUsageInfo {
  total_token_usage: TokenUsage;
  last_token_usage: TokenUsage;
  model_context_window: number | null;
}

/** One rate-limit window of the account (e.g. the 5-hour one), as the provider reports it. */
export interface RateLimitWindow {
  used_percent: number;
  window_minutes: number | null;
  /** When the window resets, in Unix seconds. */
  resets_at: number | null;
}

export interface CreditsSnapshot {
  has_credits: boolean;
  unlimited: boolean;
  balance: string | null;
}

/** The account's limits as last reported (response headers); carried by every token_count. */
export interface RateLimitSnapshot {
  limit_id: string | null;
  limit_name: string | null;
  primary: RateLimitWindow | null;
  secondary: RateLimitWindow | null;
  credits: CreditsSnapshot | null;
  plan_type: string | null;
}

export type PlanStatus = "pending" | "in_progress" | "completed";
export interface PlanItem {
  step: string;
  status: PlanStatus;
}

export type ParsedCommand =
  | { type: "read"; cmd: string; name: string }
  | { type: "list_files"; cmd: string; path: string | null }
  | { type: "search"; cmd: string; query: string | null; path: string | null }
  | { type: "unknown"; cmd: string };

export type FileChange =
  | { type: "add"; content: string }
  | { type: "delete"; content: string }
  | { type: "update"; unified_diff: string; move_path: string | null };

/** Machine-readable error categories, as the reference's `codex_error_info`. */
export type CodexErrorInfo =
  | "context_window_exceeded"
  | "usage_limit_exceeded"
  | "unauthorized"
  | "bad_request"
  | "internal_server_error"
  | "sandbox_error"
  | "thread_rollback_failed"
  | "other"
  | { response_stream_disconnected: { http_status_code: number | null } }
  | { http_connection_failed: { http_status_code: number | null } };

/** What an `undo_completed` did: took a turn's changes back, put them back, or rolled files back with the conversation. */
export type UndoAction = "undo" | "redo" | "rollback";

export type ExecCommandSource = "agent" | "user_shell";

/**
 * Why the model stopped before finishing its answer, as the Responses API's
 * `incomplete_details.reason` says: its output limit, or the provider's content filter.
 */
export type IncompleteReason = "max_output_tokens" | "content_filter";

/** How a command or a file change ended, in the reference's words. */
export type ItemStatus = "completed" | "failed" | "declined";

export type TurnAbortReason = "interrupted" | "replaced" | "review_ended";

/** What refused a patch's write: a read-only sandbox, or a path outside the writable folders. */
export type PatchBlocker = "read-only-sandbox" | "writable-roots";

export type EventMsg =
  | {
      type: "session_configured";
      session_id: string;
      model: string;
      model_provider_id: string;
      approval_policy: AskForApproval;
      sandbox_policy: SandboxPolicy;
      cwd: string;
      reasoning_effort: ReasoningEffort | null;
      history_log_id: number;
      history_entry_count: number;
      rollout_path: string | null;
      /**
       * A resumed or forked thread's conversation so far, as the events a front end draws it
       * from (user and agent messages, reasoning, commands, patches, plans); absent for a new one.
       */
      initial_messages?: EventMsg[];
      /** codex-ts: set for a sub-agent's thread: the thread that spawned it. */
      parent_thread_id?: string;
      /** codex-ts: a sub-agent's nickname (how front ends name it) and role, when it has one. */
      agent_nickname?: string;
      agent_role?: string | null;
    }
  /** `turn_id` names the user turn in every event of it, in approval requests and in the rollout. */
  | { type: "task_started"; turn_id: string; model_context_window: number | null }
  /**
   * `duration_ms`: how long the task ran, as the reference reports it. A session file whose turns
   * end with it records the commands and edits it showed (see rollout/turn-items.ts).
   */
  | { type: "task_complete"; turn_id: string; last_agent_message: string | null; duration_ms?: number }
  | { type: "turn_aborted"; turn_id: string; reason: TurnAbortReason; duration_ms?: number }
  | { type: "user_message"; message: string; images: string[] | null }
  | { type: "agent_message_delta"; delta: string }
  | { type: "agent_message"; message: string }
  | { type: "agent_reasoning_delta"; delta: string }
  | { type: "agent_reasoning"; text: string }
  | { type: "agent_reasoning_section_break" }
  /** The model's raw reasoning text, sent only with `show_raw_agent_reasoning`. */
  | { type: "agent_reasoning_raw_content_delta"; delta: string }
  | { type: "agent_reasoning_raw_content"; text: string }
  | {
      type: "exec_command_begin";
      call_id: string;
      command: string[];
      cwd: string;
      parsed_cmd: ParsedCommand[];
      /** Who asked for the command: absent for the model's, `user_shell` for one the user typed (`!cmd`). */
      source?: ExecCommandSource;
      /** Set in session files, as the reference records it. */
      turn_id?: string;
    }
  | { type: "exec_command_output_delta"; call_id: string; stream: "stdout" | "stderr"; chunk: string }
  | {
      type: "exec_command_end";
      call_id: string;
      command: string[];
      cwd: string;
      stdout: string;
      stderr: string;
      aggregated_output: string;
      exit_code: number;
      duration: { secs: number; nanos: number };
      formatted_output: string;
      source?: ExecCommandSource;
      /** Set in session files, as the reference records them (see rollout/item-journal.ts). */
      turn_id?: string;
      status?: ItemStatus;
      parsed_cmd?: ParsedCommand[];
    }
  | {
      type: "exec_approval_request";
      call_id: string;
      turn_id: string;
      command: string[];
      cwd: string;
      /** Why the agent asks (an escalation's justification, a sandbox failure); absent if none. */
      reason?: string;
      /** A command prefix the model proposes to allow from now on (answer with approved_execpolicy_amendment). */
      proposed_execpolicy_amendment?: string[];
      parsed_cmd: ParsedCommand[];
    }
  | {
      type: "apply_patch_approval_request";
      call_id: string;
      turn_id: string;
      changes: Record<string, FileChange>;
      /** Absent (not null) when there is none, as the reference serializes it. */
      reason?: string;
      /** A folder the patch asks to write under for the rest of the session; absent if none. */
      grant_root?: string;
    }
  | {
      /**
       * An MCP tool call whose annotations say it may change things, waiting for the user
       * (answered by an `mcp_tool_call_approval` op keyed by `call_id`).
       */
      type: "mcp_tool_call_approval_request";
      call_id: string;
      turn_id: string;
      server: string;
      tool: string;
      arguments: unknown;
      /** The question to show, e.g. `Allow the docs MCP server to run tool "search"?` */
      question: string;
    }
  | {
      /** An MCP server asks the user for input (answered by a `resolve_elicitation` op). */
      type: "elicitation_request";
      server_name: string;
      id: string | number;
      message: string;
      /** The form the server wants filled in (a flat JSON Schema object); absent for a plain confirmation. */
      requested_schema?: unknown;
    }
  /**
   * codex-ts: the one event every question to the user comes as (approvals, request_user_input,
   * MCP elicitations): `request` is the reference's own request event, `key` names the question
   * until it is resolved. Answered by one `answer_question` op (the older per-kind ops still work).
   */
  | {
      type: "question_asked";
      key: string;
      request: QuestionRequest;
      /** Set when a sub-agent asks through its parent: which agent the question is from. */
      agent?: AgentRef;
    }
  /** The question is closed: answered, or cancelled (an interrupt, a shutdown, or nobody to ask). */
  /** `answer`: what the user answered (absent when cancelled), so a redraw can show the decision. */
  | { type: "question_resolved"; key: string; outcome: QuestionOutcomeKind; answer?: QuestionAnswer }
  | { type: "patch_apply_begin"; call_id: string; auto_approved: boolean; changes: Record<string, FileChange> }
  | {
      type: "patch_apply_end";
      call_id: string;
      stdout: string;
      stderr: string;
      success: boolean;
      /** Set in session files, as the reference records them: what the patch changed, so a resume can show it. */
      turn_id?: string;
      status?: ItemStatus;
      changes?: Record<string, FileChange>;
    }
  /**
   * A patch refused by the approval and sandbox settings before anything was written (the model
   * reads `reason`). Not part of the exec --json stream or session files: it lets a front end
   * say what refused the write. `blocked_by` is null for an empty patch; `path` is the first
   * path that could not be written.
   */
  | { type: "patch_apply_rejected"; call_id: string; reason: string; blocked_by: PatchBlocker | null; path: string | null }
  | { type: "turn_diff"; unified_diff: string }
  /** A review started: the events until exited_review_mode belong to the reviewer, whose history is its own. */
  | { type: "entered_review_mode"; target: ReviewRequest["target"]; user_facing_hint?: string }
  /** The review ended; `review_output` is null when it was interrupted. */
  | { type: "exited_review_mode"; review_output: ReviewOutputEvent | null }
  /** The conversation was summarised to free context (automatically or by a `compact` op). */
  | { type: "context_compacted" }
  /**
   * codex-ts: the settings the next turn runs with changed (after `override_turn_context`, or a
   * user turn's own overrides), so front ends show what the core will do instead of guessing.
   */
  | {
      type: "settings_changed";
      model: string;
      reasoning_effort: ReasoningEffort | null;
      approval_policy: AskForApproval;
      sandbox_policy: SandboxPolicy;
      cwd: string;
    }
  /** codex-ts: the models `list_models` asked for; `source` says whether the account listed them or the built-in catalog. */
  | { type: "list_models_response"; models: Array<{ slug: string; is_default: boolean }>; source: "account" | "catalog" }
  /** codex-ts: a line of an MCP sign-in's progress (the URL to open, say). */
  | { type: "mcp_sign_in_update"; server: string; message: string }
  /** codex-ts: the MCP sign-in ended; on success the server is starting again with the new tokens. */
  | { type: "mcp_sign_in_complete"; server: string; success: boolean; error?: string }
  /** A `thread_rollback` dropped this many user turns. */
  | { type: "thread_rolled_back"; num_turns: number }
  /** An `undo`, `redo` or a rollback of files started (the reference's shape). */
  | { type: "undo_started"; message: string | null }
  /**
   * It ended (the reference's `success` and `message`). codex-ts adds what happened: `action`,
   * the paths put back (`restored`), the files changed by hand since the turn that were left
   * alone (`conflicts`: send the op again with them in `overwrite` to overwrite them), and the
   * snapshots it applied (`snapshots`, their ids, which a resume reads to know what is undone).
   * Paths are relative to the session's working directory when inside it.
   */
  | {
      type: "undo_completed";
      success: boolean;
      message: string | null;
      action?: UndoAction;
      restored?: string[];
      conflicts?: string[];
      snapshots?: string[];
    }
  | {
      type: "get_history_entry_response";
      offset: number;
      log_id: number;
      /** Absent when there is no such entry. */
      entry?: { conversation_id: string; ts: number; text: string };
    }
  | { type: "plan_update"; explanation: string | null; plan: PlanItem[] }
  /** The thread's goal changed (set, progressed, paused, completed) or was cleared (null); kept in the rollout. */
  | { type: "thread_goal_updated"; goal: ThreadGoal | null }
  /** codex-ts: a turn the session started on its own to go on with an active goal (after its task_started). */
  | { type: "goal_continuation_started"; turn_id: string; objective: string }
  | {
      type: "list_custom_prompts_response";
      custom_prompts: Array<{ name: string; path: string; content: string; description?: string; argument_hint?: string }>;
    }
  | {
      type: "list_skills_response";
      skills: Array<{
        cwd: string;
        skills: Array<{ name: string; description: string; short_description?: string; path: string; scope: "repo" | "user" | "admin" }>;
        errors: Array<{ path: string; message: string }>;
      }>;
    }
  /** The model asks the user questions; answered by a `user_input_answer` op. */
  | { type: "request_user_input"; call_id: string; turn_id: string; questions: UserQuestion[] }
  /** The model attached a local image to the conversation (`path` is absolute). */
  | { type: "view_image_tool_call"; call_id: string; path: string }
  /** The provider started a hosted web search (`call_id` is the search item's id). */
  | { type: "web_search_begin"; call_id: string }
  /** It finished: `query` is the one-line description of `action` (see protocol/web-search.ts). */
  | { type: "web_search_end"; call_id: string; query: string; action: WebSearchAction }
  /** Usage so far and of the last response, with the latest rate-limit snapshot (null until one came). */
  | { type: "token_count"; info: TokenUsageInfo | null; rate_limits: RateLimitSnapshot | null }
  | { type: "stream_error"; message: string; codex_error_info: CodexErrorInfo | null; additional_details: string | null }
  | { type: "warning"; message: string }
  | {
      type: "error";
      message: string;
      codex_error_info: CodexErrorInfo | null;
      /** codex-ts: the model's answer was cut short (retrying would not help); absent for other errors. */
      incomplete_reason?: IncompleteReason;
    }
  | { type: "shutdown_complete" }
  /** MCP server start-up progress and MCP tool calls (see src/mcp/events.ts). */
  | McpEventMsg
  /** Sub-agents: the collab tools' begin / end events and children's status (see protocol/collab.ts). */
  | CollabEventMsg
  /** Lifecycle hook runs and the `/hooks` list (see hook-events.ts). */
  | HookEventMsg;

export type EventType = EventMsg["type"];

/** The reference's request events, each of which goes out inside a `question_asked`. */
export type QuestionRequest = Extract<
  EventMsg,
  { type: "exec_approval_request" | "apply_patch_approval_request" | "mcp_tool_call_approval_request" | "request_user_input" | "elicitation_request" }
>;

export type QuestionOutcomeKind = "answered" | "cancelled";

export interface Event {
  id: string;
  msg: EventMsg;
}
