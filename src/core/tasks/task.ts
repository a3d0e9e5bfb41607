/**
 * A task is what one submission runs while the session is busy: a regular user turn, a command
 * the user typed (`!cmd`), a manual compaction, a review. The session owns the lifecycle they
 * share (task_started, one abort path, task_complete or turn_aborted, at most one task at a
 * time); a task only does its own work through the context it is given.
 */
import type { EventMsg, RateLimitSnapshot, TokenUsage } from "../../protocol/events.js";
import type { ResponseItem } from "../../protocol/items.js";
import type { ToolSpec } from "../../protocol/tool-spec.js";
import type { ModelClient, RequestLineage } from "../../model/prompt.js";
import type { ToolRouter } from "../../tools/router.js";
import type { ToolSearchCatalog } from "../../tools/tool-search.js";
import type { TurnContext } from "../../tools/turn-context.js";
import type { ConversationHistory } from "../history.js";
import type { CompactOptions } from "../compact/compactor.js";
import type { TurnFiles } from "../file-history.js";

/** Automatic compaction as a turn sees it (see compact/compactor.ts). */
export interface TurnCompaction {
  /** Whether history has reached the auto-compact threshold. */
  due(overheadTokens: number): boolean;
  /**
   * Compacts now (`auto`: because history reached the limit; `manual`: the user asked); false
   * when a PreCompact hook stopped it, in which case nothing changed.
   */
  run(options: CompactOptions, trigger: "auto" | "manual"): Promise<boolean>;
  /** The provider said the window overflowed: usage shows it full. */
  windowFull(): void;
}

export type TaskKind = "regular" | "user_shell" | "compact" | "review";

/**
 * What a running task may use of its session; the turn loop (../turn.ts) takes it as it is, and
 * a task that runs a turn differently (a review) passes a copy with its own parts swapped in.
 */
export interface TaskContext {
  turn: TurnContext;
  signal: AbortSignal;
  /** Sends an event of this task; dropped once the task was aborted. */
  emit(msg: EventMsg): void;
  history: ConversationHistory;
  client: ModelClient;
  threadId: string;
  /** Set for a sub-agent: what its requests say of it (root thread, how it started). */
  requestLineage?: RequestLineage;
  streamMaxRetries: number;
  /** The instructions every request of this thread starts with. */
  baseInstructions: string;
  /** The turn's tools (waits for MCP servers to settle when there are some). */
  tools(): Promise<{ specs: ToolSpec[]; router: ToolRouter; deferred?: ToolSearchCatalog }>;
  /** Input the user sent while the task was running, taken once. */
  takePendingInput(): ResponseItem[];
  recordUsage(usage: TokenUsage | null): void;
  recordRateLimits(snapshot: RateLimitSnapshot): void;
  /** Compacting this thread's history (automatically, or as the task itself); null: never (a review's own history). */
  compaction: TurnCompaction | null;
  /** Starts undo's snapshots of this turn (a user turn does; null when undo is off or nothing can change). */
  trackFiles?(): TurnFiles | null;
}

export interface SessionTask {
  readonly kind: TaskKind;
  /** Does the work; resolves with the last agent message (null when there is none). */
  run(ctx: TaskContext): Promise<string | null>;
  /** Called when the task is aborted, before turn_aborted goes out: a last word of its own. */
  onAbort?(): void;
}
