/**
 * `codex-ts [PROMPT]`, `codex-ts resume …` and `codex-ts fork …`: the interactive UI. Loads the
 * config as exec does (but with the configured approval policy: someone is there to answer),
 * asks the thread manager for a thread, takes the terminal over, and runs the app until the
 * user quits; then gives the terminal back and prints the token usage and how to resume.
 * Loaded only when the UI starts, so `--version` and `exec` never pay for it.
 */
import { existsSync, statSync } from "node:fs";
import { resolve, sep } from "node:path";
import { loadConfig, type Config } from "../config/load-config.js";
import { configInputFromFlags, type SessionFlags } from "../config/session-flags.js";
import { ConfigError } from "../config/overrides.js";
import type { HostedThread } from "../host/hosted-thread.js";
import type { ThreadTarget } from "../protocol/threads.js";
import type { Op } from "../protocol/ops.js";
import type { Event } from "../protocol/events.js";
import { packageVersion } from "../util/version.js";
import { shellJoin } from "../util/shell-quote.js";
import { theme as processTheme } from "./parts/theme.js";
import { InlineRenderer } from "./inline-renderer.js";
import { TerminalSession } from "./terminal-session.js";
import { App, type AppHost } from "./app.js";
import type { AgentChoice } from "./app-host.js";
import { AgentView } from "./agent-view.js";
import { agentName, statusPhrase } from "../presentation/collab-text.js";
import { markdownTheme, usageLine } from "./cells.js";
import { tuiSettings, type TuiSettings } from "./settings.js";
import { renderFileChange } from "./parts/diff-view.js";
import { FocusNotifier, type NotificationEvent } from "./parts/notifications.js";
import { agentsMdFiles } from "../config/agents-md.js";
import { projectSettingsFolders } from "../config/project-config.js";
import type { ReasoningEffort } from "../protocol/policy.js";
import { highlightCode, preloadHighlighter } from "./parts/highlight.js";
import { loadMarkdown } from "./pi-tui.js";
import type { SignInOutcome } from "./parts/sign-in.js";
import { errorMessage } from "../util/errors.js";
import type { SearchableIndex } from "./parts/file-search-popup.js";
import { StartFailure, type ThreadSource } from "./thread-source.js";

export interface TuiOptions extends SessionFlags {
  cd?: string;
  image: string[];
  /** `--alt-screen` (true) / `--no-alt-screen` (false). */
  altScreen?: boolean;
  /** `--remote ws://HOST:PORT`: the threads run on that app-server, not here. */
  remote?: string;
  /** `--remote-auth-token-env VAR`: the environment variable holding the server's bearer token. */
  remoteAuthTokenEnv?: string;
}

/** What the UI opens on: a new thread (with an optional first prompt), or a recorded one. */
export interface TuiStart {
  prompt?: string;
  target: ThreadTarget | null;
  /** `resume`/`fork` without an id: let the user pick the session first. */
  pick?: boolean;
}

export const NO_TERMINAL =
  "codex-ts: the interactive UI needs a terminal on stdin and stdout. To run a task without one, use `codex-ts exec \"<task>\"` (see `codex-ts exec --help`).";

export async function runTui(opts: TuiOptions, start: TuiStart): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write(`${NO_TERMINAL}\n`);
    return 1;
  }
  // With --remote, --cd names a folder on the server; this side only reads the UI's settings.
  const cwd = opts.remote !== undefined ? process.cwd() : resolve(opts.cd ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    process.stderr.write(`--cd ${opts.cd}: no such directory\n`);
    return 1;
  }
  let config: Config;
  try {
    config = load(opts, cwd);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Error loading config: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const runner = new TuiRunner(config, () => load(opts, cwd), tuiSettings(config.toml, opts), permissionsChosen(config), opts);
  return runner.run(start, opts.image.map((p) => resolve(cwd, p)));
}

function load(opts: TuiOptions, cwd: string): Config {
  return loadConfig(configInputFromFlags(cwd, opts));
}

/** Whether the approval policy or the sandbox was chosen (config, profile, `-c`, a flag) rather than left to trust. */
function permissionsChosen(config: Config): boolean {
  return config.toml.sandbox_mode !== undefined || config.toml.approval_policy !== undefined;
}

/** What the header says about the folder's trust, when the permissions follow from it. */
function trustNote(c: Config): string | null {
  if (c.projectTrustLevel === "trusted" && c.sandboxPolicy.type === "workspace-write" && c.approvalPolicy === "on-request") {
    return "trusted folder: works inside it without asking";
  }
  if (c.projectTrustLevel === "untrusted" && c.approvalPolicy === "untrusted") return "untrusted folder: asks before anything not known to be safe";
  return null;
}

