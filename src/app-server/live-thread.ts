/**
 * One loaded thread of the app-server: the kernel's HostedThread, the clients subscribed to it,
 * and its events as v2 notifications to them, in the reference's order. Turns (`task_started`
 * … `task_complete` / `turn_aborted`) become `turn/started` / `turn/completed` with the thread's
 * status around them; items come from TurnItems; questions go out as server requests to every
 * subscriber (the first answer wins, `serverRequest/resolved` closes them for all). A question
 * asked while nobody is subscribed waits for the next subscriber, so a client that disconnects
 * mid-turn can come back (`thread/resume`) and answer it; the turn keeps running meanwhile.
 *
 * A sub-agent's thread is loaded as one of these too (its `family` names its parent), as the
 * reference serves it: `thread/status/changed` says it is loaded (idle) and, once it has shut
 * down, `notLoaded`; its turns' rootTurnId is the parent's turn that spawned it; it asks its own
 * questions, so its parent does not ask them again.
 */
import type { AgentRef } from "../protocol/collab.js";
import type { Event, EventMsg, QuestionRequest } from "../protocol/events.js";
import type { ThreadGoal } from "../protocol/goals.js";
import type { Op } from "../protocol/ops.js";
import type { HostedThread } from "../host/hosted-thread.js";
import type { RequestId } from "../app-server-protocol/jsonrpc.js";
import { RpcError, ERROR_CODES } from "../app-server-protocol/jsonrpc.js";
import type { ThreadActiveFlag, ThreadSettingsResponse, ThreadStatus, Turn, TurnError } from "../app-server-protocol/v2.js";
import { approvalToV2, effortToV2, errorInfoToV2, sandboxToV2 } from "../app-server-protocol/convert.js";
import { goalNotification } from "../app-server-protocol/goals.js";
import { hookRunToV2 } from "../app-server-protocol/hook-runs.js";
import { ClientGone, type Connection } from "./connection.js";
import type { Outgoing } from "./outgoing.js";
import { declines, routeQuestion, type QuestionRoute } from "./server-requests.js";
import { TurnItems } from "./turn-items.js";

type Configured = Extract<EventMsg, { type: "session_configured" }>;
type SettingsMsg = Pick<Configured, "model" | "approval_policy" | "sandbox_policy" | "cwd" | "reasoning_effort">;

interface ActiveTurn {
  turn: Turn;
  subId: string;
  items: TurnItems;
}

interface OpenQuestion {
  route: QuestionRoute;
  /** The request id each client got it under. */
  asked: Map<Connection, RequestId>;
  answered: boolean;
  declined: boolean;
}

interface Expectation {
  subId: string;
  pick: (msg: EventMsg) => unknown;
  resolve: (value: unknown) => void;
  reject: (err: RpcError) => void;
}

/** Where a loaded thread sits among the others. */
export interface ThreadFamily {
  /** The loaded thread whose sub-agent this is, else null (a user's thread). */
  parent: LiveThread | null;
  /** Whether a sub-agent's thread is loaded (it then asks its own questions). */
  followed(threadId: string): boolean;
}

export class LiveThread {
  readonly threadId: string;
  readonly subscribers = new Set<Connection>();
  /** session_configured, once the thread has sent it. */
  configured: Configured | null = null;
  /** The thread's goal, as the last thread_goal_updated said (a resumed thread's from its history). */
  goal: ThreadGoal | null = null;
  private settings: SettingsMsg | null = null;
  private active: ActiveTurn | null = null;
  private status: ThreadStatus = { type: "idle" };
  private readonly questions = new Map<string, OpenQuestion>();
  private readonly expectations: Expectation[] = [];
  private readonly turnStarts = new Map<string, { resolve: (turn: Turn) => void; reject: (err: RpcError) => void }>();
  private readonly turnEnds: Array<() => void> = [];
  /** Warnings held until the first client has the thread; null once they went out. */
  private unheard: Outgoing[] | null = [];
  private ready: Promise<Configured>;
  private markReady: (configured: Configured) => void = () => undefined;
  private ended = false;

  constructor(
    readonly hosted: HostedThread,
    /** Told once the thread has shut down (its last event handled). */
    private readonly onClosed: (thread: LiveThread) => void,
    private readonly family: ThreadFamily,
  ) {
    this.threadId = hosted.threadId;
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    void hosted.listen((event) => this.onEvent(event)).then(() => this.end());
  }

