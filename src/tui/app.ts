/**
 * The interactive app: turns the session's events into history cells and the user's keys into
 * ops. It holds no agent logic; everything it knows comes from events, everything it does is an
 * op. What is drawn where is app-view.ts's; the running turn's live parts are live-turn.ts's.
 */
import type { Op } from "../protocol/ops.js";
import type { Event, EventMsg, FileChange, RateLimitSnapshot, TokenUsage, TokenUsageInfo } from "../protocol/events.js";
import type { ReasoningEffort } from "../protocol/policy.js";
import type { SelectItem } from "@mariozechner/pi-tui";
import type { Theme } from "./parts/theme.js";
import { commandCell, headerCell, headerInfo, mcpCallCell, noticeCell, patchCell, planCell, reasoningCell, textCell, workedCell } from "./cells.js";
import type { CellStyle, HeaderInfo, NoticeKind } from "./cells.js";
import { StatusLine } from "./status-line.js";
import { compactedCell, skillsLines, webSearchCell } from "./activity-cells.js";
import { statusReport } from "./status-report.js";
import { mcpListLines, startupFailureNotices } from "./mcp-view.js";
import { LiveTurn } from "./live-turn.js";
import { AppView } from "./app-view.js";
import { helpLines } from "./help.js";
import { Composer, SlashCompletions } from "./composer.js";
import { fileIndexFor } from "../file-search/file-index.js";
import { join } from "node:path";
import { BUILTIN_COMMANDS, promptCommand, type SlashCommand, type SlashContext } from "./slash-commands.js";
import { OpenQuestions } from "./open-questions.js";
import { redrawKeptTurns } from "./backtrack-redraw.js";
import { KeyInput } from "./app-input.js";
import type { ThreadGoal } from "../protocol/goals.js";
import { goalNotice } from "./goal-command.js";
import { PLAN_OFF, PLAN_ON } from "./plan-mode.js";
import { addUsage } from "../presentation/usage.js";
import { ChoiceOverlay, PickerOverlay, TextPromptOverlay, type Choice, type Overlay } from "./overlays.js";
import { reviewCell } from "./review-cell.js";
import type { AgentChoice, AppHost, AppOptions } from "./app-host.js";
import { AgentActivity, agentActivityCell } from "./agent-activity.js";
import { isCollabEvent } from "../presentation/collab-text.js";
import { HooksPanel, isHookEvent } from "./hooks-panel.js";
import { firstLine } from "../presentation/text-lines.js";
import { UndoFlow } from "./undo-flow.js";

export type { AppHost, AppOptions };

