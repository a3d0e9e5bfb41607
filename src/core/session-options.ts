/** What a Session is started with: resolved settings (no config parsing happens in core). */
import type { ModelSettings } from "./model-settings.js";
import type { Skill } from "../config/skills.js";
import type { ExecPolicy } from "../approval/exec-policy/policy.js";
import type { TelemetryRecorder } from "../telemetry/recorder.js";
import type { ModelClient } from "../model/prompt.js";
import type { ShellEnvironmentPolicy } from "../exec/env.js";
import type { AskForApproval, ReasoningEffort, ReasoningSummary, SandboxPolicy } from "../protocol/policy.js";
import type { HistorySettings } from "../history/prompt-history.js";
import type { CollaborationMode } from "../protocol/ops.js";
import type { RolloutRecorder } from "../rollout/recorder.js";
import type { RecordedThread } from "../rollout/reconstruct.js";
import type { McpSignInHandler } from "../mcp/sign-in.js";
import type { McpServerConfig } from "../config/mcp.js";
import type { FileSystemRules } from "../sandbox/fs-rules.js";
import type { AccountModel } from "./account-models.js";
import type { ResponseItem } from "../protocol/items.js";
import type { ThreadLineage } from "../protocol/collab.js";
import type { QuestionUpstream } from "../approval/questions.js";
import type { SessionShellSnapshot } from "../exec/shell-snapshot.js";
import type { McpRuntime } from "./mcp-runtime.js";
import type { AgentTree } from "./agents/agent-tree.js";
import type { EditorFiles } from "../protocol/editor-files.js";
import type { SnapshotLimits } from "../undo/exclusions.js";
import type { HookRegistry } from "../hooks/registry.js";
import type { SessionStartSource, SubagentContext } from "../hooks/payloads.js";

/** Settings a user turn can change; the session keeps the latest. */
export interface SessionSettings {
  model: string;
  modelProviderId: string;
  cwd: string;
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  /** null: the model's default effort. */
  reasoningEffort: ReasoningEffort | null;
  /** null: let the model decide (the field is left out of requests). */
  reasoningSummary: ReasoningSummary | null;
  verbosity: "low" | "medium" | "high" | null;
  /** Plan mode (`plan`) or working (`default`, when absent). */
  collaborationMode?: CollaborationMode;
  /** `plan_mode_reasoning_effort`: the effort while planning; null or absent: the session's. */
  planModeReasoningEffort?: ReasoningEffort | null;
}

export interface SessionOptions {
  settings: SessionSettings;
  client: ModelClient;
  streamMaxRetries: number;
  /** Extra guidance from config, sent as a developer message. */
  developerInstructions: string | null;
  /** AGENTS.md text for the session's project, already concatenated. */
  userInstructions: string | null;
  /** Replaces the built-in base instructions (model_instructions_file). */
  baseInstructionsOverride: string | null;
  shellEnvironmentPolicy: ShellEnvironmentPolicy;
  /** What the permission profile denies or keeps read-only beyond the sandbox policy; absent: nothing. */
  fileSystemRules?: FileSystemRules;
  userShell?: string;
  threadId?: string;
  /** Emitted as warning events right after session_configured. */
  startupWarnings?: string[];
  /** `notify` from config: a program told (with one JSON argument) about each completed turn. */
  notify?: readonly string[] | null;
  /** Writes the session's rollout file; absent or null: nothing is recorded (`--ephemeral`). */
  recorder?: RolloutRecorder | null;
  /** A recorded thread to continue instead of starting a new one. */
  resume?: ResumeOptions;
  /** Where prompt history lives ($CODEX_HOME) and how it is kept; absent: no prompt history. */
  promptHistory?: { codexHome: string; settings: HistorySettings; metadata?: { logId: number; count: number } };
  /**
   * `[mcp_servers]` from config: started in the background when the session starts, their tools
   * offered from the first turn on. Absent or without enabled servers: no MCP code is loaded.
   */
  mcpServers?: Record<string, McpServerConfig>;
  /**
   * A front end that can show the user a URL (the TUI) passes this to let MCP servers that ask
   * for an OAuth sign-in get one mid-session (docs/mcp.md, "Front ends"); exec passes none.
   */
  mcpSignIn?: McpSignInHandler;
  /** The models the account lists (a ChatGPT login), for `list_models`; absent or null: the catalog's. */
  accountModels?: AccountModel[] | null;
  /** What config changes about the model (context window, tool-output budget, feature flags). */
  modelSettings?: ModelSettings;
  /**
   * Compact with the provider's server-side endpoint instead of a local summary (the built-in
   * OpenAI provider with `[features] remote_compaction`, on by default).
   */
  remoteCompaction?: boolean;
  /** `show_raw_agent_reasoning`: emit the model's raw reasoning text as well as its summaries. */
  showRawAgentReasoning?: boolean;
  /** `review_model`: the model reviews run with; absent: the session's model. */
  reviewModel?: string | null;
  /** `compact_prompt` (or the file's text): what a local compaction asks for instead of our prompt. */
  compactPrompt?: string | null;
  /** $CODEX_HOME, where custom prompts and skills are looked up; absent: none are. */
  codexHome?: string;
  /** Skills the user can mention as `$name`; a mentioned skill's file follows their message. */
  skills?: Skill[];
  /** The command rules (`.rules` files) and where approved prefixes are written; absent: no rules. */
  execPolicy?: { policy: ExecPolicy; codexHome: string };
  /** Where the `codex.*` OpenTelemetry events go; absent: nowhere. */
  telemetry?: TelemetryRecorder;

