/**
 * What a session is made of, shared by the kernel (session.ts) and its op handlers (ops/): the
 * settings the next turn runs with, the thread's history and rollout, token accounting, the
 * pending questions, the one active task, and the services a turn is given. Handlers change the
 * session only through this object; the kernel owns the queue of ops and the event stream.
 */
import { effectiveModelInfo } from "./model-settings.js";
import { noTelemetry, type TelemetryRecorder } from "../telemetry/recorder.js";
import { modelInfoFor, type ModelInfo } from "../model/catalog.js";
import type { EventMsg, TokenUsage } from "../protocol/events.js";
import type { RolloutRecorder } from "../rollout/recorder.js";
import type { ElicitationAnswer, McpElicitation } from "../mcp/elicitation.js";
import { buildTools } from "../tools/registry.js";
import { UnifiedExecManager } from "../exec/unified-exec.js";
import { Questions } from "../approval/questions.js";
import { ApprovalStore } from "../approval/approval-store.js";
import { ExecPolicy } from "../approval/exec-policy/policy.js";
import { FileSystemGuard } from "../sandbox/fs-guard.js";
import { NO_FILESYSTEM_RULES } from "../sandbox/fs-rules.js";
import type { SessionShellSnapshot } from "../exec/shell-snapshot.js";
import type { TurnContext } from "../tools/turn-context.js";
import { uuidv7 } from "../util/ids.js";
import { ConversationHistory } from "./history.js";
import { baseInstructions } from "./prompts.js";
import { startShellSnapshot, userShellOf } from "./session-shell-snapshot.js";
import type { SessionOptions, SessionSettings } from "./session-options.js";
import { TokenAccounting } from "./token-usage.js";
import { compactionDue } from "./compact/due.js";
import type { CompactionHost } from "./compact/compactor.js";
import type { TurnCompaction } from "./tasks/task.js";
import { mcpApprovalHook } from "./mcp-approval.js";
import { McpRuntime } from "./mcp-runtime.js";
import type { McpServerConfig } from "../config/mcp.js";
import { TaskRunner } from "./tasks/runner.js";
import type { ResponseItem } from "../protocol/items.js";
import type { ThreadLineage } from "../protocol/collab.js";
import type { RequestLineage } from "../model/prompt.js";
import { SubAgents } from "./agents/sub-agents.js";
import { SessionHooks } from "../hooks/session-hooks.js";
import { compactWithHooks } from "./turn-hooks.js";
import type { SessionStartSource, SubagentContext } from "../hooks/payloads.js";
import { createCommandEnv } from "../exec/env.js";
import { GoalTracker } from "./goals.js";
import { startGoalContinuation } from "./goal-continuation.js";
import { FileHistory, type TurnFiles } from "./file-history.js";

/** Whether this session's turns get the goal tools' state (the model's catalog entry decides whether they are offered). */
const turn_goals = (s: SessionState): boolean => s.options.modelSettings?.features.goals !== false;

export class SessionState {
  readonly threadId: string;
  readonly recorder: RolloutRecorder | null;
  readonly history: ConversationHistory;
  /** The `codex.*` OpenTelemetry events of this thread (records nothing without an exporter). */
  readonly telemetry: TelemetryRecorder;
  /** Everything asked of the user and not yet answered (approval/questions.ts); a sub-agent's also go to its parent. */
  readonly questions: Questions;
  readonly approvalStore = new ApprovalStore();
  readonly unifiedExec = new UnifiedExecManager();
  /** The permission profile's denied paths, for every command and every read of the agent's own. */
  readonly fileSystemGuard: FileSystemGuard;
  /** A resumed thread's recorded base instructions: resending them keeps the request prefix. */
  recordedBaseInstructions: string | null = null;
  /** What the next turn runs with. */
  settings: SessionSettings;
  /** What the last user turn ran with: the next one tells the model only what changed since. */
  lastTurnSettings: SessionSettings;
  tokens = new TokenAccounting();
  closed = false;
  /** The one task that may run, and how it starts and stops (tasks/runner.ts). */
  readonly tasks: TaskRunner;
  /** The session's MCP servers, started in the background (null: none configured). */
  mcp: McpRuntime | null = null;
  /** The servers a reload put in place of the configured ones. */
  private mcpServerConfigs: Record<string, McpServerConfig> | null = null;
  /** The user's shell as its start-up files leave it, made in the background; null: login shells. */
  shellSnapshot: SessionShellSnapshot | null = null;
  /** The sub-agents this thread starts (null when sub-agents are off). */
  readonly agents: SubAgents | null;
  /** The thread's lifecycle hooks; null when none were configured. */
  readonly hooks: SessionHooks | null;
  /** What SessionStart hooks are told at the next turn (then null): the session's start. */
  pendingSessionStart: SessionStartSource | null;
  /** The thread's goal (goals.ts); each change is published as thread_goal_updated. */
  readonly goals: GoalTracker;
  /** Snapshots around turns and the undo history (file-history.ts). */
  readonly files: FileHistory;

