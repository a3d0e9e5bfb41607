/**
 * The agent core as a queue pair: front ends `submit` Ops and read Events, nothing else crosses.
 * Ops are handled one at a time in arrival order; a user turn starts a task that runs beside
 * the op loop, so interrupts and approvals reach it while it works. At most one task runs: input
 * that arrives meanwhile joins the running turn at its next model request.
 *
 * With a recorder, the session is written down as it happens: every history append and every
 * event the rollout policy keeps goes to the rollout file at once, and a turn_context line opens
 * each user turn. A resumed session starts from a recorded thread's history instead of a fresh
 * initial context, and only tells the model what changed since its last recorded turn.
 *
 * MCP servers from config start in the background as the session starts (their progress comes
 * as mcp_startup_* events with id ""); each turn offers their tools once every server has
 * settled, and shutdown ends them before shutdown_complete. A session without servers never
 * loads the MCP code.
 */
import { effectiveModelInfo } from "./model-settings.js";
import { readFileSync } from "node:fs";
import { discoverSkills, mentionedSkills, skillInjection } from "../config/skills.js";
import { discoverPrompts, promptsDir } from "../config/custom-prompts.js";
import { findProjectRoot } from "../config/project-root.js";
import { parseFrontMatter } from "../config/front-matter.js";
import { userText } from "../protocol/items.js";
import { persistAmendment } from "../approval/exec-policy/amendment.js";
import { ExecPolicy } from "../approval/exec-policy/policy.js";
import { noTelemetry, type TelemetryRecorder } from "../telemetry/recorder.js";
import { modelInfoFor } from "../model/catalog.js";
import { ModelError, errorInfo } from "../model/errors.js";
import type { CodexErrorInfo, Event, EventMsg, TokenUsage } from "../protocol/events.js";
import type { Op, TurnOverrides, UserInput } from "../protocol/ops.js";
import type { ElicitationAnswer, McpElicitation, McpElicitationHandler } from "../mcp/elicitation.js";
import type { ResponseItem } from "../protocol/items.js";
import type { RolloutRecorder } from "../rollout/recorder.js";
import type { TurnContextPayload } from "../rollout/format.js";
import type { McpServerConfig } from "../config/mcp.js";
import type { McpConnectionManager } from "../mcp/manager.js";
import type { McpSignInHandler } from "../mcp/sign-in.js";
import { withMcpToolSpecs, type McpToolset } from "../mcp/toolset.js";
import type { RecordedThread } from "../rollout/reconstruct.js";
import { buildTools } from "../tools/registry.js";
import { outputItem } from "../tools/router.js";
import { ToolError } from "../tools/types.js";
import { UnifiedExecManager } from "../exec/unified-exec.js";
import { PendingApprovals } from "../approval/pending-approvals.js";
import { PendingUserInput } from "../approval/pending-user-input.js";
import { ApprovalStore } from "../approval/approval-store.js";
import { notifyTurnComplete, userTextMessages } from "./notify.js";
import { appendPromptHistory, historyMetadata, lookupHistoryEntry } from "../history/prompt-history.js";
import { EventBus, type EventSubscription } from "./event-bus.js";
import { ConversationHistory } from "./history.js";
import { uuidv7 } from "../util/ids.js";
import { environmentItem, initialContext, settingsUpdateItems } from "./initial-context.js";
import { baseInstructions } from "./prompts.js";
import { ABORTED_OUTPUT } from "./turn.js";
import type { TurnContext } from "../tools/turn-context.js";
import { inputText, userMessageFrom } from "./user-input.js";
import { PendingElicitations } from "./pending-elicitations.js";
import type { SessionTask, TaskContext, TaskKind } from "./tasks/task.js";
import { RegularTask } from "./tasks/regular-task.js";
import { ReviewTask } from "./tasks/review-task.js";
import { resolveReviewRequest, type ResolvedReview } from "./review/review-request.js";
import type { ReviewRequest } from "../protocol/review.js";
import type { ModelInfo } from "../model/catalog.js";
import { UserShellTask } from "./tasks/user-shell-task.js";
import type { SessionOptions, SessionSettings } from "./session-options.js";
import { TokenAccounting } from "./token-usage.js";
import { CompactTask } from "./tasks/compact-task.js";
import { compactionDue } from "./compact/due.js";
import type { CompactionHost } from "./compact/compactor.js";
import type { TurnCompaction } from "./turn.js";
import { dropLastUserTurns } from "../rollout/reconstruct.js";
import { mcpApprovalHook } from "./mcp-approval.js";
import { startShellSnapshot, userShellOf } from "./session-shell-snapshot.js";
import type { SessionShellSnapshot } from "../exec/shell-snapshot.js";
import type { McpApprovalHook } from "../approval/mcp-tool-approval.js";