  /** session_configured: the thread's settings at start (a resumed thread's history included). */
  whenConfigured(): Promise<Configured> {
    return this.ready;
  }

  get closed(): boolean {
    return this.ended;
  }

  get activeTurn(): Turn | null {
    return this.active ? { ...this.active.turn, items: [] } : null;
  }

  /** Whether this is a sub-agent's thread (its parent, not its clients, decides when it ends). */
  get isSubAgent(): boolean {
    return this.family.parent !== null;
  }

  /** The user's turn the work in progress belongs to (a sub-agent's: its parent's), else null. */
  get rootTurnId(): string | null {
    return this.active?.turn.rootTurnId ?? null;
  }

  /** The id of the turn in progress, else null. */
  get activeTurnId(): string | null {
    return this.active?.turn.id ?? null;
  }

  get threadStatus(): ThreadStatus {
    return this.status;
  }

  /** What a start / resume / fork response says of the thread's settings (without the thread). */
  settingsResponse(): Omit<ThreadSettingsResponse, "thread"> {
    const s = this.settings ?? this.configured;
    if (!s) throw new RpcError(ERROR_CODES.internalError, `thread ${this.threadId} has not started yet`);
    return {
      model: s.model,
      modelProvider: this.configured?.model_provider_id ?? "",
      serviceTier: null,
      disabledPluginIds: [],
      cwd: s.cwd,
      instructionSources: [],
      approvalPolicy: approvalToV2(s.approval_policy),
      approvalsReviewer: "user",
      sandbox: sandboxToV2(s.sandbox_policy),
      reasoningEffort: effortToV2(s.reasoning_effort),
    };
  }

  get cwd(): string {
    return (this.settings ?? this.configured)?.cwd ?? "";
  }

  submit(op: Op): string {
    if (this.ended) throw new RpcError(ERROR_CODES.invalidRequest, `thread ${this.threadId} is closed`);
    return this.hosted.submit(op);
  }