export class App implements SlashContext {
  private readonly theme: Theme;
  private readonly style: CellStyle;
  private readonly status: StatusLine;
  readonly composer: Composer;
  private readonly turn: LiveTurn;
  private readonly view: AppView;
  /** The thread's sub-agents: their cells, their live line, the list /agent picks from. */
  private readonly agents = new AgentActivity();
  private readonly patches = new Map<string, Record<string, FileChange>>();
  private readonly questions: OpenQuestions;
  /** `/model` pickers waiting for the session's list_models_response. */
  private modelListWaiters: Array<(models: Array<{ slug: string; is_default: boolean }>) => void> = [];
  private readonly hooks: HooksPanel;
  private spinner: NodeJS.Timeout | null = null;
  private customPrompts: SlashCommand[] = [];
  private readonly mcpStatus = new Map<string, string>();
  /** The user messages of the thread, oldest first (for backtrack). */
  userMessages: string[] = [];
  private readonly input: KeyInput;
  /** `/undo`, `/redo` and the files side of Esc Esc (undo-flow.ts). */
  readonly undoFlow = new UndoFlow(this, (text) => this.composer.setText(text));
  private header: HeaderInfo | null = null;
  /** The thread's goal, as the last thread_goal_updated said. */
  private threadGoal: ThreadGoal | null = null;
  /** Plan mode (plan-mode.ts), as the user last set it; carried over to every thread the app opens. */
  private planning = false;
  private totals: TokenUsage | null = null;
  private rateLimits: RateLimitSnapshot | null = null;
  /** Notes about the thread being opened, shown under its header once it arrives. */
  private headerNotes: string[] = [];
  /** Waiting for the thread's session_configured (see configured()). */
  private whenConfigured: Array<() => void> = [];
  /** The latest complete answer (for /copy). */
  private lastAnswer: string | null = null;
  /** What the status line showed when a compaction began (the compaction cell reports it). */
  private beforeCompaction: TokenUsageInfo | null = null;
  /** When the running turn began, for "Worked for". */
  private turnStartedAt: number | null = null;
  /** The running task is a /compact (no "Worked for" under it). */
  private compacting = false;
  /** Whether the running turn carries a message of the user's (a compaction's does not). */
  private turnAsked = false;
  rolloutPath: string | null = null;
  running = false;
  /** Cumulative usage of every thread this app showed, for the exit summary. */
  readonly usage: TokenUsage = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };

  constructor(
    readonly host: AppHost,
    private readonly options: AppOptions,
  ) {
    this.theme = options.theme;
    this.style = options.style;
    this.status = new StatusLine(options.theme, options.now);
    this.view = new AppView(options.renderer, options.theme, options.rows, {
      turn: (w) => [...this.turn.lines(w), ...this.agents.liveLines(this.style, w, this.options.subAgentsElsewhere !== true)],
      status: (w) => this.status.render(w),
      composer: (w) => [...this.composer.render(w), this.footer()],
    });
    this.turn = new LiveTurn(options.style, options.hideReasoning, (render) => this.view.commit(render));
    this.questions = new OpenQuestions({
      context: () => ({ theme: this.theme, style: this.style, cwd: this.cwd, submit: (op) => this.host.submit(op), close: (o) => this.view.close(o) }),
      open: (overlay) => this.view.open(overlay),
      commit: (render) => this.view.commit(render),
      waiting: (summary) => this.host.notify("approval-requested", `Approval needed: ${summary}`),
    });
    this.hooks = new HooksPanel({ style: this.style, status: this.status, submit: (op) => this.submit(op), present: (make) => this.present(make), commit: (render) => this.view.commit(render), requestRender: () => this.requestRender() });
    for (const s of options.mcpServers) this.mcpStatus.set(s, "starting");
    const editorHost = { requestRender: () => this.requestRender(), terminal: { get rows() { return options.rows(); } } };
    this.composer = new Composer(editorHost, options.theme, new SlashCompletions(() => this.commands()), {
      cwd: () => this.cwd,
      fileIndex: () => {
        const root = this.cwd;
        const remote = this.host.fileIndex?.(root);
        if (remote) return remote;
        const hiddenFile = options.hiddenFile;
        const hidden = hiddenFile && (() => hiddenFile().then((denied) => (rel: string) => denied(join(root, rel))));
        return fileIndexFor(root, hidden ? { hidden } : {});
      },
      fetchHistory: (offset) => this.host.submit({ type: "get_history_entry_request", offset, log_id: this.composer.logId }),
    });
    this.input = new KeyInput(this);
    this.composer.editor.onSubmit = (text) => this.input.submit(text);
  }

  // ------------------------------------------------------------------ SlashContext

  get cwd(): string {
    return this.header?.cwd ?? process.cwd();
  }
  get model(): string {
    return this.header?.model ?? "";
  }
  get effort(): ReasoningEffort | null {
    return this.header?.effort ?? null;
  }
  get sessionId(): string | null {
    return this.header?.sessionId ?? null;
  }

  submit(op: Op): string {
    return this.host.submit(op);
  }

  print(title: string, body: string[]): void {
    this.view.commit((w) => textCell(title, body, this.style, w));
  }

  error(message: string): void {
    this.notice("error", message);
  }

  pick(title: string, items: SelectItem[]): Promise<SelectItem | null> {
    return this.present((done) => new PickerOverlay(this.theme, title, items, done));
  }

  choose<T>(title: string, choices: Choice<T>[], escape: T): Promise<T> {
    return this.present<T>((done) => new ChoiceOverlay(this.theme, title, { escape: "cancel" }, choices, escape, done));
  }

  ask(title: string): Promise<string | null> {
    return this.present((done) => new TextPromptOverlay(this.theme, title, done));
  }

  sendUserText(text: string): void {
    this.input.sendMessage(text);
  }

  setComposer(text: string): void {
    this.composer.setText("");
    for (const ch of text) this.composer.editor.handleInput(ch);
    this.requestRender();
  }

  configured(): Promise<void> {
    if (this.header !== null) return Promise.resolve();
    return new Promise((resolve) => this.whenConfigured.push(resolve));
  }

  statusLines(): string[] {
    const now = (this.options.now ?? Date.now)() / 1000;
    const facts = { header: this.header, rolloutPath: this.rolloutPath, totals: this.totals, usage: this.status.usage, rateLimits: this.rateLimits, now };
    return statusReport({ ...facts, ...this.host.statusFacts() });
  }

  compact(instructions: string): void {
    this.submit({ type: "compact", ...(instructions.trim() !== "" ? { instructions: instructions.trim() } : {}) });
    this.status.label = "Compacting";
    this.compacting = true;
    this.beforeCompaction = this.status.usage;
  }

  copyLastAnswer(): void {
    if (this.lastAnswer === null) return this.notice("info", "Nothing to copy yet: no answer in this conversation.");
    this.host.copyToClipboard(this.lastAnswer);
    this.notice("info", `Copied the last answer (${this.lastAnswer.length.toLocaleString("en-US")} characters) to the clipboard.`);
  }

  saveModel(model: string, effort: ReasoningEffort | null): Promise<string> {
    return this.host.saveModel(model, effort);
  }

  listMcp(): void {
    // Asked even with none known here: a remote session's servers are the server's to name.
    this.submit({ type: "list_mcp_tools" });
  }

  listModels(): Promise<Array<{ slug: string; is_default: boolean }>> {
    return new Promise((resolve) => {
      this.modelListWaiters.push(resolve);
      this.submit({ type: "list_models" });
    });
  }

  gitDiff(): Promise<string[]> {
    return this.host.gitDiff();
  }

  openHooks(): Promise<void> {
    return this.hooks.open();
  }

  warn(message: string): void {
    this.notice("warning", message);
  }

  /** Shows a component that takes the keyboard until it calls `done`; resolves with its answer. */
  present<T>(make: (done: (value: T) => void) => Overlay): Promise<T> {
    return this.view.present(make);
  }
  newThread(): Promise<void> {
    return this.host.newThread();
  }
  resumePicker(): Promise<void> {
    return this.host.resumePicker();
  }
  forkThread(): Promise<void> {
    return this.host.forkThread();
  }
  renameThread(name: string): void {
    this.host.renameThread(name);
  }
  goal(): ThreadGoal | null {
    return this.threadGoal;
  }
  planMode(): boolean {
    return this.planning;
  }
  setPlanMode(on: boolean): void {
    this.planning = on;
    this.notice("info", on ? PLAN_ON : PLAN_OFF);
  }
  quit(): void {
    this.host.quit();
  }

  // ------------------------------------------------------------------ events

  /** A new thread is shown: forget the old one's live state (its cells stay in scrollback). */
  resetThread(): void {
    this.turn.reset();
    this.agents.reset();
    this.view.clearOverlays();
    this.questions.clear();
    this.userMessages = [];
    this.threadGoal = null;
    // A new thread starts in the default mode: the mode the user is in goes to it too.
    if (this.planning) this.host.submit({ type: "override_turn_context", collaboration_mode: "plan" });
    this.setRunning(false);
    this.status.usage = null;
    this.totals = null;
    this.lastAnswer = null;
  }

  /** After a backtrack, the kept turns redrawn as a resume draws them (see backtrack-redraw.ts). */
  private async rolledBack(turns: number): Promise<void> {
    const redrawn = await redrawKeptTurns(this.rolloutPath, {
      clear: () => {
        this.resetThread();
        this.view.clearAll();
        if (this.header) this.commitHeader(this.header);
      },
      replay: (msg) => this.handle(msg, true),
      warn: (message) => this.notice("warning", message),
    });
    if (!redrawn) this.userMessages = this.userMessages.slice(0, Math.max(0, this.userMessages.length - turns));
    this.notice("info", `Rolled back ${turns} turn${turns === 1 ? "" : "s"}; the agent no longer sees them.`);
    this.undoFlow.afterRollback();
  }

  noteUnderHeader(notes: string[]): void {
    this.headerNotes.push(...notes);
  }

  onEvent(event: Event): void {
    if (!this.undoFlow.takes(event)) this.handle(event.msg, false);
    this.requestRender();
  }

  private handle(msg: EventMsg, replay: boolean): void {
    if (isHookEvent(msg)) return this.hooks.handle(msg, replay);
    if (msg.type === "undo_completed") return this.undoFlow.show(msg);
    switch (msg.type) {
      case "session_configured":
        this.header = headerInfo(msg, this.options.version);
        this.rolloutPath = msg.rollout_path;
        this.composer.setHistory(msg.history_log_id, msg.history_entry_count);
        this.commitHeader(this.header);
        for (const note of this.headerNotes.splice(0)) this.notice("info", note);
        for (const resolve of this.whenConfigured.splice(0)) resolve();
        for (const m of msg.initial_messages ?? []) this.handle(m, true);
        if (!replay) this.host.submit({ type: "list_custom_prompts" });
        break;
      case "task_started":
        this.turnAsked = false;
        // A replayed turn is drawn, not run.
        if (replay) break;
        this.setRunning(true);
        this.turnStartedAt = this.now();
        this.options.onTurnStart?.();
        break;
      case "task_complete": {
        this.turn.turnComplete();
        const started = this.turnStartedAt;
        // The core's measure (recorded, so a resume draws the same line), else ours. The duration
        // is taken now: the transcript draws the cell again later.
        // A compaction is not work on the user's request: no "Worked for" under it.
        const worked = msg.duration_ms ?? (started === null ? null : this.now() - started);
        if (worked !== null && !this.compacting) this.view.commit((width) => workedCell(worked, this.style, width));
        this.turnStartedAt = null;
        this.compacting = false;
        this.setRunning(false);
        if (!replay) this.host.notify("agent-turn-complete", firstLine(msg.last_agent_message) ? `Turn complete: ${firstLine(msg.last_agent_message)}` : "Turn complete");
        break;
      }
      case "turn_aborted":
        this.turn.turnAborted();
        this.turnStartedAt = null;
        this.compacting = false;
        this.setRunning(false);
        if (msg.reason === "interrupted") this.notice("aborted", "Interrupted. Tell the agent what to do differently, or send a new request.");
        break;
      case "user_message":
        this.turnAsked = true;
        this.userMessages.push(msg.message);
        this.turn.userMessage(msg.message);
        break;
      case "agent_message_delta":
        this.status.retry = null;
        this.turn.delta(msg.delta);
        break;
      case "agent_message":
        this.lastAnswer = msg.message;
        this.turn.message(msg.message);
        break;
      case "agent_reasoning_delta":
        this.status.retry = null;
        this.turn.reasoningDelta(msg.delta);
        break;
      case "agent_reasoning":
        this.turn.reasoningDone();
        if (!this.options.hideReasoning) this.view.commit((width) => reasoningCell(msg.text, this.style, width));
        break;
      case "agent_reasoning_section_break":
        break;
      case "exec_command_begin":
        // Replayed too: a command an interrupt stopped comes back as begun, and the turn_aborted after it ends it.
        this.turn.commandBegin(msg.call_id, msg.command, msg.source === "user_shell");
        break;
      case "exec_command_output_delta":
        this.turn.commandOutput(msg.call_id, msg.stream, msg.chunk);
        break;
      case "exec_command_end": {
        this.turn.commandEnd(msg.call_id);
        const view = { command: msg.command, output: msg.aggregated_output, exitCode: msg.exit_code, duration: msg.duration, userShell: msg.source === "user_shell" };
        // The transcript (Ctrl+T) shows the whole output.
        this.view.commit((width) => commandCell(view, this.style, width), (width) => commandCell(view, this.style, width, Number.POSITIVE_INFINITY));
        break;
      }
      case "question_asked":
        this.questions.ask(msg, replay);
        break;
      case "question_resolved":
        // Answered here, or closed by the core (an interrupt): nothing is left to answer.
        this.questions.resolve(msg);
        break;
      case "patch_apply_begin":
        this.patches.set(msg.call_id, msg.changes);
        break;
      case "patch_apply_end": {
        const changes = this.patches.get(msg.call_id);
        this.patches.delete(msg.call_id);
        if (changes) this.view.commit((width) => patchCell(changes, msg.success ? "applied" : "failed", this.style, width));
        if (!msg.success && msg.stderr.trim()) this.notice("error", msg.stderr.trim());
        break;
      }
      case "plan_update":
        this.view.commit((width) => planCell(msg.explanation, msg.plan, this.style, width));
        break;
      case "thread_goal_updated": {
        const notice = goalNotice(this.threadGoal, msg.goal);
        this.threadGoal = msg.goal;
        if (notice !== null && !replay) this.notice("info", notice);
        break;
      }
      case "goal_continuation_started":
        this.notice("info", `Working on the goal on its own: ${msg.objective} (Esc stops, /goal pause holds it)`);
        break;
      case "token_count":
        if (msg.rate_limits) this.rateLimits = msg.rate_limits;
        if (msg.info) {
          this.status.usage = msg.info;
          const last = msg.info.last_token_usage;
          if (!replay) addUsage(this.usage, last);
          this.totals = msg.info.total_token_usage;
        }
        break;
      case "stream_error":
        // One line, updated by each retry; the answer streams again from its start.
        this.status.retry = msg.message;
        this.turn.restart();
        break;
      case "warning":
        this.notice("warning", msg.message);
        break;
      case "error":
        this.status.retry = null;
        this.turn.endAnswer(true);
        this.notice("error", msg.message);
        break;
      case "mcp_startup_update":
        this.mcpStatus.set(msg.server, msg.status.state === "failed" ? `failed: ${msg.status.error}` : msg.status.state);
        break;
      case "mcp_startup_complete":
        for (const n of startupFailureNotices(msg.failed)) this.notice(n.kind, n.text);
        break;
      case "mcp_list_tools_response":
        this.print("MCP servers", mcpListLines(this.mcpStatus, msg));
        break;
      case "mcp_tool_call_begin":
        if (!replay) this.turn.mcpBegin(msg.call_id, msg.invocation);
        break;
      case "mcp_tool_call_end":
        this.turn.mcpEnd(msg.call_id);
        this.view.commit((width) => mcpCallCell(msg.invocation, msg.result, msg.duration, this.style, width));
        break;
      case "entered_review_mode":
        this.status.label = "Reviewing";
        this.notice("info", `Review started${msg.user_facing_hint ? `: ${msg.user_facing_hint}` : ""}`);
        break;
      case "exited_review_mode":
        this.status.label = "Working";
        if (msg.review_output) {
          const output = msg.review_output;
          this.view.commit((width) => reviewCell(output, this.style, width));
        }
        else this.notice("aborted", "The review was interrupted.");
        break;
      case "context_compacted": {
        this.status.label = "Working";
        // A turn of its own (the user's /compact, or a replayed one) gets no "Worked for" line.
        if (!this.turnAsked) this.compacting = true;
        // The status line's figures from before the compaction (its own request reports usage too).
        const before = this.beforeCompaction ?? this.status.usage;
        this.beforeCompaction = null;
        this.view.commit((width) => compactedCell(before, this.style, width));
        break;
      }
      case "web_search_begin":
        if (!replay) this.turn.searchBegin(msg.call_id);
        break;
      case "web_search_end":
        this.turn.searchEnd(msg.call_id);
        this.view.commit((width) => webSearchCell(msg, this.style, width));
        break;
      case "thread_rolled_back":
        if (!replay) void this.rolledBack(msg.num_turns);
        break;
      case "get_history_entry_response":
        this.composer.historyEntry(msg.log_id, msg.offset, msg.entry?.text ?? null);
        break;
      case "list_custom_prompts_response":
        this.customPrompts = msg.custom_prompts.map(promptCommand);
        break;
      case "list_skills_response":
        this.print("Skills", skillsLines(msg, this.theme));
        break;
      case "settings_changed":
        // What the core will run the next turn with: the header and /status show it.
        if (this.header) Object.assign(this.header, { model: msg.model, effort: msg.reasoning_effort, approval: msg.approval_policy, sandbox: msg.sandbox_policy, cwd: msg.cwd });
        break;
      case "list_models_response":
        for (const resolve of this.modelListWaiters.splice(0)) resolve(msg.models);
        break;
      case "mcp_sign_in_update":
        this.print(`Sign in to ${msg.server}`, [msg.message]);
        break;
      case "mcp_sign_in_complete":
        if (msg.success) this.print(`Signed in to ${msg.server}`, ["The tokens are saved; starting the server again in this session."]);
        else this.error(`Signing in to ${msg.server} failed: ${msg.error ?? "unknown error"}`);
        break;
      case "view_image_tool_call":
        this.notice("info", `Viewed image ${msg.path}`);
        break;
      default: {
        // Sub-agents' activity; nothing else to draw: turn_diff (/diff reads the tree), raw reasoning, shutdown_complete, ….
        const line = isCollabEvent(msg) ? this.agents.handle(msg) : null;
        if (line) this.view.commit((width) => agentActivityCell(line, this.style, width));
        break;
      }
    }
  }

  subAgents(): { agents: AgentChoice[]; watching: string | null; elsewhere: boolean } {
    return { ...this.host.subAgents(), elsewhere: this.options.subAgentsElsewhere === true };
  }

  watchAgent(threadId: string | null): void {
    this.host.watchAgent(threadId);
  }

  private commitHeader(info: HeaderInfo): void {
    const header = { ...info, trust: this.options.trustNote?.() ?? null };
    this.view.commit((width) => headerCell(header, this.style, width));
  }

  notice(kind: NoticeKind, message: string): void {
    this.view.commit((width) => noticeCell(kind, message, this.style, width));
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private setRunning(running: boolean): void {
    this.running = running;
    this.status.startedAt = running ? this.now() : null;
    if (!running) {
      this.status.label = "Working";
      this.status.retry = null;
    }
    if (running && !this.spinner) {
      this.spinner = setInterval(() => this.requestRender(), 100);
      this.spinner.unref();
    } else if (!running && this.spinner) {
      clearInterval(this.spinner);
      this.spinner = null;
    }
  }

  // ------------------------------------------------------------------ input (app-input.ts)

  handleInput(data: string): void {
    this.input.handleInput(data);
  }

  keyTarget(): { handleInput(data: string): void } | null {
    return this.view.keyTarget;
  }

  setHint(hint: string | null): void {
    this.status.hint = hint;
  }

  commands(): SlashCommand[] {
    return [...BUILTIN_COMMANDS, ...this.customPrompts];
  }

  openTranscript(): void {
    this.view.openTranscript();
  }

  /** `?` on an empty composer: the keys and commands, until any key is pressed. */
  showHelp(): void {
    void this.present<null>((done) => ({ render: (width: number) => helpLines(this.theme, width), handleInput: () => done(null), invalidate: () => undefined }));
  }

  requestRender(): void {
    this.view.requestRender();
  }

  /** Paints now: commits what finished, repaints the live region (or the full-screen view). */
  renderNow(): void {
    this.view.renderNow();
  }

  /** The live region, top to bottom. */
  liveLines(): string[] {
    return this.view.liveLines();
  }

  private footer(): string {
    return this.theme.dim(this.running ? " Enter to steer · Esc to interrupt · Ctrl+T transcript" : " Enter to send · / commands · @ files · !cmd shell · ? keys");
  }
}
