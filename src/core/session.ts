/**
 * The agent core as a queue pair: front ends `submit` Ops and read Events, nothing else crosses.
 * This kernel numbers and queues ops, handles them one at a time in arrival order through the
 * handler table (ops/), and fans the events out to every reader. A user turn starts a task that
 * runs beside the op queue (tasks/runner.ts), so interrupts and answers reach it while it works;
 * at most one task runs, and input that arrives meanwhile joins the running turn.
 *
 * With a recorder, the session is written down as it happens: every history append and every
 * event the rollout policy keeps goes to the rollout file at once. A resumed session starts from
 * a recorded thread's history (restore.ts) instead of a fresh initial context. MCP servers from
 * config start in the background (mcp-runtime.ts); a session without servers never loads MCP code.
 */
import { historyMetadata } from "../history/prompt-history.js";
import type { Event, EventMsg } from "../protocol/events.js";
import type { Op } from "../protocol/ops.js";
import type { ThreadHandle } from "../protocol/thread-handle.js";
import type { AgentStatusEntry, ThreadLineage } from "../protocol/collab.js";
import type { TelemetryRecorder } from "../telemetry/recorder.js";
import { uuidv7 } from "../util/ids.js";
import { EventBus, type EventSubscription } from "./event-bus.js";
import { initialContext } from "./initial-context.js";
import { handleOp } from "./ops/index.js";
import { restoreThread } from "./restore.js";
import { loadThread } from "../rollout/reconstruct.js";
import type { SessionOptions, SessionSettings } from "./session-options.js";
import { SessionState } from "./session-state.js";
import type { McpRuntime } from "./mcp-runtime.js";
import { errorMessage } from "../util/errors.js";

export class Session implements ThreadHandle {
  readonly threadId: string;
  private readonly bus = new EventBus();
  /** What `nextEvent` reads: subscribed before the first event, so simple callers miss nothing. */
  private readonly firstReader: EventSubscription;
  private readonly state: SessionState;
  private nextSubmissionId = 0;
  private opChain: Promise<void> = Promise.resolve();

  constructor(options: SessionOptions) {
    const resumed = options.resume?.thread;
    this.threadId = options.threadId ?? resumed?.threadId ?? uuidv7();
    this.firstReader = this.bus.subscribe();
    const state = new SessionState(options, this.threadId, (id, msg) => this.publish(id, msg));
    this.state = state;
    // The core never writes to the terminal: a failing session file is a warning event.
    state.recorder?.reportErrorsTo((message) => state.send("", { type: "warning", message }));
    state.send("", this.configuredEvent(resumed?.initialMessages));
    for (const message of options.startupWarnings ?? []) state.send("", { type: "warning", message });
    state.startShellSnapshot();
    if (resumed) {
      restoreThread(state, resumed, options.resume?.warnOnModelChange === true);
      state.agents?.restore(resumed.subAgents);
    } else if (options.initialHistory) {
      // A forked sub-agent: its parent's conversation so far, context included.
      state.history.append(...options.initialHistory);
    } else state.history.append(...initialContext(state.settings, options, state.deferredToolsNote()));
    state.startMcp();
    // The deny patterns' first walk, off the first command's path.
    void state.fileSystemGuard.prewarm();
    // Undo's repository look-up, off the first turn's snapshot.
    void state.files.prewarm();
  }

  /** The `codex.*` OpenTelemetry events of this thread (records nothing without an exporter). */
  get telemetry(): TelemetryRecorder {
    return this.state.telemetry;
  }

  /**
   * Resolves once every `required` MCP server is ready (at once without servers); rejects with
   * "required MCP servers failed to initialize: <server>: <why>; …" when one is not, which a front
   * end should treat as a failed start, as the reference does.
   */
  async mcpReady(): Promise<void> {
    await this.state.mcp?.ready();
  }

  /** Queues an op; returns its submission id ("0", "1", …), which its events will carry. */
  submit(op: Op): string {
    const id = String(this.nextSubmissionId++);
    this.opChain = this.opChain
      .then(() => {
        if (!this.state.closed) return handleOp(this.state, id, op);
      })
      .catch((err: unknown) => {
        this.state.send(id, { type: "error", message: `internal error: ${errorMessage(err)}`, codex_error_info: "other" });
      });
    return id;
  }

  /**
   * The next event, or null after shutdown_complete has been read. This reader sees every event
   * from the session's start; other readers use `subscribe`.
   */
  nextEvent(): Promise<Event | null> {
    return this.firstReader.next();
  }

  [Symbol.asyncIterator](): AsyncIterator<Event> {
    return this.firstReader[Symbol.asyncIterator]();
  }

