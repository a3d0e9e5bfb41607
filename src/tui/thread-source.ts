/**
 * Where the UI's threads come from, and everything else it asks of the machine the agent works
 * on: this machine's engine through the host (LocalThreads), or an app-server elsewhere
 * (RemoteThreads, `--remote ws://HOST:PORT`), whose threads are ThreadHandles over the
 * app-server protocol. The UI draws and drives both the same way; only what happens on this side
 * of the terminal (keys, the editor, notifications, the UI's own settings) stays local.
 */
import type { Config } from "../config/load-config.js";
import type { FrontEndHost, SubAgentView } from "../host/front-end-host.js";
import { HostedThread } from "../host/hosted-thread.js";
import type { ThreadSummary, ThreadTarget } from "../protocol/threads.js";
import type { ReasoningEffort } from "../protocol/policy.js";
import type { RemoteClient, RemoteThread } from "../app-server-client/remote-client.js";
import type { GitRunner } from "./parts/git-diff.js";
import { RemoteFileSearch } from "./remote-file-search.js";
import type { SearchableIndex } from "./parts/file-search-popup.js";
import { errorMessage } from "../util/errors.js";

/** A thread could not start; the message is for the user as it is. */
export class StartFailure extends Error {}

export interface ThreadSource {
  /** A new thread, or the recorded one `target` names (resumed or forked). */
  open(target: ThreadTarget | null): Promise<HostedThread>;
  /** Resolves once the thread can run (its required MCP servers are up); throws a StartFailure otherwise. */
  ready(thread: HostedThread): Promise<void>;
  /** Ends this handle on the thread (the thread itself, unless another handle still shows it). */
  close(thread: HostedThread): Promise<void>;
  /** Ends every thread; returns what went wrong on the way. */
  shutdown(): Promise<string[]>;
  /** Recorded threads for the picker, newest first (this folder's unless `all`; those a person drove when `interactiveOnly`). */
  recorded(all: boolean, interactiveOnly: boolean): Promise<Iterator<ThreadSummary, void, undefined>>;
  /** `/rename`: the name given, or why it cannot be one. */
  rename(threadId: string, name: string): Promise<{ name: string } | string>;
  /** `/model` on a remote session: saved as the server's default; resolves with the file written. */
  saveModel(model: string, effort: ReasoningEffort | null): Promise<string>;
  /** Where the threads run, for `/status`. */
  describe(): string;
  /** `/diff`'s lines for the thread's working folder. */
  gitDiff(cwd: string): Promise<string[]>;
  /** The files `@` searches, when they are not this machine's (null: the local index). */
  fileIndex(cwd: string): SearchableIndex | null;
  /** The sub-agents a live thread started, to list and watch (`/agent`); empty where they cannot be watched. */
  subAgents(threadId: string): SubAgentView[];
  /** Whether the session files are on this machine (the exit line says how to resume). */
  readonly local: boolean;
}

export class LocalThreads implements ThreadSource {
  readonly local = true;

  constructor(
    private readonly host: FrontEndHost,
    private readonly config: () => Config,
    private readonly startError: new (...args: never[]) => Error,
  ) {}

  async open(target: ThreadTarget | null): Promise<HostedThread> {
    try {
      return await this.host.open({ config: this.config(), target });
    } catch (err) {
      throw err instanceof this.startError ? new StartFailure(err.message) : err;
    }
  }

  async ready(thread: HostedThread): Promise<void> {
    try {
      await this.host.ready(thread);
    } catch (err) {
      throw err instanceof this.startError ? new StartFailure(err.message) : err;
    }
  }

  close(thread: HostedThread): Promise<void> {
    return this.host.close(thread.threadId);
  }

  shutdown(): Promise<string[]> {
    return this.host.shutdown();
  }

  async recorded(all: boolean, interactiveOnly: boolean): Promise<Iterator<ThreadSummary, void, undefined>> {
    const { threadReader } = await import("../host/recorded-threads.js");
    const { codexHome, cwd } = this.config();
    return threadReader({ codexHome, cwd: all ? undefined : cwd, interactiveOnly });
  }

  async rename(threadId: string, name: string): Promise<{ name: string } | string> {
    const { nameThread } = await import("../host/recorded-threads.js");
    return nameThread(this.config().codexHome, threadId, name);
  }

  async saveModel(model: string, effort: ReasoningEffort | null): Promise<string> {
    const config = this.config();
    const { saveModelChoice } = await import("./model-choice.js");
    return saveModelChoice(config.codexHome, config.profile, model, effort);
  }

  describe(): string {
    const c = this.config();
    return `${c.provider.name} (${c.modelProviderId})`;
  }

  async gitDiff(cwd: string): Promise<string[]> {
    const { diffReport } = await import("./parts/git-diff.js");
    return diffReport(cwd);
  }

  fileIndex(): null {
    return null;
  }

  subAgents(threadId: string): SubAgentView[] {
    return this.host.subAgents(threadId);
  }
}

/** What the UI's flags ask of a remote thread (the server's config decides the rest). */
export interface RemoteSettings {
  cwd?: string;
  model?: string;
  approvalPolicy?: string;
  sandbox?: string;
}

