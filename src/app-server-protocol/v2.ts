/**
 * The app-server protocol's v2 shapes that codex-ts sends and reads, with the reference's field
 * names (camelCase, `type`-tagged unions). The reference's JSON Schema (test/fixtures/
 * app-server-schema) is the authority: every message the server sends is checked against it in
 * the tests. Only what we serve is written out here.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type V2AskForApproval = "untrusted" | "on-failure" | "on-request" | "never";
export type V2SandboxMode = "read-only" | "workspace-write" | "danger-full-access";
export type V2ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh";

export type V2SandboxPolicy =
  | { type: "dangerFullAccess" }
  | { type: "readOnly"; networkAccess: boolean }
  | { type: "workspaceWrite"; writableRoots: string[]; networkAccess: boolean; excludeTmpdirEnvVar: boolean; excludeSlashTmp: boolean };

export type V2UserInput =
  | { type: "text"; text: string; text_elements: unknown[] }
  | { type: "image"; url: string }
  | { type: "localImage"; path: string }
  | { type: "skill"; name: string; path: string }
  | { type: "mention"; name: string; path: string };

export type ThreadStatus = { type: "notLoaded" } | { type: "idle" } | { type: "systemError" } | { type: "active"; activeFlags: ThreadActiveFlag[] };
export type ThreadActiveFlag = "waitingOnApproval" | "waitingOnUserInput";

export type TurnStatus = "completed" | "interrupted" | "failed" | "inProgress";

export interface TurnError {
  message: string;
  codexErrorInfo: JsonValue | null;
  additionalDetails: string | null;
}

export interface Turn {
  id: string;
  rootTurnId: string | null;
  items: ThreadItem[];
  itemsView: "notLoaded" | "summary" | "full";
  status: TurnStatus;
  error: TurnError | null;
  startedAt: number | null;
  completedAt: number | null;
  durationMs: number | null;
}

/**
 * A thread as the protocol shows it. `parentThreadId`, `agentNickname` and `agentRole` are set
 * for a sub-agent's thread (null otherwise); `turns` only in resume, fork and read responses.
 */
export interface Thread {
  id: string;
  sessionId: string;
  forkedFromId: string | null;
  parentThreadId: string | null;
  preview: string;
  ephemeral: boolean;
  section: null;
  sectionEnteredAt: null;
  projectId: null;
  historyMode: "legacy" | "paginated";
  modelProvider: string;
  model: string | null;
  reasoningEffort: V2ReasoningEffort | null;
  createdAt: number;
  updatedAt: number;
  recencyAt: number | null;
  status: ThreadStatus;
  path: string | null;
  cwd: string;
  cliVersion: string;
  originator: string | null;
  source: JsonValue;
  /** "subagent" for a sub-agent's loaded thread; null otherwise. */
  threadSource: "subagent" | null;
  agentNickname: string | null;
  agentRole: string | null;
  gitInfo: { sha: string | null; branch: string | null; originUrl: string | null } | null;
  name: string | null;
  turns: Turn[];
}

export type CommandAction =
  | { type: "read"; command: string; name: string; path: string }
  | { type: "listFiles"; command: string; path: string | null }
  | { type: "search"; command: string; query: string | null; path: string | null }
  | { type: "unknown"; command: string };

export type PatchChangeKind = { type: "add" } | { type: "delete" } | { type: "update"; move_path: string | null };
export interface FileUpdateChange {
  path: string;
  kind: PatchChangeKind;
  diff: string;
}

export type V2WebSearchAction =
  | { type: "search"; query: string | null; queries: string[] | null }
  | { type: "openPage"; url: string | null }
  | { type: "findInPage"; url: string | null; pattern: string | null }
  | { type: "other" };

interface ItemTimes {
  startedAtMs?: number | null;
  completedAtMs?: number | null;
}

export type CommandExecutionStatus = "inProgress" | "completed" | "failed" | "declined";
export type PatchApplyStatus = CommandExecutionStatus;

export type CollabAgentTool = "spawnAgent" | "sendInput" | "resumeAgent" | "wait" | "closeAgent";
export type CollabAgentStatus = "pendingInit" | "running" | "interrupted" | "completed" | "errored" | "shutdown" | "notFound";
export interface CollabAgentState {
  status: CollabAgentStatus;
  message: string | null;
}

export type ThreadItem = ItemTimes &
  (
    | { type: "userMessage"; id: string; clientId: string | null; content: V2UserInput[] }
    | {
        type: "agentMessage";
        moderation: null;
        id: string;
        text: string;
        phase: null;
        memoryCitation: null;
        delivery: null;
        questions: null;
      }
    | { type: "plan"; id: string; text: string }
    | { type: "reasoning"; id: string; summary: string[]; content: string[] }
    | {
        type: "commandExecution";
        id: string;
        pluginId: null;
        scriptPath: null;
        command: string;
        cwd: string;
        processId: string | null;
        source: "agent" | "userShell" | "unifiedExecStartup" | "unifiedExecInteraction";
        status: CommandExecutionStatus;
        commandActions: CommandAction[];
        aggregatedOutput: string | null;
        exitCode: number | null;
        durationMs: number | null;
      }
    | { type: "fileChange"; id: string; changes: FileUpdateChange[]; status: PatchApplyStatus }
    | {
        type: "mcpToolCall";
        id: string;
        server: string;
        tool: string;
        status: "inProgress" | "completed" | "failed";
        arguments: JsonValue;
        appContext: null;
        mcpAppUi: null;
        pluginId: null;
        readOnlyHint: boolean | null;
        result: { content: JsonValue[]; structuredContent: JsonValue | null; _meta: JsonValue | null } | null;
        error: { message: string } | null;
        durationMs: number | null;
      }
    | {
        /** A sub-agent tool call (spawn, send, wait, resume, close), its id the call's. */
        type: "collabAgentToolCall";
        id: string;
        tool: CollabAgentTool;
        status: "inProgress" | "completed" | "failed" | "interrupted";
        senderThreadId: string;
        receiverThreadIds: string[];
        prompt: string | null;
        model: string | null;
        reasoningEffort: V2ReasoningEffort | null;
        /** The last known status of each agent the call concerned (a completed one's answer, an errored one's reason). */
        agentsStates: Record<string, CollabAgentState>;
      }
    | { type: "webSearch"; id: string; query: string; action: V2WebSearchAction | null }
    | { type: "imageView"; id: string; path: string }
    | { type: "enteredReviewMode"; id: string; review: string }
    | { type: "exitedReviewMode"; id: string; review: string }
    | { type: "contextCompaction"; id: string }
  );