  constructor(
    readonly options: SessionOptions,
    threadId: string,
    /** Publishes an event to every reader (and the rollout, when the policy keeps it). */
    private readonly publish: (id: string, msg: EventMsg) => void,
  ) {
    this.threadId = threadId;
    this.telemetry = options.telemetry ?? noTelemetry();
    this.fileSystemGuard = new FileSystemGuard(options.fileSystemRules ?? NO_FILESYSTEM_RULES, { warn: (message) => this.reportWarning(message) });
    this.recorder = options.recorder ?? null;
    this.history = new ConversationHistory((items) => this.recorder?.recordItems(items));
    this.settings = { ...options.settings };
    this.lastTurnSettings = this.settings;
    this.tasks = new TaskRunner(this);
    this.questions = new Questions(options.questionUpstream ?? null);
    this.agents = options.agentTree ? new SubAgents(this, options.agentTree, options.lineage?.depth ?? 0) : null;
    this.goals = new GoalTracker(threadId, (goal, eventId) => this.send(eventId ?? this.activeSubId, { type: "thread_goal_updated", goal }));
    this.files = new FileHistory(
      {
        threadId,
        codexHome: options.codexHome,
        recorder: this.recorder,
        guard: this.fileSystemGuard,
        settings: () => this.settings,
        grantedRoots: () => this.approvalStore.grantedRoots,
        send: (id, msg) => this.send(id, msg),
        warn: (message) => this.reportWarning(message),
      },
      options.undo,
    );
    this.hooks = options.hooks
      ? new SessionHooks(
          options.hooks,
          { sessionId: options.hookSessionId ?? threadId, transcriptPath: () => this.recorder?.path ?? null },
          // Hooks get what commands get: the environment policy, so no credential is handed to them.
          { env: createCommandEnv(options.shellEnvironmentPolicy, process.env), shell: userShellOf(options) },
        )
      : null;
    this.pendingSessionStart = options.sessionStartSource ?? (options.resume ? (options.resume.warnOnModelChange ? "resume" : "fork") : "startup");
  }

  /** A regular turn's snapshots for undo (null: undo is off, or the turn cannot change files). */
  trackFiles(turn: TurnContext): TurnFiles | null {
    return this.files.beginTurn(turn);
  }

  /** What SessionStart hooks have yet to be told (once: the session's start, later a compaction). */
  takeSessionStart(): SessionStartSource | null {
    const source = this.pendingSessionStart;
    this.pendingSessionStart = null;
    return source;
  }

  /** Set when this session is a sub-agent's. */
  get subagent(): SubagentContext | undefined {
    return this.options.subagent;
  }

  /** Set for a sub-agent: its parent, depth, nickname and role. */
  get lineage(): ThreadLineage | null {
    return this.options.lineage ?? null;
  }

  /** What a sub-agent's model requests say of it (the reference's headers); undefined for a user's thread. */
  get requestLineage(): RequestLineage | undefined {
    const lineage = this.options.lineage;
    return lineage ? { sessionId: lineage.rootThreadId, subagent: "collab_spawn" } : undefined;
  }

  /** Starts the shell snapshot in the background (its failure is a warning after session_configured); a sub-agent uses its parent's. */
  startShellSnapshot(): void {
    if (this.options.sharedShellSnapshot !== undefined) {
      this.shellSnapshot = this.options.sharedShellSnapshot;
      return;
    }
    this.shellSnapshot = startShellSnapshot(this.options, this.threadId, this.settings.cwd, (message) => this.send("", { type: "warning", message }));
  }