/** How many recorded threads the remote picker offers. */
const PICKER_PAGE = 200;

export class RemoteThreads implements ThreadSource {
  readonly local = false;
  private readonly handles = new Map<HostedThread, RemoteThread>();
  private readonly searches = new Map<string, RemoteFileSearch>();
  /** The folder on the server the user named (`--cd`); the server's own otherwise. */
  private readonly cwd: string | undefined;

  constructor(
    private readonly client: RemoteClient,
    private readonly url: string,
    private readonly settings: RemoteSettings,
  ) {
    this.cwd = settings.cwd;
  }

  async open(target: ThreadTarget | null): Promise<HostedThread> {
    const params = Object.fromEntries(Object.entries(this.settings).filter(([, v]) => v !== undefined));
    let thread: RemoteThread;
    try {
      if (target === null) thread = await this.client.startThread(params);
      else {
        const id = target.sessionId ?? (await this.latest(target.all));
        if (id === null) throw new StartFailure("No recorded session on the app-server to continue.");
        thread = target.kind === "resume" ? await this.client.resumeThread(id, params) : await this.client.forkThread(id, params);
      }
    } catch (err) {
      throw err instanceof StartFailure ? err : new StartFailure(errorMessage(err));
    }
    const hosted = new HostedThread(thread);
    this.handles.set(hosted, thread);
    return hosted;
  }

  async ready(): Promise<void> {
    // The server waits for the thread's required MCP servers before it answers.
  }

  async close(hosted: HostedThread): Promise<void> {
    const thread = this.handles.get(hosted);
    this.handles.delete(hosted);
    if (!thread) return;
    // The same thread opened again (resumed onto itself): only this handle ends.
    if ([...this.handles.values()].some((t) => t.threadId === thread.threadId)) thread.detach();
    else thread.submit({ type: "shutdown" });
  }

  async shutdown(): Promise<string[]> {
    this.client.close();
    return [];
  }

  async recorded(all: boolean, interactiveOnly: boolean): Promise<Iterator<ThreadSummary, void, undefined>> {
    const kinds = interactiveOnly ? {} : { sourceKinds: ["cli", "vscode", "appServer", "exec", "unknown"] };
    const listing = await this.client.listThreads({ limit: PICKER_PAGE, sortKey: "updated_at", ...kinds, ...(all || this.cwd === undefined ? {} : { cwd: this.cwd }) });
    const summaries = listing.data.map(
      (t): ThreadSummary => ({
        id: t.id,
        path: t.path ?? "",
        createdAt: new Date(t.createdAt * 1000).toISOString(),
        updatedAt: new Date(t.updatedAt * 1000).toISOString(),
        cwd: t.cwd,
        firstPrompt: t.preview || null,
        modelProvider: t.modelProvider,
        forkedFromId: t.forkedFromId,
        parentThreadId: t.parentThreadId,
        sessionId: t.sessionId,
        source: typeof t.source === "string" ? t.source : null,
        gitBranch: t.gitInfo?.branch ?? null,
        originator: t.originator,
        cliVersion: t.cliVersion,
        model: t.model,
        name: t.name,
      }),
    );
    return summaries[Symbol.iterator]();
  }

  async rename(threadId: string, name: string): Promise<{ name: string } | string> {
    try {
      await this.client.call("thread/name/set", { threadId, name });
      return { name: name.trim() };
    } catch (err) {
      return errorMessage(err);
    }
  }

  async saveModel(model: string, effort: ReasoningEffort | null): Promise<string> {
    const edits = [{ keyPath: "model", value: model, mergeStrategy: "replace" }, { keyPath: "model_reasoning_effort", value: effort, mergeStrategy: "replace" }];
    const written = await this.client.call<{ filePath: string }>("config/batchWrite", { edits });
    return `${written.filePath} on ${this.url}`;
  }

  describe(): string {
    return `the app-server at ${this.url}`;
  }

  /** The diff of the server's folder, with git run there (under the server's sandbox). */
  async gitDiff(cwd: string): Promise<string[]> {
    const { diffReport } = await import("./parts/git-diff.js");
    const run: GitRunner = async (dir, args) => {
      const result = await this.client.commandExec(["git", "-c", "core.quotepath=off", ...args], dir);
      return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr, missing: result.exitCode === 127 };
    };
    return diffReport(cwd, run);
  }

  /** The server's files, searched there (`fuzzyFileSearch`), one search per folder. */
  fileIndex(cwd: string): SearchableIndex {
    let index = this.searches.get(cwd);
    if (!index) {
      index = new RemoteFileSearch(cwd, (params) => this.client.call("fuzzyFileSearch", params));
      this.searches.set(cwd, index);
    }
    return index;
  }

  /** Sub-agents run on the server; `/agent` cannot watch them from here (their activity still shows in the parent's cells). */
  subAgents(): SubAgentView[] {
    return [];
  }

  private async latest(all: boolean): Promise<string | null> {
    const listing = await this.client.listThreads({ limit: 1, sortKey: "updated_at", ...(all || this.cwd === undefined ? {} : { cwd: this.cwd }) });
    return listing.data[0]?.id ?? null;
  }
}
