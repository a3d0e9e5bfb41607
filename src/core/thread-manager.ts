/**
 * Threads as a core service: every front end (exec, the MCP server, the TUI) starts, resumes,
 * forks, finds and closes threads here instead of assembling sessions itself. The manager owns
 * what they would otherwise each repeat: the API-key check (one wording), the client identity
 * sent to the provider, the rollout recorder (new file, appended file or fork) and the wait for
 * `required` MCP servers.
 */
import type { Config } from "../config/load-config.js";
import { CODEX_API_KEY_ENV_VAR, providerNeedsKey, type ResolvedAuth } from "../auth/resolve-auth.js";
import type { ChatGptCredentials } from "../auth/chatgpt-credentials.js";
import { openModelAccess, resolveRunAuth, type ModelAccess } from "./model-access.js";
import type { ModelProvider } from "../model/provider.js";
import type { ClientIdentity } from "../model/responses-client.js";
import type { ModelClient } from "../model/prompt.js";
import { modelInfoFor } from "../model/catalog.js";
import { packageVersion } from "../util/version.js";
import { baseInstructions } from "./prompts.js";
import { Session } from "./session.js";
import { sessionOptionsFromConfig } from "./session-from-config.js";
import { openThread, ThreadNotFoundError, type OpenedThread, type ThreadTarget } from "./open-thread.js";
import type { RecordedThread } from "../rollout/reconstruct.js";
import { historyMetadataAsync } from "../history/prompt-history.js";
import type { SessionOptions } from "./session-options.js";
import type { McpSignInHandler } from "../mcp/sign-in.js";
import { noTelemetry, TelemetryRecorder } from "../telemetry/recorder.js";
import type { OtelHandle } from "../telemetry/otel.js";
import { uuidv7 } from "../util/ids.js";
import { ExecPolicy } from "../approval/exec-policy/policy.js";
import { RolloutRecorder } from "../rollout/recorder.js";
import { findThreadPath } from "../rollout/list.js";
import { loadThread } from "../rollout/reconstruct.js";
import { AgentTree, type ChildThreadOpener } from "./agents/agent-tree.js";
import type { EditorFiles } from "../protocol/editor-files.js";
import { errorMessage } from "../util/errors.js";

export interface ThreadManagerOptions {
  env: NodeJS.ProcessEnv;
  /** The front end, as session_meta's `source` names it: `exec`, `mcp`, `cli`. */
  source: string;
  /** Sent as `originator` unless CODEX_INTERNAL_ORIGINATOR_OVERRIDE says otherwise. */
  originator: string;
  /** The product in the User-Agent header (`codex_exec`, `codex_cli_rs`). */
  userAgentProduct: string;
  /** Whether CODEX_API_KEY is read (the reference reads it in exec only). */
  readCodexApiKey: boolean;
  /** How the user trusts hooks from this front end (ends the warning that some wait for review). */
  hookTrustAdvice?: string;
  /** How an MCP server's OAuth sign-in (or step-up) reaches the user; without it, such a server fails with the `mcp login` hint. */
  mcpSignIn?: McpSignInHandler;
  /** Threads go on with an active goal in turns of their own (the interactive UI; see goal-continuation.ts). */
  goalContinuation?: boolean;
  /**
   * Told of every sub-agent's thread as it opens (or reopens), before it is given any input, so
   * a front end can follow it from its first event as a thread of its own (the app-server).
   */
  onSubAgentThread?: (session: Session) => void;
}

export interface StartThreadRequest {
  config: Config;
  /** Continue or fork a recorded thread instead of starting a new one. */
  target?: ThreadTarget | null;
  /** Record nothing (`--ephemeral`). */
  ephemeral?: boolean;
  /**
   * false: the front end draws no conversation (exec), so a resumed or forked thread's
   * `initial_messages` are not built and its file's events are skipped unread.
   */
  redraw?: boolean;
  /** Replace the configured instructions for this thread (the MCP server's tool arguments). */
  developerInstructions?: string;
  baseInstructions?: string;
  /** The editor's files, when the front end runs inside an editor that offers them (ACP). */
  editorFiles?: EditorFiles;
}

export interface StartedThread {
  threadId: string;
  session: Session;
  /** Things to tell the user before the run (a fork's new id, "nothing to resume"). */
  notices: string[];
}

export type ThreadStartFailure = "no_api_key" | "auth" | "thread_not_found" | "rollout" | "mcp_required" | "rules";