  /**
   * Another reader of the session's events: it receives every event from now on, in order,
   * independently of the others (a UI and a logger, say). Ends after shutdown_complete.
   */
  subscribe(): EventSubscription {
    return this.bus.subscribe();
  }

  /**
   * A warning from a service the session uses (the telemetry exporter, say), shown like its
   * own; false when the session has shut down and nobody would see it.
   */
  reportWarning(message: string): boolean {
    return this.state.reportWarning(message);
  }

  /**
   * session_configured as of now, with the conversation so far read back from the thread's
   * rollout: what a front end that starts showing the thread late (a sub-agent opened with
   * `/agent`) draws it from. Without a rollout the conversation starts empty.
   */
  redrawEvent(): EventMsg {
    return this.redrawLater()();
  }

  /**
   * What redrawEvent gives, as a function that still works once the thread has shut down: its
   * settings as of now and its file, without the rest of the session (a closed sub-agent keeps
   * it, so its conversation can still be shown).
   */
  redrawLater(): () => EventMsg {
    const path = this.state.recorder?.onDisk ? this.state.recorder.path : null;
    const configured = this.configuredEvent(undefined);
    return () => ({ ...configured, initial_messages: recordedMessages(path) });
  }

  private configuredEvent(initialMessages: EventMsg[] | undefined): EventMsg {
    const state = this.state;
    const settings = state.settings;
    return {
      type: "session_configured",
      session_id: this.threadId,
      model: settings.model,
      model_provider_id: settings.modelProviderId,
      approval_policy: settings.approvalPolicy,
      sandbox_policy: settings.sandboxPolicy,
      cwd: settings.cwd,
      reasoning_effort: settings.reasoningEffort,
      ...promptHistoryMetadata(state.options),
      rollout_path: state.recorder?.path ?? null,
      ...(initialMessages ? { initial_messages: initialMessages } : {}),
      ...lineageFields(state.options.lineage),
    };
  }

  /** Its parent replaced the MCP servers this sub-agent shares: it calls the new ones from now on. */
  useSharedMcp(mcp: McpRuntime | null): void {
    this.state.useSharedMcp(mcp);
  }

  /** Set for a sub-agent: its parent, depth, nickname and role (null for a user's thread). */
  get lineage(): ThreadLineage | null {
    return this.state.lineage;
  }

  /** The sub-agents this thread started, open or closed, with their status (empty when sub-agents are off). */
  subAgents(): SubAgentView[] {
    return (this.state.agents?.list() ?? []).map((child) => ({
      ...child.ref,
      status: child.status,
      closed: child.closed,
      depth: child.depth,
      thread: child.session,
      redraw: () => child.redraw(),
    }));
  }

  /** The settings the next turn would run with. */
  get currentSettings(): Readonly<SessionSettings> {
    return this.state.settings;
  }

  private publish(id: string, msg: EventMsg): void {
    this.bus.publish({ id, msg });
    this.state.recorder?.recordEvent(msg);
    // Every reader ends after shutdown_complete.
    if (msg.type === "shutdown_complete") this.bus.close();
  }
}

/** A sub-agent as front ends see it: its names, status, and its thread while open. */
export interface SubAgentView extends AgentStatusEntry {
  closed: boolean;
  depth: number;
  thread: ThreadHandle | null;
  /**
   * Its session_configured with its conversation so far, to start showing it late: live while
   * open, as recorded once closed; null when nothing can be shown (a sub-agent of a resumed
   * thread that was not reopened).
   */
  redraw(): EventMsg | null;
}

/** The conversation recorded at `path` as a front end redraws it; empty without a readable file (it then shows from now on). */
function recordedMessages(path: string | null): EventMsg[] {
  if (path === null) return [];
  try {
    return loadThread(path).initialMessages;
  } catch {
    return [];
  }
}

/** What session_configured tells of a sub-agent's place (nothing for a user's thread). */
function lineageFields(lineage: ThreadLineage | undefined): { parent_thread_id?: string; agent_nickname?: string; agent_role?: string | null } {
  return lineage ? { parent_thread_id: lineage.parentThreadId, agent_nickname: lineage.nickname, agent_role: lineage.role } : {};
}

/** The prompt-history file's id (its inode) and entry count, announced in session_configured. */
function promptHistoryMetadata(options: SessionOptions): { history_log_id: number; history_entry_count: number } {
  if (!options.promptHistory) return { history_log_id: 0, history_entry_count: 0 };
  // Counted ahead (without blocking) by the thread manager; counted here only for direct callers.
  const { logId, count } = options.promptHistory.metadata ?? historyMetadata(options.promptHistory.codexHome);
  return { history_log_id: logId, history_entry_count: count };
}