/** OSC 52: the terminal puts `text` on the system clipboard (also through ssh and tmux). */
function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

/** Owns the terminal, the app and the current thread; switches threads for /new, /resume, /fork. */
class TuiRunner implements AppHost {
  private source: ThreadSource | null = null;
  /** Ops submitted before the first thread was ready (a prompt typed while it starts). */
  private readonly early: Op[] = [];
  private readonly term: TerminalSession;
  private readonly renderer: InlineRenderer;
  private readonly app: App;
  private thread: HostedThread | null = null;
  /** Which thread is on screen: the main one, or a sub-agent watched with /agent. */
  private readonly agentView = new AgentView({
    show: (event) => this.app.onEvent(event),
    reset: () => this.app.resetThread(),
    watchedEnded: () => {
      this.app.notice("info", "The sub-agent you watched was closed; this is your conversation again.");
      this.app.requestRender();
    },
  });
  private done: ((code: number) => void) | null = null;
  private quitting = false;

  private readonly notifier: FocusNotifier;
  /** What the permission profile denies, for the `@` file list; made again when the config is reloaded. */
  private deniedFilter: Promise<(path: string) => boolean>;

  constructor(
    private config: Config,
    private readonly reload: () => Config,
    private readonly settings: TuiSettings,
    /** The user chose the approval policy or the sandbox (flags or config): no trust question for that. */
    private readonly permissionsChosen: boolean,
    private readonly flags: TuiOptions,
  ) {
    this.notifier = new FocusNotifier(settings.notifications, process.env, settings.notificationMethod);
    this.deniedFilter = deniedFilterFor(config);
    this.term = new TerminalSession({
      alternateScreen: settings.alternateScreen,
      onInput: (data) => this.onInput(data),
      onResize: () => {
        this.renderer.resize(this.app.liveLines());
        // A full-screen view (a tall question, the transcript) is drawn again at the new size.
        this.app.requestRender();
      },
    });
    this.renderer = new InlineRenderer(this.term, settings.alternateScreen);
    const theme = processTheme();
    this.app = new App(this, {
      theme,
      style: {
        theme,
        markdown: { ...markdownTheme(theme), highlightCode },
        diff: (path, change, width) => renderFileChange(path, change, width, { cwd: config.cwd, maxLines: 80 }),
      },
      renderer: this.renderer,
      rows: () => this.term.rows,
      version: packageVersion(),
      hideReasoning: config.hideAgentReasoning,
      // A remote session's MCP servers are the app-server's (they come as start-up events).
      mcpServers: this.flags.remote === undefined ? Object.keys(config.mcpServers) : [],
      hiddenFile: () => this.deniedFilter,
      onTurnStart: () => preloadHighlighter(() => this.app.requestRender()),
      trustNote: () => trustNote(this.config),
      subAgentsElsewhere: flags.remote !== undefined,
    });
  }

  async run(start: TuiStart, images: string[]): Promise<number> {
    this.term.start();
    this.notifier.start((d) => this.term.write(d));
    const finished = new Promise<number>((resolveDone) => (this.done = resolveDone));
    for (const warning of this.settings.warnings) this.app.warn(warning);
    // A remote session's project and credentials are the server's business.
    if (this.flags.remote === undefined) await this.askTrust();
    // The composer is usable at once; the core loads and the thread starts behind it. Drawn
    // now, not on the next turn of the event loop, where the core's first files would go first.
    this.app.renderNow();
    this.source = await (this.flags.remote !== undefined ? this.remoteSource(this.flags.remote) : this.localSource());
    if (!this.source) {
      this.finish(1);
      return finished;
    }
    let target = start.target;
    if (start.pick && target) {
      const picked = await this.pickSession(target.kind, target.all, target.interactiveOnly === true);
      if (picked === null) {
        this.finish(0);
        return finished;
      }
      target = { ...target, sessionId: picked };
    }
    const prompt = start.prompt;
    if (!(await this.open(target))) {
      this.finish(1);
      return finished;
    }
    if ((prompt !== undefined && prompt.trim() !== "") || images.length > 0) {
      const items = [...images.map((path) => ({ type: "local_image" as const, path })), { type: "text" as const, text: prompt ?? "" }];
      this.submit({ type: "user_turn", items });
    }
    return finished;
  }

