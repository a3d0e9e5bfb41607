/**
 * One ACP session: a hosted thread and the editor it talks to. Every event of the thread goes
 * through one listener in order: redraw events are turned into `session/update`s
 * (session-updates.ts), questions into permission requests or forms (permissions.ts), settings
 * into mode and config-option updates. A prompt runs as one turn of the thread, and its outcome
 * becomes the stop reason: `end_turn`; `cancelled` after `session/cancel` (or the prompt
 * request's own cancellation); `max_tokens` when the context window or the output limit ran out;
 * `refusal` when the provider's content filter stopped the answer. Any other failure is the
 * prompt's error, with the core's message.
 */
import { RequestError, type AgentContext, type ContentBlock, type SessionConfigOption, type SessionModeState, type SessionUpdate, type StopReason } from "@agentclientprotocol/sdk";
import type { Event, EventMsg } from "../protocol/events.js";
import type { Op } from "../protocol/ops.js";
import type { SandboxPolicy } from "../protocol/policy.js";
import type { HostedThread, TurnOutcome } from "../host/hosted-thread.js";
import { EditorQuestions } from "./permissions.js";
import { availableCommands, promptOp, type CustomPrompt } from "./prompt-input.js";
import { configOptionOp, configOptions, currentMode, modeOp, modeState, type SessionChoices } from "./session-config.js";
import { titleOf } from "./session-list.js";
import { SessionUpdates } from "./session-updates.js";
import { runUndoCommand } from "./undo-command.js";

export interface SessionPeer {
  client: AgentContext;
  /** The client shows command output in terminals of its own (`_meta.terminal_output`). */
  terminalOutput: boolean;
  /** The client takes `notice` updates. */
  notices: boolean;
  /** The client takes `elicitation/create` forms. */
  forms: boolean;
  log(message: string): void;
}

type TurnError = Extract<EventMsg, { type: "error" }>;

export class AcpSession {
  readonly sessionId: string;
  private readonly updates: SessionUpdates;
  private readonly questions: EditorQuestions;
  private choices: SessionChoices | null = null;
  /** Plan mode, as the editor last switched it (a thread starts working, not planning). */
  private planning = false;
  private cwd = "";
  private models: string[] = [];
  private prompts: CustomPrompt[] = [];
  /** The editor knows the session's title: told after the first prompt, or a loaded conversation's own. */
  private titled = false;
  /** Notifications go out one after another, whoever sends them. */
  private sending: Promise<void> = Promise.resolve();
  /** Resolved by the first event, session_configured (after a loaded thread's replay went out). */
  private readonly configured: Promise<void>;
  private markConfigured: () => void = () => undefined;
  /** Callers waiting for an answer event (list_models_response, settings_changed…), in order. */
  private readonly waiters: Array<{ type: EventMsg["type"]; resolve: (msg: EventMsg) => void; reject: (err: Error) => void }> = [];
  /** The running prompt's submission, its first error, and whether the editor cancelled it. */
  private turn: { subId: string | null; error: TurnError | null; cancelled: boolean } | null = null;

  constructor(
    private readonly thread: HostedThread,
    private readonly peer: SessionPeer,
    /** The config's workspace-write policy (its extra writable folders), kept when "auto" is chosen again. */
    private readonly workspacePolicy: SandboxPolicy | null,
  ) {
    this.sessionId = thread.threadId;
    this.configured = new Promise((resolve) => (this.markConfigured = resolve));
    this.updates = new SessionUpdates({ cwd: () => this.cwd, terminalOutput: peer.terminalOutput, notices: peer.notices, log: peer.log });
    this.questions = new EditorQuestions({
      sessionId: this.sessionId,
      client: peer.client,
      forms: peer.forms,
      send: (updates) => this.send(updates),
      toolCallOf: (request) => this.updates.questionCall(request),
      refused: (callId) => this.send(this.updates.refused(callId)),
      answer: (key, answer) => void this.thread.submit({ type: "answer_question", key, answer }),
      log: peer.log,
    });
  }