  // Sub-agents (core/agents/): set by the thread manager for a tree's threads.
  /** The tree this thread belongs to (limits, roles, how children open); absent: no sub-agents. */
  agentTree?: AgentTree;
  /** Set for a sub-agent: its parent, depth, nickname and role. */
  lineage?: ThreadLineage;
  /** A sub-agent's questions also go to its parent's front end, naming the agent. */
  questionUpstream?: QuestionUpstream;
  /** Starts the thread from this history instead of a fresh initial context (a forked sub-agent). */
  initialHistory?: readonly ResponseItem[];
  /** The parent's shell snapshot, which a sub-agent uses instead of making its own (the parent disposes of it). */
  sharedShellSnapshot?: SessionShellSnapshot | null;
  /** The parent's MCP servers, which a sub-agent calls instead of starting its own (the parent ends them). */
  sharedMcp?: McpRuntime | null;
  /** The editor's files (an ACP client's buffers): patches read and write through it; absent: the disk. */
  editorFiles?: EditorFiles;
  /** The lifecycle hooks this thread may run (docs/hooks.md); absent: none. */
  hooks?: HookRegistry;
  /**
   * What SessionStart hooks are told started the session at its first turn; absent: `resume`
   * for a resumed thread, `fork` for a forked one, else `startup`.
   */
  sessionStartSource?: SessionStartSource;
  /**
   * Set for a sub-agent's session: its turns tell hooks who it is, SubagentStart runs at its
   * first turn (instead of SessionStart) and SubagentStop instead of Stop. Its hooks' session id
   * should be the root thread's (`hookSessionId`).
   */
  subagent?: SubagentContext;
  /** The session id hooks read; absent: the thread's own id (a sub-agent passes its root thread's). */
  hookSessionId?: string;
  /**
   * After a user turn, keep going on an active goal in turns of its own while its budget allows
   * (the interactive UI); exec and the MCP server end with the turn they were asked for.
   */
  goalContinuation?: boolean;
  /**
   * Snapshots of the working tree around each turn, so its changes to files can be undone
   * (docs/undo.md); absent: none are taken. Kept under `codexHome` (a temporary folder for a
   * thread without a session file).
   */
  undo?: UndoOptions;
}

export interface UndoOptions {
  limits: SnapshotLimits;
  /** Say nothing about what snapshots leave out. */
  quiet: boolean;
}

export interface ResumeOptions {
  /** Its history is resent as recorded and not recorded again; its id is kept unless `threadId` is set. */
  thread: RecordedThread;
  /** Warn when the last recorded turn used another model (a resume does; a fork does not). */
  warnOnModelChange: boolean;
}