/** A session's MCP servers, once the MCP code is loaded. */
interface McpRuntime {
  manager: McpConnectionManager;
  /** The MCP tools for one turn; waits until every server has settled, as the reference does. */
  toolset(approve: McpApprovalHook | undefined): Promise<McpToolset>;
}

interface ActiveTask {
  subId: string;
  kind: TaskKind;
  task: SessionTask;
  /** Unique across processes (submission ids restart at "0"): names the turn in its events and the rollout. */
  turnId: string;
  emit: (msg: EventMsg) => void;
  controller: AbortController;
  pending: ResponseItem[];
  done: Promise<void>;
  aborted: boolean;
  /** When it started (performance.now()): its end events say how long it ran. */
  startedAt: number;
}

export class Session {
  readonly threadId: string;
  private readonly bus = new EventBus();
  /** What `nextEvent` reads: subscribed before the first event, so simple callers miss nothing. */
  private readonly firstReader: EventSubscription;
  private readonly recorder: RolloutRecorder | null;
  private readonly history: ConversationHistory;
  /** A resumed thread's recorded base instructions: resending them keeps the request prefix. */
  private readonly recordedBaseInstructions: string | null = null;
  private readonly approvals = new PendingApprovals();
  /** The `codex.*` OpenTelemetry events of this thread (records nothing without an exporter). */
  readonly telemetry: TelemetryRecorder;
  private readonly elicitations = new PendingElicitations();
  private readonly userInput = new PendingUserInput();
  private readonly approvalStore = new ApprovalStore();
  private readonly unifiedExec = new UnifiedExecManager();
  private settings: SessionSettings;
  private lastTurnSettings: SessionSettings;
  private nextSubmissionId = 0;
  private opChain: Promise<void> = Promise.resolve();
  private active: ActiveTask | null = null;
  private tokens = new TokenAccounting();
  private closed = false;
  /** null: no MCP servers configured. Never rejects (a load failure is a warning and null). */
  private readonly mcp: Promise<McpRuntime | null> | null;
  /** The user's shell as its start-up files leave it, made in the background; null: login shells. */
  private readonly shellSnapshot: SessionShellSnapshot | null;

  constructor(private readonly options: SessionOptions) {
    const resumed = options.resume?.thread;
    this.threadId = options.threadId ?? resumed?.threadId ?? uuidv7();
    this.firstReader = this.bus.subscribe();
    this.telemetry = options.telemetry ?? noTelemetry();
    this.recorder = options.recorder ?? null;
    // The core never writes to the terminal: a failing session file is a warning event.
    this.recorder?.reportErrorsTo((message) => this.send("", { type: "warning", message }));
    this.history = new ConversationHistory((items) => this.recorder?.recordItems(items));
    this.settings = { ...options.settings };
    this.lastTurnSettings = this.settings;
    this.send("", {
      type: "session_configured",
      session_id: this.threadId,
      model: this.settings.model,
      model_provider_id: this.settings.modelProviderId,
      approval_policy: this.settings.approvalPolicy,
      sandbox_policy: this.settings.sandboxPolicy,
      cwd: this.settings.cwd,
      reasoning_effort: this.settings.reasoningEffort,
      ...promptHistoryMetadata(options),
      rollout_path: this.recorder?.path ?? null,
      ...(resumed ? { initial_messages: resumed.initialMessages } : {}),
    });
    for (const message of options.startupWarnings ?? []) this.send("", { type: "warning", message });
    this.shellSnapshot = startShellSnapshot(options, this.threadId, this.settings.cwd, (message) => this.send("", { type: "warning", message }));
    if (resumed) {
      this.recordedBaseInstructions = resumed.baseInstructions;
      this.restore(resumed, options.resume?.warnOnModelChange === true);
    } else {
      this.history.append(...initialContext(this.settings, options));
    }
    const servers = options.mcpServers ?? {};
    this.mcp = Object.values(servers).some((s) => s.enabled)
      ? startMcp(servers, this.settings.cwd, (msg) => this.send("", msg), (server, request) => this.elicit(server, request), options.mcpSignIn).catch((err: unknown) => {
          this.send("", { type: "warning", message: `MCP servers could not be started: ${(err as Error).message}` });
          return null;
        })
      : null;
  }