/** A thread could not start; `message` is meant for the user as it is. */
export class ThreadStartError extends Error {
  constructor(
    readonly kind: ThreadStartFailure,
    message: string,
  ) {
    super(message);
    this.name = "ThreadStartError";
  }
}

export class ThreadManager {
  private readonly threads = new Map<string, Session>();
  /** Sub-agents' threads, live while open (their parents open and close them). */
  private readonly subAgentThreads = new Map<string, Session>();
  /** The OpenTelemetry exporter, started with the first thread whose config names one. */
  private otel: Promise<OtelHandle | null> | null = null;

  /** Warnings no live thread could show (see `shutdown`). */
  private readonly lateWarnings: string[] = [];
  /** Why telemetry could not start, told to the next thread once. */
  private startupWarning: string | null = null;
  /** The ChatGPT login the threads of this process use, once one has started with it. */
  private chatgpt: ChatGptCredentials | null = null;
  /** Credentials already resolved for a config (by `checkCredentials`), so a start resolves them once. */
  private readonly resolved = new WeakMap<Config, ResolvedAuth>();

  constructor(private readonly options: ThreadManagerOptions) {}

  /** A new thread, or a resumed / forked one when `target` names it. */
  async startThread(req: StartThreadRequest): Promise<StartedThread> {
    const { client, config, warning, accountModels } = await this.access(req.config);
    const execPolicy = loadRules(config);
    const opened = this.open(() =>
      openThread({
        target: req.target ?? null,
        ephemeral: req.ephemeral === true,
        redraw: req.redraw !== false,
        codexHome: config.codexHome,
        cwd: config.cwd,
        modelProvider: config.modelProviderId,
        originator: this.originator(),
        cliVersion: packageVersion(),
        source: this.options.source,
        baseInstructions: req.baseInstructions ?? config.baseInstructionsOverride ?? baseInstructions(modelInfoFor(config.model)),
      }),
    );
    const threadId = opened.threadId ?? opened.resume?.thread.threadId ?? uuidv7();
    const session = new Session({
      ...(await this.sessionOptions(config, client)),
      accountModels,
      developerInstructions: req.developerInstructions ?? config.developerInstructions,
      baseInstructionsOverride: req.baseInstructions ?? config.baseInstructionsOverride,
      threadId,
      recorder: opened.recorder,
      resume: opened.resume,
      telemetry: await this.telemetryFor(config, threadId),
      execPolicy,
      ...this.agentTree(config, threadId, opened.recorder !== null),
      ...(req.editorFiles ? { editorFiles: req.editorFiles } : {}),
    });
    return this.adopt(session, config, opened.notices, warning);
  }

  /** Continues a recorded thread (see `loadThread`), appending to its file. */
  async resumeRecordedThread(requested: Config, recorded: RecordedThread): Promise<StartedThread> {
    const { client, config, warning, accountModels } = await this.access(requested);
    const execPolicy = loadRules(config);
    const opened = this.open(() => ({
      recorder: RolloutRecorder.append(recorded.path),
      resume: { thread: recorded, warnOnModelChange: true },
      notices: [],
    }));
    const session = new Session({
      ...(await this.sessionOptions(config, client)),
      accountModels,
      recorder: opened.recorder,
      resume: opened.resume,
      telemetry: await this.telemetryFor(config, recorded.threadId),
      execPolicy,
      ...this.agentTree(config, recorded.threadId, true),
    });
    return this.adopt(session, config, [], warning);
  }

  /**
   * Resolves once every `required` MCP server of the thread is ready. When one is not, the
   * thread is shut down (its servers ended) and this rejects with the reference's
   * "required MCP servers failed to initialize: …" message: the run should not start.
   */
  async waitUntilReady(thread: StartedThread): Promise<void> {
    try {
      await thread.session.mcpReady();
    } catch (err) {
      await this.closeThread(thread.threadId);
      throw new ThreadStartError("mcp_required", errorMessage(err));
    }
  }

  /** A live thread of this process, by id (a sub-agent's too, while it is open). */
  getThread(threadId: string): Session | undefined {
    return this.threads.get(threadId) ?? this.subAgentThreads.get(threadId);
  }

  /** Shuts a thread down and waits until it has (its commands and MCP servers ended). */
  async closeThread(threadId: string): Promise<void> {
    const session = this.threads.get(threadId);
    if (!session) return;
    this.threads.delete(threadId);
    const events = session.subscribe();
    session.submit({ type: "shutdown" });
    while ((await events.next()) !== null) {
      // Drained until shutdown_complete.
    }
  }

