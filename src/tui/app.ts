/**
 * The interactive app: turns the session's events into history cells and the user's keys into
 * ops. It holds no agent logic; everything it knows comes from events, everything it does is an
 * op. Finished cells go to scrollback once through the inline renderer; the live region is the
 * streaming message, running commands, the status line and the composer (or an overlay).
 */
import type { Op } from "../protocol/ops.js";
import type { Event, EventMsg, FileChange, RateLimitSnapshot, TokenUsage } from "../protocol/events.js";
import type { McpInvocation } from "../protocol/mcp-events.js";
import type { ReasoningEffort } from "../protocol/policy.js";
import type { SelectItem } from "@mariozechner/pi-tui";
import type { Theme } from "./parts/theme.js";
import type { InlineRenderer } from "./inline-renderer.js";
import {
  agentCell,
  commandCell,
  headerCell,
  mcpCallCell,
  noticeCell,
  patchCell,
  planCell,
  reasoningCell,
  textCell,
  userCell,
  type CellStyle,
  type CommandView,
  type HeaderInfo,
  type NoticeKind,
} from "./cells.js";
import { StatusLine } from "./status-line.js";
import { compactedCell, skillsLines, webSearchCell } from "./activity-cells.js";
import { statusReport } from "./status-report.js";
import { mcpListLines, serverNeedingLogin } from "./mcp-view.js";
import { StreamingText } from "./streaming-text.js";
import { Composer, SlashCompletions } from "./composer.js";
import { fileIndexFor } from "./parts/file-search.js";
import type { SearchableIndex } from "./parts/file-search-popup.js";
import { BUILTIN_COMMANDS, promptCommand, type SlashCommand, type SlashContext } from "./slash-commands.js";
import { KeyInput } from "./app-input.js";
import { questionOverlay } from "./questions.js";
import type { Overlay } from "./overlays.js";
import { PickerOverlay, TextPromptOverlay } from "./overlays.js";
import { reviewText } from "../presentation/review-text.js";
import { questionSummary } from "../presentation/questions.js";
import { addUsage } from "../presentation/usage.js";

/** What the app needs from the process around it (the runner in run-tui.ts). */
export interface AppHost {
  submit(op: Op): string;
  /** The lines /diff shows (the working tree's diff, or why there is none). */
  gitDiff(): Promise<string[]>;
  newThread(): Promise<void>;
  resumePicker(): Promise<void>;
  forkThread(): Promise<void>;
  /** Ctrl+G: the text edited in $VISUAL / $EDITOR; throws with a sentence for the user when it cannot. */
  externalEdit(text: string): Promise<string>;
  /** A turn ended or needs the user: the host decides whether to notify (unfocused terminal). */
  notify(event: "agent-turn-complete" | "approval-requested", text: string): void;
  /** The user asked to leave. */
  quit(): void;
  /** The files `@` searches in `cwd`, when they are not this machine's (a remote session). */
  fileIndex?(cwd: string): SearchableIndex | undefined;
}

export interface AppOptions {
  theme: Theme;
  style: CellStyle;
  renderer: InlineRenderer;
  rows: () => number;
  version: string;
  hideReasoning: boolean;
  mcpServers: string[];
  now?: () => number;
  /** A turn began (the runner starts loading the code highlighter then). */
  onTurnStart?: () => void;
}

interface LiveCommand extends CommandView {
  callId: string;
}