  /**
   * Starts reading the thread's events; resolves once it is configured (a loaded thread's
   * conversation replayed to the editor) and the models it may switch to are known.
   */
  async start(): Promise<void> {
    void this.thread.listen(this.listener).then(() => {
      // The thread shut down: nothing anyone waits for will come.
      for (const waiter of this.waiters.splice(0)) waiter.reject(new RequestError(-32603, "the session ended"));
    });
    await this.configured;
    const models = this.expect("list_models_response");
    this.thread.submit({ type: "list_models" });
    const listed = await models;
    if (listed.type === "list_models_response") this.models = listed.models.map((m) => m.slug);
  }

  /**
   * Resolves once every event the thread has published so far went out as updates: the pump
   * is given turns until nothing new was queued for sending.
   */
  async settled(): Promise<void> {
    for (let round = 0; round < 100; round++) {
      const before = this.sending;
      await new Promise((resolve) => setImmediate(resolve));
      await this.sending;
      if (this.sending === before) return;
    }
  }

  /** Tells the editor the commands it can offer (the built-in ones and the user's custom prompts). */
  announceCommands(): void {
    this.thread.submit({ type: "list_custom_prompts" });
  }

  get modes(): SessionModeState {
    return modeState(this.currentChoices());
  }

  get configOptions(): SessionConfigOption[] {
    return configOptions(this.currentChoices(), this.models);
  }