  /**
   * Resolves once every `required` MCP server is ready (at once without servers); rejects with
   * "required MCP servers failed to initialize: <server>: <why>; …" when one is not, which a front
   * end should treat as a failed start, as the reference does.
   */
  async mcpReady(): Promise<void> {
    const runtime = await this.mcp;
    await runtime?.manager.waitForRequired();
  }

  /** `restart_mcp_server`: progress comes as start-up events (id ""); a server the session does not run is an error. */
  private async restartMcpServer(id: string, server: string): Promise<void> {
    const manager = (await this.mcp)?.manager;
    if (!manager?.serverNames().includes(server)) {
      this.send(id, { type: "error", message: `unknown MCP server '${server}'`, codex_error_info: "other" });
      return;
    }
    await manager.restartServer(server);
  }

  /** `list_mcp_tools`: a snapshot of every server's tools, resources and auth status. */
  private async listMcpTools(id: string): Promise<void> {
    const { mcpSnapshot } = await import("./mcp-snapshot.js");
    const runtime = await this.mcp;
    try {
      this.send(id, await mcpSnapshot(runtime?.manager ?? null, this.options.mcpServers ?? {}, process.env));
    } catch (err) {
      this.reportWarning(`Could not list the MCP tools: ${(err as Error).message}`);
    }
  }

  /** Continues a recorded thread: its history, its token totals, and what changed since. */
  private restore(thread: RecordedThread, warnOnModelChange: boolean): void {
    for (const message of thread.warnings) this.send("", { type: "warning", message });
    const recorded = thread.lastModel;
    if (warnOnModelChange && recorded !== null && recorded !== this.settings.model) {
      const current = this.settings.model;
      this.send("", {
        type: "warning",
        message: `This session was recorded with model \`${recorded}\` but is resuming with \`${current}\`. Consider switching back to \`${recorded}\` as it may affect Codex performance.`,
      });
    }
    this.history.restore(thread.history);
    // Calls the previous process never answered get the answer an interrupt would have given,
    // recorded like any other output so the file and the next request agree.
    this.history.append(...thread.unanswered.map((call) => outputItem(call, ABORTED_OUTPUT)));
    this.tokens = new TokenAccounting(thread.tokenInfo);
    const last = thread.lastTurn;
    if (last === null) {
      // No readable baseline: the model gets the whole initial context again.
      this.history.append(...initialContext(this.settings, this.options));
      return;
    }
    // The first turn then adds permissions / environment messages only for what differs.
    const samePolicy = JSON.stringify(last.sandboxPolicy) === JSON.stringify(this.settings.sandboxPolicy);
    this.lastTurnSettings = {
      ...this.settings,
      cwd: last.cwd,
      approvalPolicy: last.approvalPolicy,
      sandboxPolicy: samePolicy ? this.settings.sandboxPolicy : last.sandboxPolicy,
    };
  }