  /** Submits `op` and resolves with what `pick` finds in the events it causes (an error event for it rejects). */
  request<T>(op: Op, pick: (msg: EventMsg) => T | undefined): Promise<T> {
    const subId = this.submit(op);
    return new Promise<T>((resolve, reject) => {
      this.expectations.push({ subId, pick, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Starts a turn; resolves with it once it has started (its id is the core's). */
  startTurn(op: Op): Promise<Turn> {
    const subId = this.submit(op);
    return new Promise<Turn>((resolve, reject) => this.turnStarts.set(subId, { resolve, reject }));
  }

  /** Resolves when the turn in progress has ended (at once when none is). */
  turnEnded(): Promise<void> {
    if (!this.active) return Promise.resolve();
    return new Promise((resolve) => this.turnEnds.push(resolve));
  }

  /** Adds a client; the questions still open are asked of it too (call after its response is out). */
  subscribe(connection: Connection): void {
    this.subscribers.add(connection);
    // Warnings from the session's start (a config problem, hooks awaiting trust) reach the first
    // client after the response that subscribed it, which names the thread they are about.
    if (this.unheard !== null && this.subscribers.size === 1) {
      setImmediate(() => {
        const unheard = this.unheard ?? [];
        this.unheard = null;
        this.broadcast(unheard);
      });
    }
  }

  askOpenQuestions(connection: Connection): void {
    for (const [key, question] of this.questions) {
      if (!question.answered && !question.asked.has(connection)) this.ask(key, question, connection);
    }
  }

  /** Removes a client; its unanswered requests stay open for the others (and for whoever comes back). */
  unsubscribe(connection: Connection): boolean {
    for (const question of this.questions.values()) question.asked.delete(connection);
    return this.subscribers.delete(connection);
  }

  private broadcast(out: Outgoing[]): void {
    for (const { method, params } of out) for (const connection of this.subscribers) connection.notify(method, params);
  }

  private onEvent(event: Event): void | Promise<void> {
    const msg = event.msg;
    this.settle(event);
    switch (msg.type) {
      case "session_configured":
        this.configured = msg;
        this.settings = msg;
        for (const earlier of msg.initial_messages ?? []) if (earlier.type === "thread_goal_updated") this.goal = earlier.goal;
        this.markReady(msg);
        // A sub-agent's thread is announced as loaded by its status alone (no thread/started).
        if (this.isSubAgent) this.broadcast([{ method: "thread/status/changed", params: { threadId: this.threadId, status: this.status } }]);
        return;
      case "settings_changed":
        this.settings = msg;
        return;
      case "task_started":
        return this.beginTurn(event.id, msg.turn_id);
      case "task_complete":
        this.endTurn(msg.turn_id, null);
        return;
      case "turn_aborted":
        this.endTurn(msg.turn_id, "interrupted");
        return;
      case "question_asked":
        this.questionAsked(msg.key, msg.request, msg.agent);
        return;
      case "question_resolved":
        this.questionResolved(msg.key);
        return;
      case "thread_goal_updated":
        this.goal = msg.goal;
        this.broadcast([goalNotification(this.threadId, this.active?.turn.id ?? null, msg.goal)]);
        break;
      case "mcp_startup_update": {
        const status = msg.status;
        const error = status.state === "failed" ? status.error : null;
        this.broadcast([{ method: "mcpServer/startupStatus/updated", params: { threadId: this.threadId, name: msg.server, status: status.state, error, failureReason: null } }]);
        return;
      }
      case "shutdown_complete":
        // A sub-agent's thread closed by its parent is no longer loaded, as the reference tells it.
        if (this.isSubAgent) this.setStatus({ type: "notLoaded" });
        else this.broadcast([{ method: "thread/closed", params: { threadId: this.threadId } }]);
        return;
      case "error":
        if (this.active) this.active.turn.error ??= { message: msg.message, codexErrorInfo: errorInfoToV2(msg.codex_error_info), additionalDetails: null };
        break;
      case "warning":
        if (!this.active) {
          const warning = { method: "warning", params: { threadId: this.threadId, message: msg.message } };
          if (this.unheard !== null) this.unheard.push(warning);
          else this.broadcast([warning]);
        }
        break;
      case "hook_started":
      case "hook_completed":
        this.broadcast([{ method: msg.type === "hook_started" ? "hook/started" : "hook/completed", params: { threadId: this.threadId, turnId: msg.turn_id, run: hookRunToV2(msg.run) } }]);
        return;
      default:
        break;
    }
    if (this.active) this.broadcast(this.active.items.map(msg));
  }

  /** Resolves the requests waiting on this event's submission. */
  private settle(event: Event): void {
    for (const expectation of [...this.expectations]) {
      if (expectation.subId !== event.id) continue;
      const value = expectation.pick(event.msg);
      const failed = value === undefined && event.msg.type === "error";
      if (value === undefined && !failed) continue;
      this.expectations.splice(this.expectations.indexOf(expectation), 1);
      if (failed) expectation.reject(new RpcError(ERROR_CODES.invalidRequest, (event.msg as Extract<EventMsg, { type: "error" }>).message));
      else expectation.resolve(value);
    }
    const start = this.turnStarts.get(event.id);
    if (start && event.msg.type === "error") {
      // Failed before a task started: the turn never began.
      this.turnStarts.delete(event.id);
      start.reject(new RpcError(ERROR_CODES.invalidRequest, event.msg.message));
    }
  }

  private beginTurn(subId: string, turnId: string): void | Promise<void> {
    const rootTurnId = this.family.parent?.rootTurnId ?? turnId;
    const turn: Turn = { id: turnId, rootTurnId, items: [], itemsView: "notLoaded", status: "inProgress", error: null, startedAt: Math.floor(Date.now() / 1000), completedAt: null, durationMs: null };
    this.active = { turn, subId, items: new TurnItems(this.threadId, turnId) };
    const announce = (): void => {
      this.setStatus({ type: "active", activeFlags: this.flags() });
      this.broadcast([{ method: "turn/started", params: { threadId: this.threadId, turn: { ...turn } } }]);
    };
    const start = this.turnStarts.get(subId);
    if (!start) return announce();
    this.turnStarts.delete(subId);
    start.resolve({ ...turn, startedAt: null });
    // The request's response goes out first, as the reference sends it: its promise chain runs
    // before the next macrotask, and the thread's later events wait for this one.
    return new Promise<void>((resolve) => setImmediate(resolve)).then(announce);
  }

  private endTurn(turnId: string, abort: "interrupted" | null): void {
    const active = this.active;
    if (!active || active.turn.id !== turnId) return;
    this.broadcast(active.items.closeAll());
    this.active = null;
    const completedMs = Date.now();
    const error: TurnError | null = abort ? null : active.turn.error;
    const lastMessage = [...active.items.items].reverse().find((item) => item.type === "agentMessage");
    const turn: Turn = {
      ...active.turn,
      items: lastMessage ? [lastMessage] : [],
      itemsView: "summary",
      status: abort ?? (error ? "failed" : "completed"),
      error,
      completedAt: Math.floor(completedMs / 1000),
      durationMs: active.turn.startedAt === null ? null : completedMs - active.turn.startedAt * 1000,
    };
    this.setStatus({ type: "idle" });
    this.broadcast([{ method: "turn/completed", params: { threadId: this.threadId, turn } }]);
    for (const resolve of this.turnEnds.splice(0)) resolve();
  }

  private setStatus(status: ThreadStatus): void {
    if (JSON.stringify(status) === JSON.stringify(this.status)) return;
    this.status = status;
    this.broadcast([{ method: "thread/status/changed", params: { threadId: this.threadId, status } }]);
  }

  private flags(): ThreadActiveFlag[] {
    const flags = new Set<ThreadActiveFlag>();
    for (const q of this.questions.values()) if (!q.answered) flags.add(q.route.flag);
    return [...flags];
  }

  private refreshFlags(): void {
    if (this.status.type === "active") this.setStatus({ type: "active", activeFlags: this.flags() });
  }

  /**
   * A question of the thread, or one a sub-agent relayed through it (`agent`): a sub-agent whose
   * thread is loaded here asks it on that thread, as the reference does; one that is not is
   * asked of this thread's clients, the only ones who could answer it.
   */
  private questionAsked(key: string, request: QuestionRequest, agent: AgentRef | undefined): void {
    if (agent !== undefined && this.family.followed(agent.thread_id)) return;
    const relayed = agent !== undefined;
    const startedAtMs = Date.now();
    const routed = routeQuestion(this.threadId, this.active?.turn.id ?? null, request, startedAtMs);
    // A sub-agent's command or patch is not an item of this thread's turn.
    const route = relayed ? { ...routed, itemId: null } : routed;
    const question: OpenQuestion = { route, asked: new Map(), answered: false, declined: false };
    this.questions.set(key, question);
    this.refreshFlags();
    // The command or patch shows as started before its question, as the reference shows it.
    if (this.active && !relayed && request.type === "exec_approval_request") this.broadcast(this.active.items.startCommand(request));
    if (this.active && !relayed && request.type === "apply_patch_approval_request") this.broadcast(this.active.items.startPatch(request.call_id, request.changes));
    for (const connection of this.subscribers) this.ask(key, question, connection);
  }

  private ask(key: string, question: OpenQuestion, connection: Connection): void {
    const { id, answer } = connection.request(question.route.method, question.route.params);
    question.asked.set(connection, id);
    answer.then(
      (result) => this.answer(key, question, connection, result),
      (err: unknown) => {
        // A client that went away leaves the question to the others; one that refused cancels it.
        if (!(err instanceof ClientGone)) this.answer(key, question, connection, { decision: "cancel", action: "cancel" });
      },
    );
  }

  private answer(key: string, question: OpenQuestion, from: Connection, result: unknown): void {
    if (question.answered || this.ended) return;
    question.answered = true;
    const answer = question.route.answer(result);
    question.declined = declines(answer);
    for (const [connection, id] of question.asked) if (connection !== from) connection.forget(id);
    this.hosted.submit({ type: "answer_question", key, answer });
  }

  private questionResolved(key: string): void {
    const question = this.questions.get(key);
    if (!question) return;
    this.questions.delete(key);
    for (const [connection, requestId] of question.asked) {
      connection.forget(requestId);
      connection.notify("serverRequest/resolved", { threadId: this.threadId, requestId });
    }
    this.refreshFlags();
    if ((question.declined || !question.answered) && question.route.itemId !== null && this.active) {
      this.broadcast(this.active.items.decline(question.route.itemId));
    }
  }

  private end(): void {
    this.ended = true;
    for (const expectation of this.expectations.splice(0)) expectation.reject(new RpcError(ERROR_CODES.invalidRequest, `thread ${this.threadId} closed`));
    for (const start of this.turnStarts.values()) start.reject(new RpcError(ERROR_CODES.invalidRequest, `thread ${this.threadId} closed`));
    this.turnStarts.clear();
    for (const resolve of this.turnEnds.splice(0)) resolve();
    this.onClosed(this);
  }
}