  /** Shuts every live thread down. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.threads.keys()].map((id) => this.closeThread(id)));
  }

  /**
   * Shuts every thread down and flushes what the telemetry exporter still holds (waiting at
   * most a couple of seconds for a slow collector). Front ends call it before exiting and show
   * the warnings it returns: what went wrong after every thread had ended.
   */
  async shutdown(): Promise<string[]> {
    await this.closeAll();
    await (await this.otel)?.shutdown();
    return this.lateWarnings.splice(0);
  }

  /**
   * The sub-agent tree a user's thread grows (unless `features.multi_agent` is off): its
   * children get threads of their own here, recorded (unless the parent records nothing) with
   * their lineage in session_meta, and reopened from their files when resumed.
   */
  private agentTree(config: Config, rootThreadId: string, record: boolean): { agentTree?: AgentTree } {
    if (config.features.multi_agent === false) return {};
    const childSession = async (options: SessionOptions, recorder: RolloutRecorder | null): Promise<Session> => {
      const threadId = options.threadId ?? uuidv7();
      const session = new Session({ ...options, threadId, recorder, telemetry: await this.telemetryFor(config, threadId) });
      this.subAgentThreads.set(threadId, session);
      this.options.onSubAgentThread?.(session);
      return session;
    };
    const opener: ChildThreadOpener = {
      open: (options, lineage) => {
        const threadId = options.threadId ?? uuidv7();
        const recorder = record
          ? RolloutRecorder.create({
              codexHome: config.codexHome,
              threadId,
              cwd: options.settings.cwd,
              originator: this.originator(),
              cliVersion: packageVersion(),
              source: this.options.source,
              modelProvider: options.settings.modelProviderId,
              baseInstructions: options.baseInstructionsOverride ?? baseInstructions(modelInfoFor(options.settings.model)),
              lineage,
            })
          : null;
        return childSession({ ...options, threadId }, recorder);
      },
      reopen: async (threadId, build) => {
        const path = findThreadPath(config.codexHome, threadId);
        if (path === null) return null;
        return childSession(build(loadThread(path)), record ? RolloutRecorder.append(path) : null);
      },
      recorded: (threadId) => {
        const path = findThreadPath(config.codexHome, threadId);
        try {
          return path === null ? null : loadThread(path);
        } catch {
          return null;
        }
      },
      closed: (threadId) => {
        this.subAgentThreads.delete(threadId);
      },
    };
    return { agentTree: new AgentTree(config.agents, opener, rootThreadId) };
  }

  /** The options config gives a session, with the prompt-history count read without blocking. */
  private async sessionOptions(config: Config, client: ModelClient): Promise<SessionOptions> {
    const options = sessionOptionsFromConfig(config, client, this.options.hookTrustAdvice);
    if (this.options.mcpSignIn) options.mcpSignIn = this.options.mcpSignIn;
    if (this.options.goalContinuation) options.goalContinuation = true;
    const history = options.promptHistory;
    if (history) options.promptHistory = { ...history, metadata: await historyMetadataAsync(history.codexHome) };
    return options;
  }

  private adopt(session: Session, config: Config, notices: string[], modelWarning: string | null): StartedThread {
    this.threads.set(session.threadId, session);
    if (modelWarning !== null) session.reportWarning(modelWarning);
    if (this.startupWarning !== null) session.reportWarning(this.startupWarning);
    this.startupWarning = null;
    reportConversationStart(session, config);
    return { threadId: session.threadId, session, notices };
  }

  /** The thread's telemetry recorder: one exporter per process, one identity per thread. */
  private async telemetryFor(config: Config, threadId: string): Promise<TelemetryRecorder> {
    const exporter = config.otel.exporter;
    if (exporter.kind === "none") return noTelemetry();
    this.otel ??= import("../telemetry/otel.js")
      .then(({ startOtel }) =>
        startOtel(config.otel, exporter, {
          version: packageVersion(),
          onWarning: (message) => {
            let told = false;
            for (const session of this.threads.values()) told = session.reportWarning(message) || told;
            if (!told) this.lateWarnings.push(message);
          },
        }),
      )
      .catch((err: unknown) => {
        this.startupWarning = `OpenTelemetry export is off: ${errorMessage(err)}`;
        return null;
      });
    const handle = await this.otel;
    if (!handle) return noTelemetry();
    return new TelemetryRecorder(
      handle.sink,
      {
        conversationId: threadId,
        appVersion: packageVersion(),
        terminalType: terminalType(this.options.env),
        // The common fields a ChatGPT login adds (never a token).
        ...(this.chatgpt ? { authMode: "chatgpt", ...(this.chatgpt.accountId ? { accountId: this.chatgpt.accountId } : {}) } : {}),
      },
      config.otel.logUserPrompt,
    );
  }