export class App implements SlashContext {
  private readonly theme: Theme;
  private readonly style: CellStyle;
  private readonly status: StatusLine;
  readonly composer: Composer;
  private readonly stream = new StreamingText();
  /** Whether the streaming message already put a paragraph in scrollback (no bullet again). */
  private streamContinues = false;
  private reasoning = "";
  private readonly liveCommands = new Map<string, LiveCommand>();
  private readonly liveMcp = new Map<string, McpInvocation>();
  private readonly patches = new Map<string, Record<string, FileChange>>();
  private readonly overlays: Overlay[] = [];
  /** Question overlays by the question's key, until it is resolved. */
  private readonly questions = new Map<string, Overlay>();
  /** `/model` pickers waiting for the session's list_models_response. */
  private modelListWaiters: Array<(models: Array<{ slug: string; is_default: boolean }>) => void> = [];
  private pendingCommit: string[] = [];
  private renderQueued = false;
  private spinner: NodeJS.Timeout | null = null;
  private customPrompts: SlashCommand[] = [];
  private readonly mcpStatus = new Map<string, string>();
  /** The user messages of the thread, oldest first (for backtrack). */
  userMessages: string[] = [];
  private readonly input: KeyInput;
  private header: HeaderInfo | null = null;
  private totals: TokenUsage | null = null;
  private rateLimits: RateLimitSnapshot | null = null;
  /** Web searches the provider is running, by call id (drawn live until their end event). */
  private readonly liveSearches = new Set<string>();
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
    for (const s of options.mcpServers) this.mcpStatus.set(s, "starting");
    const editorHost = { requestRender: () => this.requestRender(), terminal: { get rows() { return options.rows(); } } };
    this.composer = new Composer(editorHost, options.theme, new SlashCompletions(() => this.commands()), {
      cwd: () => this.cwd,
      fileIndex: () => this.host.fileIndex?.(this.cwd) ?? fileIndexFor(this.cwd),
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
    this.commit(textCell(title, body, this.style, this.width()));
  }

  error(message: string): void {
    this.notice("error", message);
  }

  pick(title: string, items: SelectItem[]): Promise<SelectItem | null> {
    return this.present((done) => new PickerOverlay(this.theme, title, items, done));
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

  statusLines(): string[] {
    const now = (this.options.now ?? Date.now)() / 1000;
    return statusReport({ header: this.header, rolloutPath: this.rolloutPath, totals: this.totals, usage: this.status.usage, rateLimits: this.rateLimits, now });
  }

  compact(instructions: string): void {
    this.submit({ type: "compact", ...(instructions.trim() !== "" ? { instructions: instructions.trim() } : {}) });
    this.status.label = "Compacting";
  }

  listMcp(): void {
    if (this.mcpStatus.size === 0) this.print("MCP servers", ["no MCP servers configured (see `codex-ts mcp add`)"]);
    else this.submit({ type: "list_mcp_tools" });
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

  warn(message: string): void {
    this.notice("warning", message);
  }

  /** Shows a component that takes the keyboard until it calls `done`; resolves with its answer. */
  present<T>(make: (done: (value: T) => void) => Overlay): Promise<T> {
    return new Promise((resolve) => {
      const overlay = make((value) => {
        this.closeOverlay(overlay);
        resolve(value);
      });
      this.openOverlay(overlay);
    });
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
  quit(): void {
    this.host.quit();
  }


  // ------------------------------------------------------------------ events

  /** A new thread is shown: forget the old one's live state (its cells stay in scrollback). */
  resetThread(): void {
    this.stream.finish("");
    this.reasoning = "";
    this.liveCommands.clear();
    this.liveMcp.clear();
    this.liveSearches.clear();
    this.overlays.length = 0;
    this.questions.clear();
    this.userMessages = [];
    this.setRunning(false);
    this.status.usage = null;
    this.totals = null;
  }

  onEvent(event: Event): void {
    this.handle(event.msg, false);
    this.requestRender();
  }

  private handle(msg: EventMsg, replay: boolean): void {
    const w = this.width();
    switch (msg.type) {
      case "session_configured":
        this.header = {
          version: this.options.version,
          model: msg.model,
          effort: msg.reasoning_effort,
          cwd: msg.cwd,
          approval: msg.approval_policy,
          sandbox: msg.sandbox_policy,
          sessionId: msg.session_id,
        };
        this.rolloutPath = msg.rollout_path;
        this.composer.setHistory(msg.history_log_id, msg.history_entry_count);
        this.commit(headerCell(this.header, this.style, w));
        for (const m of msg.initial_messages ?? []) this.handle(m, true);
        if (!replay) {
          this.host.submit({ type: "list_custom_prompts" });
        }
        break;
      case "task_started":
        this.setRunning(true);
        this.options.onTurnStart?.();
        break;
      case "task_complete":
        this.flushStream();
        // A search the provider never finished is not running any more.
        this.liveSearches.clear();
        this.setRunning(false);
        this.host.notify("agent-turn-complete", firstLine(msg.last_agent_message) ? `Turn complete: ${firstLine(msg.last_agent_message)}` : "Turn complete");
        break;
      case "turn_aborted":
        this.flushStream();
        this.endLiveCells();
        this.setRunning(false);
        if (msg.reason === "interrupted") this.notice("aborted", "Interrupted. Tell the agent what to do differently, or send a new request.");
        break;
      case "user_message":
        this.flushStream();
        this.userMessages.push(msg.message);
        this.commit(userCell(msg.message, this.style, w));
        break;
      case "agent_message_delta": {
        this.stream.append(msg.delta);
        const stable = this.stream.takeStable();
        if (stable !== null) this.commit(agentCell(stable, this.style, w, !this.streamContinues).slice(0, -1));
        if (stable !== null) this.streamContinues = true;
        break;
      }
      case "agent_message": {
        const continues = this.streamContinues;
        const rest = this.stream.finish(msg.message);
        this.streamContinues = false;
        if (rest.trim() !== "" || !continues) this.commit(agentCell(rest, this.style, w, !continues));
        else this.commit([""]);
        break;
      }
      case "agent_reasoning_delta":
        if (!this.options.hideReasoning) this.reasoning += msg.delta;
        break;
      case "agent_reasoning":
        this.reasoning = "";
        if (!this.options.hideReasoning) this.commit(reasoningCell(msg.text, this.style, w));
        break;
      case "agent_reasoning_section_break":
        break;
      case "exec_command_begin":
        // A replayed command is drawn from its end event alone.
        if (!replay) this.liveCommands.set(msg.call_id, { callId: msg.call_id, command: msg.command, output: "", exitCode: null, duration: null, userShell: msg.source === "user_shell" });
        break;
      case "exec_command_output_delta": {
        const c = this.liveCommands.get(msg.call_id);
        // Only the tail is ever shown; keep a bounded amount of it.
        if (c) c.output = (c.output + msg.chunk).slice(-16_384);
        break;
      }
      case "exec_command_end":
        this.liveCommands.delete(msg.call_id);
        this.commit(
          commandCell(
            { command: msg.command, output: msg.aggregated_output || msg.formatted_output, exitCode: msg.exit_code, duration: msg.duration, userShell: msg.source === "user_shell" },
            this.style,
            w,
          ),
        );
        break;
      case "question_asked": {
        if (replay) break;
        this.flushStream();
        const overlay = questionOverlay(msg.key, msg.request, { theme: this.theme, style: this.style, submit: (op) => this.host.submit(op), close: (o) => this.closeOverlay(o) });
        this.questions.set(msg.key, overlay);
        this.openOverlay(overlay);
        this.host.notify("approval-requested", `Approval needed: ${questionSummary(msg.request)}`);
        break;
      }
      case "question_resolved": {
        // Answered here, or closed by the core (an interrupt): nothing is left to answer.
        const overlay = this.questions.get(msg.key);
        this.questions.delete(msg.key);
        if (overlay) this.closeOverlay(overlay);
        break;
      }
      case "patch_apply_begin":
        this.patches.set(msg.call_id, msg.changes);
        if (replay) this.commit(patchCell(msg.changes, "applied", this.style, w));
        break;
      case "patch_apply_end": {
        const changes = this.patches.get(msg.call_id);
        this.patches.delete(msg.call_id);
        if (changes) this.commit(patchCell(changes, msg.success ? "applied" : "failed", this.style, w));
        if (!msg.success && msg.stderr.trim()) this.notice("error", msg.stderr.trim());
        break;
      }
      case "plan_update":
        this.commit(planCell(msg.explanation, msg.plan, this.style, w));
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
        this.notice("warning", msg.message);
        break;
      case "warning":
        this.notice("warning", msg.message);
        break;
      case "error":
        this.flushStream();
        this.notice("error", msg.message);
        break;
      case "mcp_startup_update":
        this.mcpStatus.set(msg.server, msg.status.state === "failed" ? `failed: ${msg.status.error}` : msg.status.state);
        break;
      case "mcp_startup_complete":
        for (const f of msg.failed) {
          this.notice("warning", `MCP server ${f.server} did not start: ${f.error}`);
          const login = serverNeedingLogin(f.error);
          if (login !== null) this.notice("info", `Type /mcp login ${login} to sign in from here; the server then starts again in this session.`);
        }
        break;
      case "mcp_list_tools_response":
        this.print("MCP servers", mcpListLines(this.mcpStatus, msg));
        break;
      case "mcp_tool_call_begin":
        if (!replay) this.liveMcp.set(msg.call_id, msg.invocation);
        break;
      case "mcp_tool_call_end":
        this.liveMcp.delete(msg.call_id);
        this.commit(mcpCallCell(msg.invocation, msg.result, msg.duration, this.style, w));
        break;
      case "entered_review_mode":
        this.status.label = "Reviewing";
        this.notice("info", `Review started${msg.user_facing_hint ? `: ${msg.user_facing_hint}` : ""}`);
        break;
      case "exited_review_mode":
        this.status.label = "Working";
        if (msg.review_output) this.print("Review", reviewText(msg.review_output).split("\n"));
        else this.notice("aborted", "The review was interrupted.");
        break;
      case "context_compacted":
        this.status.label = "Working";
        this.commit(compactedCell(this.status.usage?.last_token_usage.total_tokens ?? null, this.style, w));
        break;
      case "web_search_begin":
        if (!replay) this.liveSearches.add(msg.call_id);
        break;
      case "web_search_end":
        this.liveSearches.delete(msg.call_id);
        this.commit(webSearchCell(msg, this.style, w));
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
      case "thread_rolled_back":
        this.userMessages = this.userMessages.slice(0, Math.max(0, this.userMessages.length - msg.num_turns));
        if (!replay) this.notice("info", `Rolled back ${msg.num_turns} turn${msg.num_turns === 1 ? "" : "s"}; the agent no longer sees them.`);
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
      case "view_image_tool_call":
        this.notice("info", `Viewed image ${msg.path}`);
        break;
      case "turn_diff":
      case "agent_reasoning_raw_content_delta":
      case "agent_reasoning_raw_content":
      case "shutdown_complete":
        break;
      default:
        break;
    }
  }

  private flushStream(): void {
    const rest = this.stream.pending();
    if (this.stream.started && rest.trim() !== "") {
      this.commit(agentCell(rest, this.style, this.width(), !this.streamContinues));
    }
    if (this.stream.started) this.stream.finish("");
    this.streamContinues = false;
  }

  /** Commands still shown as running when the turn ended without them finishing. */
  private endLiveCells(): void {
    for (const c of this.liveCommands.values()) this.commit(commandCell({ ...c, exitCode: -1 }, this.style, this.width()));
    this.liveCommands.clear();
    this.liveMcp.clear();
    this.liveSearches.clear();
  }

  notice(kind: NoticeKind, message: string): void {
    this.commit(noticeCell(kind, message, this.style, this.width()));
  }

  private setRunning(running: boolean): void {
    this.running = running;
    this.status.startedAt = running ? (this.options.now ?? Date.now)() : null;
    if (!running) this.status.label = "Working";
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

  topOverlay(): Overlay | undefined {
    return this.overlays[0];
  }

  setHint(hint: string | null): void {
    this.status.hint = hint;
  }

  commands(): SlashCommand[] {
    return [...BUILTIN_COMMANDS, ...this.customPrompts];
  }

  // ------------------------------------------------------------------ overlays and rendering

  private openOverlay(overlay: Overlay): void {
    this.overlays.push(overlay);
    this.requestRender();
  }

  private closeOverlay(overlay: Overlay): void {
    const i = this.overlays.indexOf(overlay);
    if (i >= 0) this.overlays.splice(i, 1);
    this.requestRender();
  }

  private commit(lines: string[]): void {
    this.pendingCommit.push(...lines);
    this.requestRender();
  }

  private width(): number {
    return Math.max(20, this.renderer().columns);
  }

  private renderer(): InlineRenderer {
    return this.options.renderer;
  }

  requestRender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    setImmediate(() => {
      this.renderQueued = false;
      this.renderNow();
    });
  }

  /** Paints now: commits what finished, repaints the live region. */
  renderNow(): void {
    const live = this.liveLines();
    if (this.pendingCommit.length > 0) {
      const lines = this.pendingCommit;
      this.pendingCommit = [];
      this.renderer().commit(lines, live);
    } else {
      this.renderer().paint(live);
    }
  }

  /** The live region, top to bottom. */
  liveLines(): string[] {
    const w = this.width();
    const lines: string[] = [];
    const pending = this.stream.pending();
    if (pending.trim() !== "") lines.push(...agentCell(pending, this.style, w, !this.streamContinues));
    if (this.reasoning.trim() !== "" && !this.stream.started) lines.push(this.theme.dim(this.theme.italic(`• ${lastLine(this.reasoning)}`)));
    for (const c of this.liveCommands.values()) lines.push(...commandCell(c, this.style, w, 3));
    for (const inv of this.liveMcp.values()) lines.push(...mcpCallCell(inv, null, null, this.style, w));
    for (let i = 0; i < this.liveSearches.size; i++) lines.push(...webSearchCell(null, this.style, w));
    lines.push(...this.status.render(w));
    const overlay = this.overlays[0];
    if (overlay) lines.push(...overlay.render(w));
    else {
      lines.push(...this.composer.render(w));
      lines.push(this.theme.dim(this.running ? " Enter to steer · Esc to interrupt · Ctrl+C to clear" : " Enter to send · Shift+Enter newline · / commands · @ files · !cmd shell"));
    }
    return lines;
  }
}

function firstLine(text: string | null): string {
  return (text ?? "").split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] ?? "";
}