  /** This machine's engine: the credentials are checked first (and a sign-in offered when there are none). */
  private async localSource(): Promise<ThreadSource | null> {
    // Agent messages are drawn with the Markdown component: loaded with the core, before a thread can send one.
    const [{ FrontEndHost, HostStartError }, { LocalThreads }] = await Promise.all([import("../host/front-end-host.js"), import("./thread-source.js"), loadMarkdown()]);
    const host = new FrontEndHost("tui", process.env, { goalContinuation: true });
    try {
      host.checkCredentials(this.config);
    } catch (err) {
      if (!(err instanceof HostStartError)) throw err;
      // No credentials at all: offer to sign in rather than only saying so.
      if (!(err.kind === "no_api_key" && (await this.signIn()))) {
        this.startError = err.message;
        return null;
      }
    }
    return new LocalThreads(host, () => this.config, HostStartError);
  }

  /** An app-server elsewhere (`--remote`); the token, when one is needed, comes from the variable `--remote-auth-token-env` names. */
  private async remoteSource(url: string): Promise<ThreadSource | null> {
    const [{ RemoteClient }, { RemoteThreads }] = await Promise.all([import("../app-server-client/remote-client.js"), import("./thread-source.js"), loadMarkdown()]);
    const tokenVar = this.flags.remoteAuthTokenEnv;
    const token = tokenVar === undefined ? null : (process.env[tokenVar] ?? null);
    if (tokenVar !== undefined && !token) {
      this.startError = `--remote-auth-token-env ${tokenVar}: that environment variable is not set`;
      return null;
    }
    try {
      const client = await RemoteClient.connect({ url, token, clientName: "codex_ts_tui", version: packageVersion() });
      return new RemoteThreads(client, url, { cwd: this.flags.cd, model: this.flags.model, approvalPolicy: this.flags.askForApproval, sandbox: this.flags.sandbox });
    } catch (err) {
      this.startError = errorMessage(err);
      return null;
    }
  }

  /** Starts (or resumes / forks) a thread and shows it; false when it could not start. */
  private async open(target: ThreadTarget | null): Promise<boolean> {
    const source = this.source;
    if (!source) return false;
    let thread: HostedThread;
    try {
      thread = await source.open(target);
    } catch (err) {
      if (!(err instanceof StartFailure)) throw err;
      this.startError = err.message;
      return false;
    }
    const previous = this.thread;
    this.thread = thread;
    this.agentView.forget();
    this.app.resetThread();
    // Shown under the new thread's header (a fork's new id, "nothing to resume").
    this.app.noteUnderHeader(thread.notices);
    void thread.listen((event) => this.show(thread, event));
    if (previous) void source.close(previous);
    for (const op of this.early.splice(0)) thread.submit(op);
    try {
      await source.ready(thread);
    } catch (err) {
      if (!(err instanceof StartFailure)) throw err;
      this.startError = err.message;
      return false;
    }
    return true;
  }

  private startError: string | null = null;

  /** Shows the current thread's events (a replaced thread's last ones are not drawn; while a sub-agent is watched, most wait). */
  private show(thread: HostedThread, event: Event): void {
    if (this.thread !== thread) return;
    this.agentView.mainEvent(event);
    if (event.msg.type === "shutdown_complete" && this.quitting) this.finish(0);
  }

  private onInput(data: string): void {
    const keys = this.notifier.filterInput(data);
    if (keys !== "") this.app.handleInput(keys);
  }

  // ------------------------------------------------------------------ AppHost

  submit(op: Op): string {
    if (!this.thread) {
      this.early.push(op);
      return "";
    }
    const target = this.agentView.route(op, this.thread);
    if (target) return target.submit(op);
    this.app.error("This sub-agent is not open: its conversation is here to read (the agent reopens it to give it more work). /agent to go back.");
    return "";
  }

  subAgents(): { agents: AgentChoice[]; watching: string | null } {
    const views = this.source && this.thread ? this.source.subAgents(this.thread.threadId) : [];
    const agents = views.map((v) => ({ threadId: v.thread_id, name: agentName(v), status: v.closed ? "is closed" : statusPhrase(v.status) }));
    return { agents, watching: this.agentView.watching };
  }

