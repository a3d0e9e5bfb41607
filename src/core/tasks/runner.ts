/**
 * The session's one active task: starting it (task_started, the task's opening, its work, then
 * task_complete, or error then task_complete), and aborting it (turn_aborted once; the task's
 * later events are dropped, open questions cancelled, its processes ended). A new task waits for the
 * previous one to be aborted first, so two never run at once.
 */
import type { CodexErrorInfo, EventMsg, TokenUsage } from "../../protocol/events.js";
import type { ResponseItem } from "../../protocol/items.js";
import type { UserInput } from "../../protocol/ops.js";
import type { ModelClient, RequestLineage } from "../../model/prompt.js";
import { ModelError, errorInfo } from "../../model/errors.js";
import { ToolError } from "../../tools/types.js";
import type { TurnContext } from "../../tools/turn-context.js";
import type { TokenAccounting } from "../token-usage.js";
import type { ConversationHistory } from "../history.js";
import { notifyTurnComplete, userTextMessages } from "../notify.js";
import type { SessionTask, TaskContext, TaskKind, TurnCompaction } from "./task.js";
import { errorMessage } from "../../util/errors.js";
import type { TurnFiles } from "../file-history.js";

export interface ActiveTask {
  subId: string;
  turn: TurnContext;
  kind: TaskKind;
  task: SessionTask;
  /** Unique across processes (submission ids restart at "0"): names the turn in its events and the rollout. */
  turnId: string;
  emit: (msg: EventMsg) => void;
  controller: AbortController;
  /** Input the user sent while it runs (steering), taken at its next model request. */
  pending: ResponseItem[];
  done: Promise<void>;
  aborted: boolean;
  /** When it started (performance.now()): its end events say how long it ran. */
  startedAt: number;
}

/** What the runner needs of its session (session-state.ts provides it). */
export interface TaskHost {
  readonly threadId: string;
  readonly requestLineage?: RequestLineage;
  readonly history: ConversationHistory;
  readonly options: { client: ModelClient; streamMaxRetries: number; notify?: readonly string[] | null };
  readonly tokens: TokenAccounting;
  readonly questions: { cancelAll(reason: "interrupted"): void };
  readonly unifiedExec: { terminateAll(): void };
  send(id: string, msg: EventMsg): void;
  baseInstructionsFor(turn: TurnContext): string;
  turnTools(turn: TurnContext, emit: (msg: EventMsg) => void, signal: AbortSignal): ReturnType<TaskContext["tools"]>;
  usageRecorder(turn: TurnContext, emit: (msg: EventMsg) => void): (usage: TokenUsage | null) => void;
  tokenCount(): EventMsg;
  compactionFor(turn: TurnContext, emit: (msg: EventMsg) => void, signal: AbortSignal): TurnCompaction;
  /** A regular task completed without error or abort. */
  afterTurn(subId: string): void;
  /** Undo's snapshots of a turn that may change files (null: none taken). */
  trackFiles(turn: TurnContext): TurnFiles | null;
}

export class TaskRunner {
  active: ActiveTask | null = null;

  constructor(private readonly host: TaskHost) {}

  /** The running task unless it was aborted: the one steered input joins. */
  running(): ActiveTask | null {
    return this.active && !this.active.aborted ? this.active : null;
  }