  /** The MCP servers the session runs: the configured ones, until a reload replaces them. */
  get mcpServers(): Record<string, McpServerConfig> {
    return this.mcpServerConfigs ?? this.options.mcpServers ?? {};
  }

  /** Stops the running MCP servers and starts `servers` instead; a sub-agent's are its parent's, reloaded with it. */
  async reloadMcp(servers: Record<string, McpServerConfig>): Promise<void> {
    if (this.options.sharedMcp !== undefined) return;
    const old = this.mcp;
    this.mcp = null;
    this.mcpServerConfigs = servers;
    await old?.shutdown();
    this.startMcp();
    this.agents?.shareMcp(this.mcp);
  }

  /** A sub-agent's parent replaced its MCP servers: this thread (and its own sub-agents) use the new ones. */
  useSharedMcp(mcp: McpRuntime | null): void {
    this.mcp = mcp;
    this.agents?.shareMcp(mcp);
  }

  /** Starts the session's MCP servers in the background (their progress comes as events with id ""); a sub-agent uses its parent's. */
  startMcp(): void {
    if (this.options.sharedMcp !== undefined) {
      this.mcp = this.options.sharedMcp;
      return;
    }
    this.mcp = McpRuntime.start({ ...this.options, mcpServers: this.mcpServers }, this.settings.cwd, {
      onEvent: (msg) => this.send("", msg),
      onElicitation: (server, request) => this.elicit(server, request),
      warn: (message) => this.send("", { type: "warning", message }),
      guard: this.fileSystemGuard,
    });
  }

  send(id: string, msg: EventMsg): void {
    this.publish(id, msg);
  }

  /**
   * Puts an item before the model (a sub-agent's notification): the running turn takes it at its
   * next request; between turns it joins history for the next one.
   */
  deliver(item: ResponseItem): void {
    if (this.closed) return;
    const running = this.tasks.running();
    if (running?.kind === "regular") running.pending.push(item);
    else this.history.append(item);
  }

  /** The submission id of the running task, or "" between tasks (for events nobody submitted). */
  get activeSubId(): string {
    return this.tasks.active?.subId ?? "";
  }

  /** A warning of the session's own, unless it has shut down (nobody would see it); false then. */
  reportWarning(message: string): boolean {
    if (this.closed) return false;
    this.send("", { type: "warning", message });
    return true;
  }

  /** What the catalog knows of `slug`, with what config changes about it. */
  modelInfo(slug: string): ModelInfo {
    return effectiveModelInfo(modelInfoFor(slug), this.options.modelSettings);
  }

  baseInstructionsFor(turn: TurnContext): string {
    return this.options.baseInstructionsOverride ?? this.recordedBaseInstructions ?? baseInstructions(turn.model);
  }

  /** A new turn's fixed context: the current settings, a fresh turn id, the session's services. */
  turnContext(subId: string, outputSchema: unknown): TurnContext {
    const s = this.settings;
    const planning = s.collaborationMode === "plan";
    const model = this.modelInfo(s.model);
    return {
      subId,
      turnId: uuidv7(),
      cwd: s.cwd,
      // Planning changes nothing: no patch tool, and commands confined read-only.
      model: planning ? { ...model, applyPatchTool: null } : model,
      showRawAgentReasoning: this.options.showRawAgentReasoning === true,
      approvalPolicy: s.approvalPolicy,
      sandboxPolicy: planning && s.sandboxPolicy.type !== "read-only" ? { type: "read-only" } : s.sandboxPolicy,
      ...(planning ? { planning: true } : {}),
      reasoningEffort: planning && s.planModeReasoningEffort != null ? s.planModeReasoningEffort : s.reasoningEffort,
      reasoningSummary: s.reasoningSummary,
      verbosity: s.verbosity,
      outputSchema: outputSchema ?? null,
      shellEnvironmentPolicy: this.options.shellEnvironmentPolicy,
      ...(this.options.subagent ? { subagent: this.options.subagent } : {}),
      services: {
        unifiedExec: this.unifiedExec,
        userShell: userShellOf(this.options),
        ...(this.shellSnapshot ? { shellSnapshot: this.shellSnapshot } : {}),
        telemetry: this.telemetry.withModel(s.model),
        execPolicy: this.options.execPolicy?.policy ?? ExecPolicy.empty(),
        questions: this.questions,
        approvalStore: this.approvalStore,
        fileSystemGuard: this.fileSystemGuard,
        ...(this.agents?.offer() ? { agents: this.agents } : {}),
        ...(this.options.editorFiles ? { editorFiles: this.options.editorFiles } : {}),
        ...(this.hooks ? { hooks: this.hooks } : {}),
        ...(turn_goals(this) ? { goals: this.goals } : {}),
      },
    };
  }