  watchAgent(threadId: string | null): void {
    const view = threadId === null || !this.source || !this.thread ? null : (this.source.subAgents(this.thread.threadId).find((v) => v.thread_id === threadId) ?? null);
    const redraw = view ? view.redraw() : null;
    if (view && !view.thread && !redraw) {
      this.app.error(`${agentName(view)}'s conversation cannot be shown: it was not recorded, or its session file is gone.`);
      return;
    }
    const note = !view
      ? "Back to your conversation; what happened in it meanwhile follows."
      : view.thread
        ? `Watching ${agentName(view)}, a sub-agent: what you type goes to it. /agent to go back.`
        : `${agentName(view)}, ${view.closed ? "a closed sub-agent" : "a sub-agent not open since the resume"}, as recorded: nothing you type goes to it. /agent to go back.`;
    this.app.noteUnderHeader([note]);
    this.agentView.switchTo(view, redraw);
    this.app.requestRender();
  }

  async gitDiff(): Promise<string[]> {
    return this.source ? this.source.gitDiff(this.app.cwd) : [];
  }

  fileIndex(cwd: string): SearchableIndex | undefined {
    return this.source?.fileIndex(cwd) ?? undefined;
  }

  async newThread(): Promise<void> {
    await this.open(null);
  }

  async resumePicker(): Promise<void> {
    const id = await this.pickSession("resume", false, true);
    if (id !== null) await this.open({ kind: "resume", sessionId: id, last: false, all: false });
  }

  async forkThread(): Promise<void> {
    const id = this.app.sessionId;
    // The core's notice names the new id; it is shown under the new header.
    if (id) await this.open({ kind: "fork", sessionId: id, last: false, all: false });
  }

  copyToClipboard(text: string): void {
    this.term.write(osc52(text));
  }

  async saveModel(model: string, effort: ReasoningEffort | null): Promise<string> {
    if (this.source && !this.source.local) return this.source.saveModel(model, effort);
    const { saveModelChoice } = await import("./model-choice.js");
    return saveModelChoice(this.config.codexHome, this.config.profile, model, effort);
  }

  statusFacts(): { provider: string; agentsFiles: string[] } {
    if (this.source && !this.source.local) return { provider: this.source.describe(), agentsFiles: [] };
    const c = this.config;
    const agentsFiles = agentsMdFiles({ codexHome: c.codexHome, cwd: c.cwd, maxBytes: c.projectDocMaxBytes, fallbackFilenames: c.projectDocFallbackFilenames, rootMarkers: c.projectRootMarkers });
    return { provider: `${c.provider.name} (${c.modelProviderId})`, agentsFiles };
  }

  renameThread(name: string): void {
    const id = this.app.sessionId;
    const source = this.source;
    if (id === null || !source) return this.app.error("Cannot rename: there is no conversation to name yet");
    void source.rename(id, name).then((named) => {
      if (typeof named === "string") this.app.error(`Cannot rename: ${named}`);
      else this.app.print("Conversation named", [`${named.name}: \`${this.resumeCommand(shellJoin([named.name]))}\` opens it again`]);
      this.app.requestRender();
    });
  }

  /** The command that opens a session again (through the same app-server for a remote one). */
  private resumeCommand(session: string): string {
    return `codex-ts ${this.flags.remote !== undefined ? `--remote ${this.flags.remote} ` : ""}resume ${session}`;
  }


  async externalEdit(text: string): Promise<string> {
    const { editExternally } = await import("./parts/external-editor.js");
    return editExternally(text, { terminal: { suspend: () => this.term.suspend(), resume: () => this.resumeTerminal() } });
  }

  private resumeTerminal(): void {
    this.term.resume();
    this.renderer.resize(this.app.liveLines());
  }

  notify(event: NotificationEvent, text: string): void {
    this.notifier.notify(event, text);
  }

  /**
   * A folder the user never trusted or refused: ask once (as the reference does, unless the
   * user chose the permissions explicitly and the project has no settings waiting for trust),
   * save the answer, and load the config again, which now runs in the workspace and loads the
   * project's settings when trusted.
   */
  private async askTrust(): Promise<void> {
    if (this.config.projectTrustLevel !== null) return;
    // Permissions chosen and no project settings waiting: nothing to ask, and the question's code stays unloaded.
    const { cwd, codexHome, projectRootMarkers } = this.config;
    if (this.permissionsChosen && projectSettingsFolders(cwd, codexHome, projectRootMarkers).folders.length === 0) return;
    const { TrustPrompt, saveTrustDecision, trustQuestionFor } = await import("./parts/trust.js");
    const question = trustQuestionFor(this.config, this.permissionsChosen);
    if (!question) return;
    // The question answers the loader's "not loaded because the project is not trusted".
    const answered = new Set(this.config.undecidedTrustWarnings);
    this.config = { ...this.config, warnings: this.config.warnings.filter((w) => !answered.has(w)) };
    const level = await this.app.present<"trusted" | "untrusted" | null>((done) => new TrustPrompt(question, done));
    if (level === null) return;
    try {
      await saveTrustDecision(this.config.codexHome, question.projectPath, level);
      const reloaded = this.reload();
      // Refused: the question already said the project's settings stay off.
      const skipped = (w: string): boolean => question.folders.some((folder) => w.startsWith(`${folder}${sep}`));
      this.config = { ...reloaded, warnings: reloaded.warnings.filter((w) => !skipped(w)) };
      this.deniedFilter = deniedFilterFor(this.config);
    } catch (err) {
      this.app.warn(`Could not save the answer: ${errorMessage(err)}`);
    }
  }