  /**
   * Runs a task as the session's only one: task_started, the task's own work, then
   * task_complete (or error then task_complete; an abort says turn_aborted instead, once).
   * `opening` records what the task starts from (a user turn's message) after task_started.
   */
  spawn(turn: TurnContext, task: SessionTask, opening?: () => EventMsg, items: UserInput[] = []): void {
    const host = this.host;
    const { subId, turnId } = turn;
    const controller = new AbortController();
    const active: ActiveTask = {
      subId,
      turn,
      kind: task.kind,
      task,
      turnId,
      controller,
      pending: [],
      aborted: false,
      done: Promise.resolve(),
      startedAt: performance.now(),
      // Once a task is aborted its late events are dropped: turn_aborted is the last word.
      emit: (msg) => {
        if (!active.aborted) host.send(subId, msg);
      },
    };
    const emit = active.emit;
    this.active = active;
    emit({ type: "task_started", turn_id: turnId, model_context_window: turn.model.contextWindow });
    if (opening) emit(opening());
    const ctx: TaskContext = {
      turn,
      signal: controller.signal,
      emit,
      history: host.history,
      client: host.options.client,
      threadId: host.threadId,
      ...(host.requestLineage ? { requestLineage: host.requestLineage } : {}),
      streamMaxRetries: host.options.streamMaxRetries,
      baseInstructions: host.baseInstructionsFor(turn),
      tools: () => host.turnTools(turn, emit, controller.signal),
      takePendingInput: () => active.pending.splice(0),
      recordUsage: host.usageRecorder(turn, emit),
      recordRateLimits: (snapshot) => {
        host.tokens.setRateLimits(snapshot);
        emit(host.tokenCount());
      },
      compaction: host.compactionFor(turn, emit, controller.signal),
      trackFiles: () => host.trackFiles(turn),
    };
    let completedTurn = false;
    active.done = task.run(ctx).then(
      (last) => {
        emit({ type: "task_complete", turn_id: turnId, last_agent_message: last, duration_ms: ranFor(active) });
        // The user's notifier hears about user turns that completed (not failed or aborted ones).
        if (!active.aborted && task.kind === "regular") {
          notifyTurnComplete(
            host.options.notify,
            { threadId: host.threadId, turnId, cwd: turn.cwd, inputMessages: userTextMessages(items), lastAssistantMessage: last },
            { onError: (message) => host.send(subId, { type: "warning", message }) },
          );
          completedTurn = true;
        }
      },
      (err: unknown) => {
        if (active.aborted) return;
        const { message, info } = describeTurnError(err);
        const incomplete = err instanceof ModelError ? err.options.incompleteReason : undefined;
        emit({ type: "error", message, codex_error_info: info, ...(incomplete ? { incomplete_reason: incomplete } : {}) });
        emit({ type: "task_complete", turn_id: turnId, last_agent_message: null, duration_ms: ranFor(active) });
      },
    ).finally(() => {
      // Input that arrived too late for the model is not lost: it stays in history.
      host.history.append(...active.pending.splice(0));
      if (this.active === active) this.active = null;
      // Only now is the session idle, so a goal's next turn can start here.
      if (completedTurn && !active.aborted) host.afterTurn(subId);
    });
  }

  /** Aborts the running task (if any) and waits until it has stopped. */
  async abort(reason: "interrupted" | "replaced"): Promise<void> {
    const task = this.active;
    if (!task || task.aborted) return;
    task.task.onAbort?.();
    // Its questions close first (question_resolved, while its events still go out); turn_aborted is the last word.
    this.host.questions.cancelAll("interrupted");
    this.host.send(task.subId, { type: "turn_aborted", turn_id: task.turnId, reason, duration_ms: ranFor(task) });
    task.aborted = true;
    task.controller.abort(new Error("turn aborted"));
    this.host.unifiedExec.terminateAll();
    await task.done;
  }
}

/** Whole milliseconds since the task started. */
function ranFor(task: ActiveTask): number {
  return Math.round(performance.now() - task.startedAt);
}

function describeTurnError(err: unknown): { message: string; info: CodexErrorInfo } {
  if (err instanceof ModelError) {
    const info = errorInfo(err);
    const message = !err.retryable
      ? err.message
      : err.options.streamDisconnected
        ? `stream disconnected before completion: ${err.message}`
        : `request failed after retries${err.options.httpStatus ? ` (HTTP ${err.options.httpStatus})` : ""}: ${err.message}`;
    return { message, info };
  }
  if (err instanceof ToolError) return { message: err.message, info: "other" };
  return { message: errorMessage(err), info: "other" };
}