  async prompt(blocks: ContentBlock[], signal: AbortSignal): Promise<StopReason> {
    const turn: { subId: string | null; error: TurnError | null; cancelled: boolean } = { subId: null, error: null, cancelled: false };
    const op = promptOp(blocks, this.prompts);
    // Not a turn: the core answers with undo_completed alone.
    if (op.type === "undo" || op.type === "redo") return this.undo(op.type, signal);
    await this.announceTitle(op);
    const onAbort = (): void => this.cancel();
    signal.addEventListener("abort", onAbort);
    try {
      const outcome = await this.thread.runTurn(op, this.listener, (subId) => {
        turn.subId = subId;
        this.turn = turn;
        if (signal.aborted) this.cancel();
      });
      const reason = stopReason(outcome, turn);
      // A compaction says nothing of its own; the editor's user asked for it and sees it done.
      if (op.type === "compact" && reason === "end_turn") await this.send([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Compacted: the conversation goes on from a summary." } }]);
      return reason;
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (this.turn === turn) this.turn = null;
    }
  }

  private undo(action: "undo" | "redo", signal: AbortSignal): Promise<StopReason> {
    return runUndoCommand(action, {
      sessionId: this.sessionId,
      client: this.peer.client,
      signal,
      send: (updates) => this.send(updates),
      run: async (op) => {
        const done = this.expect("undo_completed");
        this.thread.submit(op);
        return (await done) as Extract<EventMsg, { type: "undo_completed" }>;
      },
    });
  }

  /** A new session is titled by its first prompt, as `session/list` titles it later. */
  private async announceTitle(op: Op): Promise<void> {
    if (this.titled || op.type !== "user_input") return;
    const first = op.items.find((item) => item.type === "text");
    const title = titleOf(first?.type === "text" ? first.text : null);
    if (title === null) return;
    this.titled = true;
    await this.send([{ sessionUpdate: "session_info_update", title }]);
  }

  /** `session/cancel`: the running turn is interrupted (its open questions are withdrawn with it). */
  cancel(): void {
    const turn = this.turn;
    if (!turn || turn.cancelled) return;
    turn.cancelled = true;
    this.thread.submit({ type: "interrupt" });
  }

  async setMode(modeId: string): Promise<void> {
    const op = modeOp(modeId, this.workspacePolicy);
    if (!op) throw RequestError.invalidParams({ modeId }, `unknown mode '${modeId}' (one of ${this.modes.availableModes.map((m) => m.id).join(", ")})`);
    await this.change(op);
  }

  async setConfigOption(configId: string, value: string): Promise<SessionConfigOption[]> {
    const op = configOptionOp(configId, value, this.workspacePolicy);
    if (typeof op === "string") throw RequestError.invalidParams({ configId, value }, op);
    await this.change(op);
    return this.configOptions;
  }

  async setModel(model: string): Promise<void> {
    await this.change({ type: "override_turn_context", model });
  }

  /** Applies a settings change and waits for the core's answer (which updates the editor). */
  private async change(op: Op): Promise<void> {
    // The core's answer does not say whether it plans: that is known from the op.
    if (op.type === "override_turn_context" && op.collaboration_mode !== undefined) this.planning = op.collaboration_mode === "plan";
    const changed = this.expect("settings_changed");
    this.thread.submit(op);
    await changed;
  }

  private readonly listener = async (event: Event): Promise<void> => {
    await this.handle(event);
    // Only now: what a waiter answers goes out after the updates the event caused.
    this.resolveWaiters(event.msg);
  };

  private async handle(event: Event): Promise<void> {
    const msg = event.msg;
    switch (msg.type) {
      case "session_configured":
        this.cwd = msg.cwd;
        this.choices = { model: msg.model, effort: msg.reasoning_effort, approval: msg.approval_policy, sandbox: msg.sandbox_policy, planning: false };
        this.titled = (msg.initial_messages ?? []).some((m) => m.type === "user_message");
        await this.send((msg.initial_messages ?? []).flatMap((m) => this.updates.map(m, true)));
        this.markConfigured();
        return;
      case "settings_changed":
        return this.settingsChanged(msg);
      case "list_custom_prompts_response":
        this.prompts = msg.custom_prompts;
        return this.send([{ sessionUpdate: "available_commands_update", availableCommands: availableCommands(this.prompts) }]);
      case "question_asked":
        this.questions.ask(msg.key, msg.request);
        return;
      case "question_resolved":
        this.questions.resolved(msg.key);
        return;
      case "error":
        if (this.turn && event.id === this.turn.subId) this.turn.error ??= msg;
        break;
      default:
        break;
    }
    await this.send(this.updates.map(msg, false));
  }

  private async settingsChanged(msg: Extract<EventMsg, { type: "settings_changed" }>): Promise<void> {
    const before = this.choices;
    this.cwd = msg.cwd;
    const after: SessionChoices = { model: msg.model, effort: msg.reasoning_effort, approval: msg.approval_policy, sandbox: msg.sandbox_policy, planning: this.planning };
    this.choices = after;
    const updates: SessionUpdate[] = [];
    if (!before || currentMode(before) !== currentMode(after)) updates.push({ sessionUpdate: "current_mode_update", currentModeId: currentMode(after) });
    updates.push({ sessionUpdate: "config_option_update", configOptions: this.configOptions });
    await this.send(updates);
  }

  private currentChoices(): SessionChoices {
    if (!this.choices) throw new RequestError(-32603, "the session is not configured yet");
    return this.choices;
  }

  private send(updates: SessionUpdate[]): Promise<void> {
    if (updates.length === 0) return this.sending;
    const client = this.peer.client;
    this.sending = this.sending.then(async () => {
      for (const update of updates) {
        try {
          await client.notify("session/update", { sessionId: this.sessionId, update });
        } catch (err) {
          // The editor went away; the thread goes on until the connection closes.
          this.peer.log(`session/update not sent: ${(err as Error).message}`);
        }
      }
    });
    return this.sending;
  }

  private expect(type: EventMsg["type"]): Promise<EventMsg> {
    if (this.thread.closed) return Promise.reject(new RequestError(-32603, "the session ended"));
    return new Promise((resolve, reject) => this.waiters.push({ type, resolve, reject }));
  }

  private resolveWaiters(msg: EventMsg): void {
    const index = this.waiters.findIndex((w) => w.type === msg.type);
    if (index < 0) return;
    const [waiter] = this.waiters.splice(index, 1);
    waiter?.resolve(msg);
  }
}

/** Why the turn stopped; a failure that is no reason to stop is the prompt's error. */
function stopReason(outcome: TurnOutcome, turn: { error: TurnError | null; cancelled: boolean }): StopReason {
  switch (outcome.status) {
    case "completed":
      return "end_turn";
    case "aborted":
      return "cancelled";
    case "ended":
      throw new RequestError(-32603, "the session ended before the turn did");
    case "failed":
      break;
  }
  if (turn.cancelled) return "cancelled";
  const error = turn.error;
  if (error?.incomplete_reason === "content_filter") return "refusal";
  if (error?.incomplete_reason === "max_output_tokens" || error?.codex_error_info === "context_window_exceeded") return "max_tokens";
  throw new RequestError(-32603, outcome.error ?? "the turn failed", error ? { codexErrorInfo: error.codex_error_info } : undefined);
}