  /** The sign-in screen (for the built-in OpenAI provider only); true once a login is saved. */
  private async signIn(): Promise<boolean> {
    if (this.config.provider.id !== "openai") return false;
    const [{ SignInScreen, chatgptSignIn }, { loginPolicyFrom }] = await Promise.all([import("./parts/sign-in.js"), import("../auth/resolve-auth.js")]);
    const policy = loginPolicyFrom(this.config.toml);
    const start = chatgptSignIn(this.config.codexHome, process.env, policy.forcedWorkspaceIds ?? null);
    const options = { chatgptAllowed: policy.forcedLoginMethod !== "api", apiKeyAllowed: policy.forcedLoginMethod !== "chatgpt", startChatGpt: start, requestRender: () => this.app.requestRender() };
    const outcome = await this.app.present<SignInOutcome>((done) => new SignInScreen(options, done));
    if (outcome === "quit") return false;
    this.app.print("Signed in with ChatGPT", [outcome.email ? `as ${outcome.email}; the login is saved in ${this.config.codexHome}/auth.json` : `the login is saved in ${this.config.codexHome}/auth.json`]);
    return true;
  }

  /** The recorded session the user picks (newest first; this folder's unless `all`), or null. */
  private async pickSession(kind: "resume" | "fork", all: boolean, interactiveOnly: boolean): Promise<string | null> {
    const source = this.source;
    if (!source) return null;
    const [{ SessionPicker }, threads] = await Promise.all([import("./parts/session-picker.js"), source.recorded(all, interactiveOnly)]);
    const cwd = this.flags.remote === undefined ? this.config.cwd : (this.flags.cd ?? this.app.cwd);
    return this.app.present<string | null>(
      (done) =>
        new SessionPicker({
          threads: () => threads,
          cwd,
          all,
          title: kind === "resume" ? "Resume a session" : "Fork a session",
          onPick: (session) => done(session.id),
          onCancel: () => done(null),
          requestRender: () => this.app.requestRender(),
        }),
    );
  }

  quit(): void {
    if (this.quitting) return;
    this.quitting = true;
    if (!this.thread) return this.finish(0);
    // The main thread again: what it did meanwhile, and its id for the resume hint.
    if (this.agentView.watching !== null) this.agentView.switchTo(null, null);
    this.submit({ type: "shutdown" });
    // A session that does not shut down promptly must not keep the user waiting.
    setTimeout(() => this.finish(0), 3000).unref();
  }

  private finish(code: number): void {
    const done = this.done;
    if (!done) return;
    this.done = null;
    this.app.renderNow();
    this.renderer.close();
    this.notifier.stop();
    this.term.restore();
    if (this.startError) process.stderr.write(`${this.startError}\n`);
    const u = this.app.usage;
    if (u.total_tokens > 0) process.stdout.write(`${usageLine(u)}\n`);
    // A session file appears with the first turn: without one there is nothing to resume.
    const id = this.app.sessionId;
    // A remote session's file is on the server: it exists once a turn ran.
    const recorded = this.app.rolloutPath !== null && (this.flags.remote !== undefined ? u.total_tokens > 0 : existsSync(this.app.rolloutPath));
    if (id && recorded) process.stdout.write(`To continue this session, run ${this.resumeCommand(id)}\n`);
    const flushed = this.source ? this.source.shutdown() : Promise.resolve([]);
    void flushed.then(() => done(this.startError ? 1 : code));
  }
}

/** The matcher for the `@` list, loaded in the background; the list waits for it (and offers nothing if it cannot load). */
function deniedFilterFor(config: Config): Promise<(path: string) => boolean> {
  return import("../host/standalone.js").then(({ deniedPathFilter }) => deniedPathFilter(config));
}