  /** Queues an op; returns its submission id ("0", "1", …), which its events will carry. */
  submit(op: Op): string {
    const id = String(this.nextSubmissionId++);
    this.opChain = this.opChain.then(() => this.handle(id, op)).catch((err: unknown) => {
      this.send(id, { type: "error", message: `internal error: ${(err as Error).message}`, codex_error_info: "other" });
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
    if (this.closed) return false;
    this.send("", { type: "warning", message });
    return true;
  }

  /** The settings the next turn would run with. */
  get currentSettings(): Readonly<SessionSettings> {
    return this.settings;
  }

  private send(id: string, msg: EventMsg): void {
    this.bus.publish({ id, msg });
    this.recorder?.recordEvent(msg);
  }

  private async handle(id: string, op: Op): Promise<void> {
    if (this.closed) return;
    switch (op.type) {
      case "user_input":
        return this.userTurn(id, op.items, {}, op.final_output_json_schema);
      case "user_turn": {
        const { type: _, items, final_output_json_schema, ...overrides } = op;
        return this.userTurn(id, items, overrides, final_output_json_schema);
      }
      case "override_turn_context": {
        const { type: _, ...overrides } = op;
        this.settings = applyOverrides(this.settings, overrides);
        return;
      }
      case "interrupt":
        return this.abortActive("interrupted");
      case "exec_approval":
      case "patch_approval":
      case "mcp_tool_call_approval":
        if (op.decision === "abort") {
          this.approvals.resolve(op.id, "denied");
          return this.abortActive("interrupted");
        }
        if (typeof op.decision === "object") {
          // "Always allow this prefix": written to the user's rules first; the command runs either way.
          this.persistAmendment(op.decision.approved_execpolicy_amendment.proposed_execpolicy_amendment);
          this.approvals.resolve(op.id, "approved");
          return;
        }
        this.approvals.resolve(op.id, op.decision);
        return;
      case "resolve_elicitation":
        this.elicitations.resolve(op.server_name, op.request_id, { action: op.decision, ...(op.content ? { content: op.content } : {}) });
        return;
      case "restart_mcp_server":
        return this.restartMcpServer(id, op.server);
      case "run_user_shell_command":
        // As any new task does, it replaces one still running.
        await this.abortActive("replaced");
        this.spawnTask(this.turnContext(id, null), new UserShellTask(op.command, `user-shell-${id}`));
        return;
      case "user_input_answer":
        this.userInput.resolve(op.id, op.response);
        return;
      case "review":
        return this.review(id, op.review_request);
      case "compact":
        // Like any new task, it replaces one still running.
        await this.abortActive("replaced");
        this.recorder?.persist();
        this.spawnTask(this.turnContext(id, null), new CompactTask(op.instructions));
        return;
      case "thread_rollback":
        return this.rollback(id, op.num_turns);
      case "list_custom_prompts": {
        const codexHome = this.options.codexHome;
        const { prompts } = codexHome ? discoverPrompts(promptsDir(codexHome)) : { prompts: [] };
        this.send(id, { type: "list_custom_prompts_response", custom_prompts: prompts });
        return;
      }
      case "list_skills": {
        const cwds = op.cwds && op.cwds.length > 0 ? op.cwds : [this.settings.cwd];
        this.send(id, { type: "list_skills_response", skills: cwds.map((cwd) => this.skillsSeenFrom(cwd)) });
        return;
      }
      case "list_mcp_tools":
        // Discovery may take seconds: the answer comes when ready, other ops go on meanwhile.
        void this.listMcpTools(id);
        return;
      case "add_to_history": {
        const history = this.options.promptHistory;
        // History problems never disturb the session: an append that failed is a warning.
        if (history) {
          void appendPromptHistory(history.codexHome, this.threadId, op.text, history.settings).then((outcome) => {
            if (outcome.kind === "failed") this.reportWarning(outcome.warning);
          });
        }
        return;
      }
      case "get_history_entry_request": {
        const history = this.options.promptHistory;
        const entry = history ? lookupHistoryEntry(history.codexHome, op.log_id, op.offset) : null;
        this.send(id, {
          type: "get_history_entry_response",
          offset: op.offset,
          log_id: op.log_id,
          ...(entry ? { entry: { conversation_id: entry.sessionId, ts: entry.ts, text: entry.text } } : {}),
        });
        return;
      }
      case "shutdown":
        await this.abortActive("interrupted");
        this.elicitations.cancelAll();
        this.unifiedExec.terminateAll();
        // Stdio servers are our children: end them, or they keep the front end's process alive.
        await (await this.mcp)?.manager.shutdown();
        this.shellSnapshot?.dispose();
        this.recorder?.close();
        this.closed = true;
        this.send(id, { type: "shutdown_complete" });
        this.bus.close();
        return;
    }
  }

  private async userTurn(id: string, items: UserInput[], overrides: TurnOverrides, outputSchema: unknown): Promise<void> {
    this.settings = applyOverrides(this.settings, overrides);
    // Every prompt is reported, also one steered into a running turn.
    this.telemetry.withModel(this.settings.model).userPrompt(items.flatMap((i) => (i.type === "text" ? [i.text] : [])));
    const message = await userMessageFrom(items, this.settings.cwd);
    const active = this.active;
    if ((active?.kind === "regular" || active?.kind === "review") && !active.aborted) {
      // Steering: the running turn picks this up at its next request, and the UI shows it now.
      active.pending.push(message);
      active.emit({ type: "user_message", message: inputText(items), images: null });
      return;
    }
    if (items.length === 0) {
      this.send(id, { type: "task_complete", turn_id: uuidv7(), last_agent_message: null });
      return;
    }
    // Any other kind of task still running (a user's shell command) gives way to the turn.
    await this.abortActive("replaced");
    // A new thread's file appears with its first turn: session_meta, then what waited in memory.
    this.recorder?.persist();
    const turn = this.turnContext(id, outputSchema);
    this.spawnTask(turn, new RegularTask(), () => {
      this.recorder?.recordTurnContext(turnContextLine(turn.turnId, this.settings, turn.outputSchema));
      this.history.append(...settingsUpdateItems(this.lastTurnSettings, this.settings));
      this.lastTurnSettings = this.settings;
      this.history.append(message);
      this.injectMentionedSkills(inputText(items), turn.subId);
      return { type: "user_message", message: inputText(items), images: null };
    }, items);
  }

  private turnContext(subId: string, outputSchema: unknown): TurnContext {
    const s = this.settings;
    return {
      subId,
      turnId: uuidv7(),
      cwd: s.cwd,
      model: this.modelInfo(s.model),
      showRawAgentReasoning: this.options.showRawAgentReasoning === true,
      approvalPolicy: s.approvalPolicy,
      sandboxPolicy: s.sandboxPolicy,
      reasoningEffort: s.reasoningEffort,
      reasoningSummary: s.reasoningSummary,
      verbosity: s.verbosity,
      outputSchema: outputSchema ?? null,
      shellEnvironmentPolicy: this.options.shellEnvironmentPolicy,
      services: {
        unifiedExec: this.unifiedExec,
        userShell: userShellOf(this.options),
        ...(this.shellSnapshot ? { shellSnapshot: this.shellSnapshot } : {}),
        telemetry: this.telemetry.withModel(s.model),
        execPolicy: this.options.execPolicy?.policy ?? ExecPolicy.empty(),
        approvals: this.approvals,
        userInput: this.userInput,
        approvalStore: this.approvalStore,
      },
    };
  }

  /**
   * Runs a task as the session's only one: task_started, the task's own work, then
   * task_complete (or error then task_complete; an abort says turn_aborted instead, once).
   * `opening` records what the task starts from (a user turn's message) after task_started.
   */
  private spawnTask(turn: TurnContext, task: SessionTask, opening?: () => EventMsg, items: UserInput[] = []): void {
    const { subId, turnId } = turn;
    const controller = new AbortController();
    const active: ActiveTask = {
      subId,
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
        if (!active.aborted) this.send(subId, msg);
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
      history: this.history,
      client: this.options.client,
      threadId: this.threadId,
      streamMaxRetries: this.options.streamMaxRetries,
      baseInstructions: this.baseInstructionsFor(turn),
      tools: () => this.turnTools(turn, emit, controller.signal),
      takePendingInput: () => active.pending.splice(0),
      recordUsage: this.usageRecorder(turn, emit),
      recordRateLimits: (snapshot) => {
        this.tokens.setRateLimits(snapshot);
        emit(this.tokenCount());
      },
      compaction: this.compactionFor(turn, emit, controller.signal),
    };
    active.done = task.run(ctx).then(
      (last) => {
        emit({ type: "task_complete", turn_id: turnId, last_agent_message: last, duration_ms: ranFor(active) });
        // The user's notifier hears about user turns that completed (not failed or aborted ones).
        if (!active.aborted && task.kind === "regular") {
          notifyTurnComplete(
            this.options.notify,
            {
              threadId: this.threadId,
              turnId,
              cwd: turn.cwd,
              inputMessages: userTextMessages(items),
              lastAssistantMessage: last,
            },
            { onError: (message) => this.send(subId, { type: "warning", message }) },
          );
        }
      },
      (err: unknown) => {
        if (active.aborted) return;
        const { message, info } = describeTurnError(err);
        emit({ type: "error", message, codex_error_info: info });
        emit({ type: "task_complete", turn_id: turnId, last_agent_message: null, duration_ms: ranFor(active) });
      },
    ).finally(() => {
      // Input that arrived too late for the model is not lost: it stays in history.
      this.history.append(...active.pending.splice(0));
      if (this.active === active) this.active = null;
    });
  }

  /** What the catalog knows of `slug`, with what config changes about it. */
  private modelInfo(slug: string): ModelInfo {
    return effectiveModelInfo(modelInfoFor(slug), this.options.modelSettings);
  }

  private baseInstructionsFor(turn: TurnContext): string {
    return this.options.baseInstructionsOverride ?? this.recordedBaseInstructions ?? baseInstructions(turn.model);
  }

  /**
   * A review runs as its own task (replacing one still running) with the review model, the
   * reviewer's instructions and a history of its own; see tasks/review-task.ts.
   */
  private async review(id: string, request: ReviewRequest): Promise<void> {
    await this.abortActive("replaced");
    let resolved: ResolvedReview;
    try {
      resolved = await resolveReviewRequest(request, this.settings.cwd);
    } catch (err) {
      this.send(id, { type: "error", message: (err as Error).message, codex_error_info: "other" });
      return;
    }
    this.recorder?.persist();
    const parent = this.turnContext(id, null);
    const turn: TurnContext = {
      ...parent,
      model: reviewerModel(this.modelInfo(this.options.reviewModel ?? this.settings.model)),
      reasoningEffort: "low",
      reasoningSummary: "detailed",
    };
    const task = new ReviewTask(resolved.prompt, [environmentItem(this.settings, this.options.userShell)], this.history, (msg) => this.active?.emit(msg));
    this.spawnTask(turn, task, () => ({ type: "entered_review_mode", target: request.target, user_facing_hint: resolved.userFacingHint }));
  }

  /** Skills as a UI lists them for one folder (found afresh, so new files show up). */
  private skillsSeenFrom(cwd: string): Extract<EventMsg, { type: "list_skills_response" }>["skills"][number] {
    const codexHome = this.options.codexHome;
    if (!codexHome) return { cwd, skills: [], errors: [] };
    const found = discoverSkills({ codexHome, cwd, projectRoot: findProjectRoot(cwd, [".git"]) ?? cwd });
    return {
      cwd,
      skills: found.skills.map((s) => ({
        name: s.name,
        description: s.description,
        ...(s.shortDescription !== undefined ? { short_description: s.shortDescription } : {}),
        path: s.path,
        scope: s.scope,
      })),
      errors: found.errors,
    };
  }

  /** The files of the skills the user mentioned (`$name`), each as a message after theirs. */
  private injectMentionedSkills(text: string, subId: string): void {
    for (const skill of mentionedSkills(text, this.options.skills ?? [])) {
      try {
        const { body } = parseFrontMatter(readFileSync(skill.path, "utf8"));
        this.history.append(userText(skillInjection(skill, body)));
      } catch (err) {
        this.send(subId, { type: "warning", message: `skill ${skill.name} could not be read: ${(err as Error).message}` });
      }
    }
  }

  private persistAmendment(prefix: string[]): void {
    const rules = this.options.execPolicy;
    try {
      if (!rules) throw new Error("this session has no rules to amend");
      persistAmendment(rules.codexHome, rules.policy, prefix);
    } catch (err) {
      this.send(this.active?.subId ?? "", { type: "warning", message: `Failed to apply execpolicy amendment: ${(err as Error).message}` });
    }
  }

  /** The turn's tools; with MCP servers, the first request waits for them to settle (an interrupt stops the wait). */
  private async turnTools(turn: TurnContext, emit: (msg: EventMsg) => void, signal: AbortSignal): Promise<ReturnType<typeof buildTools>> {
    const mcp = this.mcp;
    const mcpTools = mcp ? await untilAborted(mcp.then((runtime) => runtime?.toolset(mcpApprovalHook(turn, emit, this.approvals))), signal) : undefined;
    return buildTools(turn.model, mcpTools && { place: (builtin) => withMcpToolSpecs(builtin, mcpTools), handlers: mcpTools.handlers });
  }

  /**
   * An MCP server's question for the user: shown as an elicitation_request and answered by a
   * resolve_elicitation op. Nobody answers under `never` (exec), so it is declined at once.
   */
  private elicit(server: string, request: McpElicitation): Promise<ElicitationAnswer> {
    if (this.settings.approvalPolicy === "never") return Promise.resolve({ action: "decline" });
    const answer = this.elicitations.wait(server, request.id);
    this.send(this.active?.subId ?? "", {
      type: "elicitation_request",
      server_name: server,
      id: request.id,
      message: request.message,
      ...(request.requestedSchema !== undefined ? { requested_schema: request.requestedSchema } : {}),
    });
    return answer;
  }

  private async abortActive(reason: "interrupted" | "replaced"): Promise<void> {
    const task = this.active;
    if (!task || task.aborted) return;
    task.task.onAbort?.();
    this.send(task.subId, { type: "turn_aborted", turn_id: task.turnId, reason, duration_ms: ranFor(task) });
    task.aborted = true;
    task.controller.abort(new Error("turn aborted"));
    this.approvals.denyAll();
    this.unifiedExec.terminateAll();
    await task.done;
  }

  private tokenCount(): EventMsg {
    return { type: "token_count", info: this.tokens.info(), rate_limits: this.tokens.rateLimits };
  }

  /** Adds a response's usage to the totals and tells them (a token_count after every response). */
  private usageRecorder(turn: TurnContext, emit: (msg: EventMsg) => void): (usage: TokenUsage | null) => void {
    return (usage) => {
      this.tokens.addUsage(usage, turn.model.contextWindow);
      emit(this.tokenCount());
    };
  }

  /** How a task of this turn compacts the thread's history (see compact/compactor.ts). */
  private compactionFor(turn: TurnContext, emit: (msg: EventMsg) => void, signal: AbortSignal): TurnCompaction {
    const host: CompactionHost = {
      client: this.options.client,
      history: this.history,
      baseInstructions: this.baseInstructionsFor(turn),
      threadId: this.threadId,
      streamMaxRetries: this.options.streamMaxRetries,
      remote: this.options.remoteCompaction === true,
      reportedContextTokens: () => this.tokens.reportedContextTokens,
      recordUsage: this.usageRecorder(turn, emit),
      commit: (items, summary) => {
        this.history.replace(items);
        this.recorder?.recordCompaction(summary, items);
        this.tokens.recompute(this.history.estimatedTokens(), turn.model.contextWindow);
        emit(this.tokenCount());
      },
    };
    return {
      due: (overhead) => compactionDue(turn, host, overhead),
      // The compaction code loads the first time one runs.
      run: async (options) => (await import("./compact/compactor.js")).compact(turn, host, options, signal, emit),
      windowFull: () => {
        this.tokens.setFull(turn.model.contextWindow);
        emit(this.tokenCount());
      },
    };
  }

  /**
   * `thread_rollback`: drops the last `numTurns` user turns from history (files on disk stay as
   * they are), tells the new token estimate, and records thread_rolled_back so a resume replays it.
   */
  private rollback(id: string, numTurns: number): void {
    const fail = (message: string): void => this.send(id, { type: "error", message, codex_error_info: "thread_rollback_failed" });
    if (!Number.isInteger(numTurns) || numTurns < 1) return fail("num_turns must be >= 1");
    if (this.active && !this.active.aborted) return fail("Cannot rollback while a turn is in progress.");
    this.history.replace(dropLastUserTurns([...this.history.snapshot()], numTurns));
    this.tokens.recompute(this.history.estimatedTokens(), this.modelInfo(this.settings.model).contextWindow);
    this.send(id, this.tokenCount());
    this.send(id, { type: "thread_rolled_back", num_turns: numTurns });
  }
}

/** Whole milliseconds since the task started. */
function ranFor(task: ActiveTask): number {
  return Math.round(performance.now() - task.startedAt);
}

function turnContextLine(turnId: string, s: SessionSettings, outputSchema: unknown): TurnContextPayload {
  return {
    turn_id: turnId,
    cwd: s.cwd,
    approval_policy: s.approvalPolicy,
    sandbox_policy: s.sandboxPolicy,
    model: s.model,
    ...(s.reasoningEffort !== null ? { effort: s.reasoningEffort } : {}),
    // The reference requires a summary setting; "auto" is what an unset one means.
    summary: s.reasoningSummary ?? "auto",
    ...(outputSchema !== null && outputSchema !== undefined ? { final_output_json_schema: outputSchema } : {}),
  };
}

function applyOverrides(settings: SessionSettings, o: TurnOverrides): SessionSettings {
  return {
    ...settings,
    ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
    ...(o.model !== undefined ? { model: o.model } : {}),
    ...(o.approval_policy !== undefined ? { approvalPolicy: o.approval_policy } : {}),
    ...(o.sandbox_policy !== undefined ? { sandboxPolicy: o.sandbox_policy } : {}),
    ...(o.effort !== undefined ? { reasoningEffort: o.effort } : {}),
    ...(o.summary !== undefined ? { reasoningSummary: o.summary } : {}),
  };
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
  return { message: err instanceof Error ? err.message : String(err), info: "other" };
}

/** Loads the MCP code and starts every enabled server in the background. */
async function startMcp(
  servers: Record<string, McpServerConfig>,
  cwd: string,
  onEvent: Parameters<typeof McpConnectionManager.start>[1]["onEvent"],
  onElicitation: McpElicitationHandler,
  signIn: McpSignInHandler | undefined,
): Promise<McpRuntime> {
  const [{ McpConnectionManager }, { mcpToolset }, { McpApprovalMemory }] = await Promise.all([
    import("../mcp/manager.js"),
    import("../mcp/tools.js"),
    import("../approval/mcp-tool-approval.js"),
  ]);
  const manager = McpConnectionManager.start(servers, { cwd, onEvent, onElicitation, ...(signIn ? { signIn } : {}) });
  // "Allow for this session" answers outlive the turn that gave them.
  const approvalMemory = new McpApprovalMemory();
  return {
    manager,
    toolset: (approve) => mcpToolset(manager, approve ? { approvalMemory, approve } : { approvalMemory }),
  };
}

/** `work`, or a rejection as soon as `signal` aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The prompt-history file's id (its inode) and entry count, announced in session_configured. */
function promptHistoryMetadata(options: SessionOptions): { history_log_id: number; history_entry_count: number } {
  if (!options.promptHistory) return { history_log_id: 0, history_entry_count: 0 };
  // Counted ahead (without blocking) by the thread manager; counted here only for direct callers.
  const { logId, count } = options.promptHistory.metadata ?? historyMetadata(options.promptHistory.codexHome);
  return { history_log_id: logId, history_entry_count: count };
}

/** The review model's tools: a plain shell (no long-lived sessions), no images, no questions, no web search. */
function reviewerModel(model: ModelInfo): ModelInfo {
  return { ...model, shellTool: model.shellTool === "exec_command" ? "shell_command" : model.shellTool, viewImageTool: false, requestUserInputTool: false, webSearch: null };
}