export type ThreadItemType = ThreadItem["type"];

export interface TokenUsageBreakdown {
  totalTokens: number;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteInputTokens: number;
  outputTokens: number;
  reasoningOutputTokens: number;
}

export interface ThreadTokenUsage {
  total: TokenUsageBreakdown;
  last: TokenUsageBreakdown;
  modelContextWindow: number | null;
}

export interface V2RateLimitWindow {
  usedPercent: number;
  windowDurationMins: number | null;
  resetsAt: number | null;
}

export interface V2RateLimitSnapshot {
  limitId: string | null;
  limitName: string | null;
  normalModelSlug: null;
  primary: V2RateLimitWindow | null;
  secondary: V2RateLimitWindow | null;
  credits: { hasCredits: boolean; unlimited: boolean; balance: string | null } | null;
  individualLimit: null;
  spendControlReached: null;
  planType: string | null;
  rateLimitReachedType: null;
}

/** The thread settings every start / resume / fork response carries. */
export interface ThreadSettingsResponse {
  thread: Thread;
  model: string;
  modelProvider: string;
  serviceTier: null;
  disabledPluginIds: string[];
  cwd: string;
  instructionSources: string[];
  approvalPolicy: V2AskForApproval;
  approvalsReviewer: "user";
  sandbox: V2SandboxPolicy;
  reasoningEffort: V2ReasoningEffort | null;
}

export type CommandApprovalDecision =
  | "accept"
  | "acceptForSession"
  | { acceptWithExecpolicyAmendment: { execpolicy_amendment: string[] } }
  | "decline"
  | "cancel";

export type FileChangeApprovalDecision = "accept" | "acceptForSession" | "decline" | "cancel";

export interface UserInputQuestion {
  id: string;
  header: string;
  question: string;
  isOther: boolean;
  isSecret: boolean;
  options: Array<{ label: string; description: string }> | null;
}

/**
 * codex-ts's addition: what `thread/undo`, `thread/redo` and a `thread/rollback` with `restore`
 * did to the files (the core's `undo_completed`). `conflicts` are files changed by hand since the
 * turn, left alone: the request sent again with them in `overwrite` overwrites them.
 */
export interface FilesRestored {
  success: boolean;
  message: string | null;
  action: "undo" | "redo" | "rollback";
  /** The paths put back, relative to the thread's folder when inside it. */
  restored: string[];
  conflicts: string[];
}

/** A hook event as the protocol spells it (`preToolUse`). */
export type V2HookEventName =
  | "preModelRequest" | "postModelRequest" | "preToolUse" | "permissionRequest" | "postToolUse" | "preCompact" | "postCompact"
  | "sessionStart" | "sessionEnd" | "userPromptSubmit" | "subagentStart" | "subagentStop" | "stop" | "interrupt";

/** Where a hook came from, as the protocol names the config layers (codex-ts has the first three). */
export type V2HookSource = "user" | "project" | "sessionFlags" | "system" | "mdm" | "plugin" | "cloudRequirements" | "cloudManagedConfig" | "legacyManagedConfigFile" | "legacyManagedConfigMdm" | "unknown";

/** One hook run, in `hook/started` and `hook/completed`. */
export interface V2HookRunSummary {
  id: string;
  eventName: V2HookEventName;
  handlerType: "command" | "mcpTool" | "prompt" | "agent";
  executionMode: "sync" | "async";
  scope: "thread" | "turn";
  sourcePath: string;
  source: V2HookSource;
  displayOrder: number;
  status: "running" | "completed" | "failed" | "blocked" | "stopped";
  statusMessage: string | null;
  startedAt: number;
  completedAt: number | null;
  durationMs: number | null;
  entries: Array<{ kind: "warning" | "stop" | "feedback" | "context" | "error"; text: string }>;
}

/** One configured hook, in `hooks/list` (the command form; codex-ts has no other handler types). */
export interface V2HookMetadata {
  key: string;
  eventName: V2HookEventName;
  handlerType: "command";
  command: string;
  async: boolean;
  matcher: string | null;
  timeoutSec: number;
  statusMessage: string | null;
  sourcePath: string;
  source: V2HookSource;
  displayOrder: number;
  enabled: boolean;
  isManaged: boolean;
  currentHash: string;
  trustStatus: "managed" | "untrusted" | "trusted" | "modified";
}

export interface V2HooksListEntry {
  cwd: string;
  hooks: V2HookMetadata[];
  warnings: string[];
  errors: Array<{ path: string; message: string }>;
}