  /**
   * The credentials the config's provider will use: an API key, a ChatGPT login, or none for
   * providers that need none. Throws a start error when they are missing or auth.json is
   * unusable; front ends call it first to fail before doing anything else.
   */
  checkCredentials(config: Config): ResolvedAuth {
    const auth = resolveRunAuth(config, this.options.env, this.options.readCodexApiKey);
    if (auth.mode === "error") throw new ThreadStartError("auth", auth.message);
    if (auth.mode === "none" && providerNeedsKey(config.provider)) {
      throw new ThreadStartError("no_api_key", missingKeyMessage(config.provider, this.options.readCodexApiKey));
    }
    this.resolved.set(config, auth);
    return auth;
  }

  /** The thread's model access (model-access.ts), with credentials resolved once per config. */
  private access(config: Config): Promise<ModelAccess> {
    const auth = this.resolved.get(config) ?? this.checkCredentials(config);
    return openModelAccess({ config, auth, identity: this.identity(), env: this.options.env, chatgpt: this.chatgpt }, (login) => {
      // One refreshing login per CODEX_HOME, shared by every thread of the process.
      this.chatgpt = login;
    });
  }

  private identity(): Omit<ClientIdentity, "apiKey"> {
    const version = packageVersion();
    return {
      originator: this.originator(),
      userAgent: `${this.options.userAgentProduct}/${version} (${process.platform}; ${process.arch}) node/${process.versions.node}`,
      env: this.options.env,
    };
  }

  private originator(): string {
    return this.options.env.CODEX_INTERNAL_ORIGINATOR_OVERRIDE ?? this.options.originator;
  }

  /** Opens the thread's rollout, turning its failures into start errors. */
  private open(opener: () => OpenedThread): OpenedThread {
    try {
      return opener();
    } catch (err) {
      if (err instanceof ThreadNotFoundError) throw new ThreadStartError("thread_not_found", err.message);
      throw new ThreadStartError("rollout", `Could not open the session: ${errorMessage(err)}`);
    }
  }
}

/** The command rules of `$CODEX_HOME/rules` and trusted projects; a broken file stops the start. */
function loadRules(config: Config): { policy: ExecPolicy; codexHome: string } {
  try {
    // features.exec_policy = false turns the rules off altogether.
    const policy = config.features.exec_policy === false ? ExecPolicy.empty() : ExecPolicy.loadFolders(config.rulesFolders);
    return { policy, codexHome: config.codexHome };
  } catch (err) {
    throw new ThreadStartError("rules", `failed to load rules: ${errorMessage(err)}`);
  }
}

/** `codex.conversation_starts`: what the thread runs with. */
function reportConversationStart(session: Session, config: Config): void {
  const s = session.currentSettings;
  session.telemetry.withModel(s.model).conversationStarts({
    providerName: config.provider.name,
    reasoningEffort: s.reasoningEffort,
    reasoningSummary: s.reasoningSummary,
    contextWindow: config.modelContextWindow ?? modelInfoFor(s.model).contextWindow,
    autoCompactTokenLimit: config.modelAutoCompactTokenLimit,
    approvalPolicy: s.approvalPolicy,
    sandboxPolicy: s.sandboxPolicy.type,
    mcpServers: Object.entries(config.mcpServers)
      .filter(([, server]) => server.enabled)
      .map(([name]) => name),
    activeProfile: config.profile,
  });
}

/** The terminal, as the reference's `terminal.type` names it (the program and its version when known). */
function terminalType(env: NodeJS.ProcessEnv): string {
  const program = env.TERM_PROGRAM;
  if (program) return env.TERM_PROGRAM_VERSION ? `${program}/${env.TERM_PROGRAM_VERSION}` : program;
  return env.TERM ?? "unknown";
}

export function missingKeyMessage(provider: ModelProvider, readCodexApiKey: boolean): string {
  const vars = readCodexApiKey ? `${CODEX_API_KEY_ENV_VAR} or ${provider.envKey}` : `${provider.envKey}`;
  const login = provider.id === "openai" ? "sign in with `codex-ts login`, or run `codex-ts login --with-api-key`" : "or run `codex-ts login --with-api-key`";
  return `No API key found for provider '${provider.id}'. Set ${vars}, ${login}.`;
}
