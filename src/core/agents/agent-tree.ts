/**
 * What every thread of one tree shares (a user's thread and all the sub-agents under it): the
 * limits (`[agents] max_threads`, `max_depth`), the roles, the count of open sub-agents, the
 * nicknames in use, and the way to open a child's thread, which the thread manager provides
 * (it owns rollouts, telemetry and the live-thread registry).
 */
import type { AgentRole, AgentsSettings } from "../../config/agent-roles.js";
import type { ThreadLineage } from "../../protocol/collab.js";
import type { RecordedThread } from "../../rollout/reconstruct.js";
import type { Session } from "../session.js";
import type { SessionOptions } from "../session-options.js";
import { NicknamePool } from "./nicknames.js";

/** How a tree's threads are opened (implemented by the thread manager). */
export interface ChildThreadOpener {
  /** A new child: its own rollout (session_meta names its parent) unless the tree records nothing. */
  open(options: SessionOptions, lineage: ThreadLineage): Promise<Session>;
  /** A child recorded earlier, continued from its rollout file; null when that file is gone. */
  reopen(threadId: string, options: (recorded: RecordedThread) => SessionOptions): Promise<Session | null>;
  /** A child recorded earlier, read from its rollout file without opening it; null when that file is gone or unreadable. */
  recorded(threadId: string): RecordedThread | null;
  /** A child's thread ended: it is no longer a live thread of the process. */
  closed(threadId: string): void;
}

export class AgentTree {
  readonly nicknames = new NicknamePool();
  private open = 0;

  constructor(
    readonly settings: AgentsSettings,
    readonly opener: ChildThreadOpener,
    /** The user's thread the tree grows from; its id is every thread's `session_id`. */
    readonly rootThreadId: string,
  ) {}

  /** Takes a place for one more open sub-agent; false when `max_threads` are open already. */
  reserve(): boolean {
    if (this.open >= this.settings.maxThreads) return false;
    this.open += 1;
    return true;
  }

  /** Counts a sub-agent restored as open, even past the limit (it was open when recorded). */
  restoreOpen(): void {
    this.open += 1;
  }

  release(): void {
    this.open = Math.max(0, this.open - 1);
  }

  get openCount(): number {
    return this.open;
  }

  role(name: string): AgentRole | undefined {
    return this.settings.roles.find((role) => role.name === name);
  }

  /** Whether a thread at `depth` (0: the user's) may start sub-agents. */
  mayDelegate(depth: number): boolean {
    return depth < this.settings.maxDepth;
  }
}