  /** A regular turn ended well: an active goal may go on in a turn of its own (goal-continuation.ts). */
  afterTurn(subId: string): void {
    if (this.options.goalContinuation === true && !this.closed) startGoalContinuation(this, subId);
  }

  tokenCount(): EventMsg {
    return { type: "token_count", info: this.tokens.info(), rate_limits: this.tokens.rateLimits };
  }

  /** Adds a response's usage to the totals and tells them (a token_count after every response). */
  usageRecorder(turn: TurnContext, emit: (msg: EventMsg) => void): (usage: TokenUsage | null) => void {
    return (usage) => {
      this.tokens.addUsage(usage, turn.model.contextWindow);
      emit(this.tokenCount());
      if (usage) this.goals.charge(usage.total_tokens);
    };
  }

  /** How a task of this turn compacts the thread's history (see compact/compactor.ts). */
  compactionFor(turn: TurnContext, emit: (msg: EventMsg) => void, signal: AbortSignal): TurnCompaction {
    const host: CompactionHost = {
      client: this.options.client,
      history: this.history,
      baseInstructions: this.baseInstructionsFor(turn),
      threadId: this.threadId,
      streamMaxRetries: this.options.streamMaxRetries,
      remote: this.options.remoteCompaction === true,
      summaryPrompt: this.options.compactPrompt ?? null,
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
      run: (options, trigger) =>
        compactWithHooks(this.hooks, turn, emit, this.history, trigger, async () => (await import("./compact/compactor.js")).compact(turn, host, options, signal, emit)),
      windowFull: () => {
        this.tokens.setFull(turn.model.contextWindow);
        emit(this.tokenCount());
      },
    };
  }

  /**
   * The `<tools>` note for the namespaces tool_search can find from the start (the collab tools',
   * for a family that defers them): part of the initial context, as the reference sends it; null
   * when nothing is deferred. With MCP servers configured, the first turn names every namespace
   * in one note once their tools are known.
   */
  deferredToolsNote(): string | null {
    const offer = this.agents?.offer();
    const mcpConfigured = Object.values(this.options.mcpServers ?? {}).some((server) => server.enabled);
    if (!offer || mcpConfigured) return null;
    return buildTools(this.modelInfo(this.settings.model), undefined, { multiAgent: offer }).deferred.announcement();
  }

  /** The turn's tools; with MCP servers, the first request waits for them to settle (an interrupt stops the wait). */
  async turnTools(turn: TurnContext, emit: (msg: EventMsg) => void, signal: AbortSignal): Promise<ReturnType<typeof buildTools>> {
    const mcpTools = this.mcp ? await this.mcp.toolset(mcpApprovalHook(turn, emit, this.questions), signal) : undefined;
    return buildTools(turn.model, mcpTools ?? undefined, { multiAgent: turn.services.agents ? this.agents?.offer() : null });
  }

  /**
   * An MCP server's question for the user, on the questions path: declined when nobody can
   * answer (exec), cancelled by an interrupt, else what the user answered.
   */
  private async elicit(server: string, request: McpElicitation): Promise<ElicitationAnswer> {
    const subId = this.activeSubId;
    const outcome = await this.questions.ask(
      {
        type: "elicitation_request",
        server_name: server,
        id: request.id,
        message: request.message,
        ...(request.requestedSchema !== undefined ? { requested_schema: request.requestedSchema } : {}),
      },
      { emit: (msg) => this.send(subId, msg), approvalPolicy: this.settings.approvalPolicy },
    );
    if (outcome.kind === "cancelled") return { action: outcome.reason === "nobody_can_answer" ? "decline" : "cancel" };
    const answer = outcome.answer;
    if (answer.type === "elicitation") return { action: answer.action, ...(answer.content ? { content: answer.content } : {}) };
    // A plain decision answers a confirmation.
    return { action: answer.type === "decision" && (answer.decision === "approved" || answer.decision === "approved_for_session") ? "accept" : "decline" };
  }
}
