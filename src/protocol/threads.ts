/** Recorded threads as front ends see them: which one to open, and one line of a listing. */

/** `resume` / `fork` (exec and the UI): which recorded thread to continue. */
export interface ThreadTarget {
  kind: "resume" | "fork";
  /** A thread id, or a thread's name (session_index.jsonl). */
  sessionId?: string;
  /** The most recently active thread (recorded in the working directory unless `all`). */
  last: boolean;
  all: boolean;
  /**
   * `--last` and names only find threads a person drove (the interactive UI's default, as in the
   * reference; `--include-non-interactive` turns it off). exec's own resume finds every thread.
   */
  interactiveOnly?: boolean;
}

/** A recorded thread, as a listing shows it (read from its file's head). */
export interface ThreadSummary {
  id: string;
  path: string;
  /** session_meta's timestamp (UTC), else null. */
  createdAt: string | null;
  /** The file's modification time, ISO 8601 UTC. */
  updatedAt: string;
  cwd: string | null;
  /** The first thing the user asked, or null if the head holds none. */
  firstPrompt: string | null;
  modelProvider: string | null;
  forkedFromId: string | null;
  source: string | null;
  /** Set for a sub-agent's thread: the thread that spawned it. */
  parentThreadId: string | null;
  /** session_meta's session_id: the tree's root thread, which a sub-agent shares with it (null in files that name none). */
  sessionId: string | null;
  /** The git branch session_meta recorded, else null. */
  gitBranch: string | null;
  /** session_meta's originator and cli_version (who wrote the thread), else null. */
  originator: string | null;
  cliVersion: string | null;
  /** The model of the first turn the head records, else null. */
  model: string | null;
  /** The name given with /rename (session_index.jsonl), else null; filled in by listings. */
  name: string | null;
}
