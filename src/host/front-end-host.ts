/**
 * The one host every front end opens threads through: its identity preset, the credential
 * check, new / resumed / forked threads (and a recorded thread resumed by id), the wait for
 * `required` MCP servers, closing, and the shutdown that flushes telemetry. Threads come back as
 * HostedThreads (hosted-thread.ts): the handle, the event pump, turns and their end.
 */
import { statSync } from "node:fs";
import { codexHome } from "../config/codex-home.js";
import { loadConfig, type Config } from "../config/load-config.js";
import { ThreadManager, ThreadStartError, type StartThreadRequest, type StartedThread, type ThreadManagerOptions } from "../core/thread-manager.js";
import type { Session, SubAgentView } from "../core/session.js";
import { isThreadId } from "../rollout/format.js";
import { findThreadPath } from "../rollout/list.js";
import { loadThread } from "../rollout/reconstruct.js";
import type { ThreadLineage } from "../protocol/collab.js";
import { HostedThread } from "./hosted-thread.js";
import { IDENTITIES, type FrontEndIdentity, type FrontEndName } from "./identity.js";
import { followSubAgentThread } from "./sub-agent-thread.js";

export { ThreadStartError as HostStartError };
export type { ThreadTarget } from "../protocol/threads.js";

export type OpenRequest = StartThreadRequest;
export type { SubAgentView };

/** What a front end can do beyond its identity preset (see the constructor). */
export interface HostAbilities extends Pick<ThreadManagerOptions, "mcpSignIn" | "goalContinuation"> {
  /** Told of each sub-agent's thread as it opens, to serve it as a thread of its own from its first event. */
  subAgentThreads?: (thread: HostedThread, lineage: ThreadLineage) => void;
}

export class FrontEndHost {
  private readonly manager: ThreadManager;
  private readonly threads = new Map<string, { hosted: HostedThread; started: StartedThread }>();
  /** Recorded threads being brought back, so two requests for one share one thread. */
  private readonly resuming = new Map<string, Promise<HostedThread | null>>();

  constructor(
    identity: FrontEndName | FrontEndIdentity,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** What the front end can do beyond the preset: answer MCP sign-ins, let goals go on in turns of their own, follow sub-agents' threads. */
    abilities: HostAbilities = {},
  ) {
    const { subAgentThreads, ...managerAbilities } = abilities;
    const onSubAgentThread = subAgentThreads
      ? (session: Session): void => {
          const lineage = session.lineage;
          if (lineage) subAgentThreads(new HostedThread(followSubAgentThread(session)), lineage);
        }
      : undefined;
    this.manager = new ThreadManager({ env, ...(typeof identity === "string" ? IDENTITIES[identity] : identity), ...managerAbilities, ...(onSubAgentThread ? { onSubAgentThread } : {}) });
  }

  /**
   * Fails early (a HostStartError meant for the user) when the config's provider has no usable
   * credentials; what it resolved is reused by the next `open` with the same config.
   */
  checkCredentials(config: Config): void {
    this.manager.checkCredentials(config);
  }

  /** A new thread, or a resumed / forked one when `target` names it. */
  async open(req: OpenRequest): Promise<HostedThread> {
    return this.adopt(await this.manager.startThread(req));
  }

  /**
   * Resolves once every `required` MCP server of the thread is ready; otherwise the thread is
   * shut down and this throws a HostStartError naming the servers (the run should not start).
   */
  async ready(thread: HostedThread): Promise<void> {
    const entry = this.threads.get(thread.threadId);
    if (!entry) throw new ThreadStartError("thread_not_found", `thread ${thread.threadId} is not running`);
    try {
      await this.manager.waitUntilReady(entry.started);
    } catch (err) {
      this.threads.delete(thread.threadId);
      throw err;
    }
  }

  /** A live thread of this host, by id. */
  thread(threadId: string): HostedThread | undefined {
    return this.threads.get(threadId)?.hosted;
  }

  /**
   * The sub-agents a live thread (or a live sub-agent) started, with their status and, while
   * open, their thread to read and drive; empty for a thread that is not live.
   */
  subAgents(threadId: string): SubAgentView[] {
    return this.manager.getThread(threadId)?.subAgents() ?? [];
  }

  /**
   * A thread by id: the live one, else the recorded one resumed from its file (in the folder it
   * last ran in when that still exists, else `cwd`, with the `-c` `overrides` the front end was
   * started with), ready to run; null when none is recorded.
   */
  resume(threadId: string, cwd: string, overrides: string[] = []): Promise<HostedThread | null> {
    const live = this.threads.get(threadId)?.hosted;
    if (live) return Promise.resolve(live);
    let pending = this.resuming.get(threadId);
    if (!pending) {
      pending = this.resumeRecorded(threadId, cwd, overrides).finally(() => this.resuming.delete(threadId));
      this.resuming.set(threadId, pending);
    }
    return pending;
  }

  /** Shuts a thread down and waits until it has (its commands and MCP servers ended). */
  async close(threadId: string): Promise<void> {
    const thread = this.threads.get(threadId)?.hosted;
    this.threads.delete(threadId);
    await Promise.all([thread?.shutdown(), this.manager.closeThread(threadId)]);
  }

  /**
   * Shuts every thread down and flushes what the telemetry exporter still holds. Front ends call
   * it before exiting and show the warnings it returns (what went wrong after every thread ended).
   */
  async shutdown(): Promise<string[]> {
    const threads = [...this.threads.values()];
    this.threads.clear();
    await Promise.all(threads.map(({ hosted }) => hosted.shutdown()));
    return this.manager.shutdown();
  }

  private async resumeRecorded(threadId: string, cwd: string, overrides: string[]): Promise<HostedThread | null> {
    if (!isThreadId(threadId)) return null;
    const path = findThreadPath(codexHome(this.env), threadId);
    if (path === null) return null;
    const recorded = loadThread(path);
    const lastCwd = recorded.lastTurn?.cwd;
    const config = loadConfig({ cwd: lastCwd !== undefined && isDirectory(lastCwd) ? lastCwd : cwd, overrides, env: this.env });
    const thread = this.adopt(await this.manager.resumeRecordedThread(config, recorded));
    await this.ready(thread);
    return thread;
  }

  private adopt(started: StartedThread): HostedThread {
    const hosted = new HostedThread(started.session, started.notices);
    this.threads.set(hosted.threadId, { hosted, started });
    return hosted;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
