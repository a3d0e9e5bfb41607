/**
 * Lifecycle hooks as the protocol carries them: the events, their order and labels, one hook run
 * as `hook_started` / `hook_completed` report it (the reference's `HookRunSummary`, snake_case),
 * and the list `/hooks` shows. Pure data: the engine is src/hooks/, and front ends read only this.
 */

/** Every event a hook can be configured for, in the reference's order (hooks.json keys). */
export const HOOK_EVENTS = [
  { name: "PreToolUse", label: "pre_tool_use", description: "Before a tool executes" },
  { name: "PermissionRequest", label: "permission_request", description: "When permission is requested" },
  { name: "PostToolUse", label: "post_tool_use", description: "After a tool executes" },
  { name: "PreCompact", label: "pre_compact", description: "Before context compaction" },
  { name: "PostCompact", label: "post_compact", description: "After context compaction" },
  { name: "SessionStart", label: "session_start", description: "When a new session starts" },
  { name: "SessionEnd", label: "session_end", description: "Right before a session ends" },
  { name: "UserPromptSubmit", label: "user_prompt_submit", description: "When the user submits a prompt" },
  { name: "SubagentStart", label: "subagent_start", description: "When a subagent is created" },
  { name: "SubagentStop", label: "subagent_stop", description: "Right before a subagent ends its turn" },
  { name: "Stop", label: "stop", description: "Right before the agent ends its turn" },
  { name: "Interrupt", label: "interrupt", description: "Right before an interrupted turn is aborted" },
] as const;

/** An event as hooks.json names it (`PreToolUse`). */
export type HookEventName = (typeof HOOK_EVENTS)[number]["name"];
/** The same event as events, state keys and the run id spell it (`pre_tool_use`). */
export type HookEventLabel = (typeof HOOK_EVENTS)[number]["label"];

export function hookEventLabel(name: HookEventName): HookEventLabel {
  return HOOK_EVENTS.find((e) => e.name === name)?.label ?? "stop";
}

export function hookEventName(label: HookEventLabel): HookEventName {
  return HOOK_EVENTS.find((e) => e.label === label)?.name ?? "Stop";
}

export type HookRunStatus = "running" | "completed" | "failed" | "blocked" | "stopped";
/** `feedback`: a block's reason; `context`: text added for the model; `stop`: why processing stopped. */
export type HookOutputEntryKind = "warning" | "stop" | "feedback" | "context" | "error";

export interface HookOutputEntry {
  kind: HookOutputEntryKind;
  text: string;
}

/** Where a hook was configured: `$CODEX_HOME` (and its profile file), a trusted project's `.codex/`, or `-c`. */
export type HookSource = "user" | "project" | "session_flags";

/** One run of one configured hook. */
export interface HookRunSummary {
  /** `<event label>:<display order>:<source file>`, plus `:<tool call id>` for tool events. */
  id: string;
  event_name: HookEventLabel;
  handler_type: "command";
  execution_mode: "sync" | "async";
  scope: "thread" | "turn";
  source_path: string;
  source: HookSource;
  display_order: number;
  status: HookRunStatus;
  status_message: string | null;
  /** Unix seconds. */
  started_at: number;
  completed_at: number | null;
  duration_ms: number | null;
  entries: HookOutputEntry[];
}

/** Whether a hook may run: trusted at its current definition, never trusted, or changed since it was. */
export type HookTrustStatus = "trusted" | "untrusted" | "modified";

/** One configured hook as `/hooks` lists it. */
export interface HookListEntry {
  /** What its state is saved under: `<source file>:<event label>:<group index>:<hook index>`. */
  key: string;
  event_name: HookEventLabel;
  matcher: string | null;
  command: string;
  timeout_sec: number;
  status_message: string | null;
  execution_mode: "sync" | "async";
  source_path: string;
  source: HookSource;
  display_order: number;
  enabled: boolean;
  /** `sha256:<hex>` of its normalized definition; trusting a hook records this. */
  current_hash: string;
  trust_status: HookTrustStatus;
}

/** A change to one hook's saved state: trust it at its current definition, or turn it on or off. */
export interface HookStateUpdate {
  key: string;
  trust?: boolean;
  enabled?: boolean;
}

export type HookEventMsg =
  /** A hook began; `turn_id` is null for hooks outside a turn (SessionEnd). */
  | { type: "hook_started"; turn_id: string | null; run: HookRunSummary }
  | { type: "hook_completed"; turn_id: string | null; run: HookRunSummary }
  /**
   * codex-ts: the answer to `list_hooks` (and to `update_hook_state`): every configured hook,
   * problems found in the hook files, and whether trust is bypassed for this session.
   */
  | { type: "list_hooks_response"; hooks: HookListEntry[]; warnings: string[]; bypass_trust: boolean };

export type HookOp =
  /** codex-ts: asks for the configured hooks; answered by list_hooks_response. */
  | { type: "list_hooks" }
  /** codex-ts: trusts, enables or disables hooks (saved in config.toml's `[hooks.state]`); answered by list_hooks_response. */
  | { type: "update_hook_state"; updates: HookStateUpdate[] };
