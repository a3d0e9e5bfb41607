/**
 * Undo for a session: snapshots around each turn that may change files (undo/snapshotter.ts),
 * the thread's undo history (undo/journal.ts, recorded in the session file and replayed on
 * resume), and the three ways back: `undo` (the last turn that changed files), `redo` (the
 * last undo), and a rollback of files to before an earlier user message (Esc Esc, the
 * app-server's `thread/rollback`). Each reports with `undo_started` / `undo_completed`.
 *
 * Restores write as the agent's sandbox allows, never more: inside the writable folders (the
 * whole disk under danger-full-access, nothing under read-only), never in `.git` or `.codex`,
 * never on a path the permission profile denies, never through a link (undo/safe-write.ts).
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import type { EventMsg, UndoAction } from "../protocol/events.js";
import type { AskForApproval, SandboxPolicy } from "../protocol/policy.js";
import type { CollaborationMode } from "../protocol/ops.js";
import type { RolloutRecorder } from "../rollout/recorder.js";
import type { RecordedUndo } from "../rollout/reconstruct.js";
import { rolloutFiles } from "../rollout/list.js";
import { ARCHIVED_SUBDIR } from "../rollout/archive.js";
import { parseRolloutFileName } from "../rollout/format.js";
import { patchWriteScope } from "../sandbox/patch-scope.js";
import { scopeRefusal } from "../util/write-scope.js";
import type { WriteRefusal } from "../undo/safe-write.js";
import type { FileSystemGuard } from "../sandbox/fs-guard.js";
import type { TurnContext, TurnFileHistory } from "../tools/turn-context.js";
import { UndoJournal, encodeRecord, type UndoEntry } from "../undo/journal.js";
import type { RestoreOutcome } from "../undo/restore.js";
import { Snapshotter } from "../undo/snapshotter.js";
import { findRepo, type GitRepo } from "../undo/git-area.js";
import { UNDO_SUBDIR, storeLayout, sweepStores, type StoreLayout } from "../undo/storage.js";
import type { Direction } from "../undo/plan.js";
import type { UndoOptions } from "./session-options.js";
import { errorMessage } from "../util/errors.js";

/** What undo needs of its session (session-state.ts provides it). */
export interface FileHistoryHost {
  readonly threadId: string;
  readonly codexHome: string | undefined;
  readonly recorder: RolloutRecorder | null;
  readonly guard: FileSystemGuard;
  /** The settings now: a restore writes where the current sandbox lets the agent write; turns under them may or may not change files. */
  settings(): { cwd: string; sandboxPolicy: SandboxPolicy; approvalPolicy: AskForApproval; collaborationMode?: CollaborationMode };
  /** Folders the user granted to patches for the session. */
  grantedRoots(): readonly string[];
  send(id: string, msg: EventMsg): void;
  warn(message: string): void;
}

/**
 * A turn's part: tool calls wait for its first snapshot; patches save their files first;
 * `finish` takes the second snapshot and records the turn (the turn ends after it, so a file
 * the user edits once the turn has ended is never taken for the turn's change).
 */
export interface TurnFiles extends TurnFileHistory {
  finish(): Promise<void>;
}

/** Stores swept once per process (a walk of the session files). */
let swept = false;

export class FileHistory {
  private readonly journal = new UndoJournal();
  /** The turn id of each message the user sent, oldest first (what a rollback counts back through). */
  private readonly userTurns: Array<string | null> = [];
  /** What a resumed thread recorded, replayed into the journal when undo is first used. */
  private recorded: RecordedUndo | null = null;
  /** The last turn's second snapshot, which every undo and every new snapshot waits for. */
  private settled: Promise<void> = Promise.resolve();
  private snapshotter: Snapshotter | null = null;
  /** Where a thread without a session file keeps its snapshots (removed when it ends); null until needed. */
  private temporaryBase: string | null = null;
  /** The repository holding each folder, looked for once (the session's own before its first turn). */
  private readonly repos = new Map<string, Promise<GitRepo | null>>();

  constructor(
    private readonly host: FileHistoryHost,
    private readonly options: UndoOptions | undefined,
  ) {}

  /** No session file to keep the history in: snapshots go to a temporary folder. */
  private get temporary(): boolean {
    return this.host.recorder === null || this.host.codexHome === undefined;
  }

  /** The store of thread `storeId`: this thread's own, or (after a fork) the parent's under $CODEX_HOME. */
  private storeFor(storeId: string): StoreLayout {
    if (storeId === this.host.threadId && this.temporary) return storeLayout(this.temporaryBase ?? tmpdir(), storeId);
    return storeLayout(join(this.host.codexHome ?? tmpdir(), UNDO_SUBDIR), storeId);
  }

  /** A resumed thread's recorded snapshots and undos. */
  restore(recorded: RecordedUndo): void {
    this.recorded = recorded;
    this.userTurns.push(...recorded.userTurns);
  }

  /** A message the user sent, in turn `turnId` (a new turn, or steering into a running one). */
  noteUserMessage(turnId: string): void {
    this.userTurns.push(turnId);
  }

  /** The conversation lost its last `n` user messages. */
  dropUserMessages(n: number): void {
    this.userTurns.splice(Math.max(0, this.userTurns.length - n));
  }

  /**
   * Looks for the repository holding the session's folder now, so that the first turn's snapshot
   * does not wait for it (tools wait for that snapshot); not when turns under the session's
   * settings take no snapshot (nor when undo is off). Resolves once it has looked.
   */
  async prewarm(): Promise<void> {
    const settings = this.host.settings();
    if (this.options === undefined || !mayChangeFiles({ ...settings, planning: settings.collaborationMode === "plan" })) return;
    await this.repoOf(settings.cwd);
  }

  private repoOf(cwd: string): Promise<GitRepo | null> {
    let repo = this.repos.get(cwd);
    if (repo === undefined) {
      repo = findRepo(cwd);
      this.repos.set(cwd, repo);
    }
    return repo;
  }

  /** Starts a turn's snapshots; null when undo is off or the turn cannot change files. */
  beginTurn(turn: TurnContext): TurnFiles | null {
    if (this.options === undefined || !mayChangeFiles(turn)) return null;
    const snapshotter = this.snapshotterFor(this.options);
    // A turn's first snapshot waits for the previous turn's record.
    const capture = this.settled.then(() => snapshotter.beginTurn(turn.turnId, turn.cwd));
    let toolsRan = false;
    return {
      toolsStarting: async () => {
        toolsRan = true;
        const c = await capture;
        c.toolsStarting();
        await c.ready;
      },
      toolsFinished: () => void capture.then((c) => c.toolsFinished()),
      beforeWrite: async (paths) => {
        toolsRan = true;
        await (await capture).beforeWrite(paths);
      },
      finish: async () => {
        // A turn that never called a tool changed nothing: no second snapshot.
        const pending = toolsRan ? await capture.then((c) => c.finish()).catch((err: unknown) => this.failed(err)) : null;
        // The ghost commit and the record follow after the turn has ended; undo waits for them.
        this.settled = this.settled
          .then(async () => {
            if (!pending) return;
            const record = await pending.complete();
            this.replayRecorded();
            this.journal.add(record);
            this.host.recorder?.recordGhostSnapshot(encodeRecord(record));
          })
          .catch((err: unknown) => void this.failed(err))
          .finally(() => this.sweepOnce());
      },
    };
  }

  private failed(err: unknown): null {
    this.host.warn(`Undo could not record this turn's changes: ${errorMessage(err)}`);
    return null;
  }

  private snapshotterFor(options: UndoOptions): Snapshotter {
    if (this.snapshotter === null) {
      if (this.temporary) this.temporaryBase = mkdtempSync(join(tmpdir(), "codex-ts-undo-"));
      this.snapshotter = new Snapshotter(this.storeFor(this.host.threadId), {
        limits: options.limits,
        quietLeftOut: options.quiet,
        mayRead: (path) => !this.host.guard.deniedByName(path),
        warn: (message) => this.host.warn(message),
        findRepo: (cwd) => this.repoOf(cwd),
      });
    }
    return this.snapshotter;
  }

  /** `undo`: the newest turn whose changes are still in place. */
  async undo(id: string, overwrite: readonly string[]): Promise<void> {
    await this.run(id, "undo", "Undoing the last turn's changes to files…", () => {
      const entry = this.journal.lastApplied();
      return entry ? [entry] : [];
    }, "undo", overwrite, "Nothing to undo: no turn of this session has changed files that are not undone already.");
  }

  /** `redo`: puts back what the last undo took back. */
  async redo(id: string, overwrite: readonly string[]): Promise<void> {
    await this.run(id, "redo", "Putting back the changes the last undo took back…", () => this.journal.redoTarget(), "redo", overwrite, "Nothing to redo: no undo since the last turn that changed files.");
  }

  /**
   * Files back to how they were before the user's message `numTurns` back: every turn since
   * that changed files is undone. True when the files are as wanted (or nothing needed doing).
   */
  async rollback(id: string, numTurns: number, overwrite: readonly string[]): Promise<boolean> {
    const count = this.userTurns.length;
    const from = count === 0 ? null : (this.userTurns.slice(Math.max(0, count - numTurns)).find((t) => t !== null) ?? null);
    return this.run(id, "rollback", "Restoring files to how they were before that message…", () => (count === 0 ? this.journal.appliedSince(null) : from === null ? [] : this.journal.appliedSince(from)), "undo", overwrite, "No files to restore: those turns changed none (or their changes were undone).", true);
  }

  private async run(
    id: string,
    action: UndoAction,
    starting: string,
    pick: () => UndoEntry[],
    direction: Direction,
    overwrite: readonly string[],
    nothing: string,
    nothingIsSuccess = false,
  ): Promise<boolean> {
    this.host.send(id, { type: "undo_started", message: starting });
    // The reference's fields first (success, message), codex-ts's after them.
    const done = ({ success, message, ...rest }: Omit<Extract<EventMsg, { type: "undo_completed" }>, "type" | "action">): boolean => {
      this.host.send(id, { type: "undo_completed", success, message, action, ...rest });
      return success;
    };
    if (this.options === undefined) return done({ success: false, message: "Undo is off: [ghost_snapshot] enabled = false in config.toml." });
    await this.settled;
    this.replayRecorded();
    const entries = pick();
    if (entries.length === 0) return done({ success: nothingIsSuccess, message: nothing, restored: [] });
    const settings = this.host.settings();
    const cwd = realOr(settings.cwd);
    const show = (path: string): string => displayPath(cwd, path);
    let outcome: RestoreOutcome;
    try {
      // The restore path loads with the first undo, redo or rollback: most runs never take it.
      const { restoreFiles } = await import("../undo/restore.js");
      outcome = await restoreFiles({
        turns: entries,
        direction,
        overwrite: new Set(overwrite.map((p) => (isAbsolute(p) ? p : join(cwd, p)))),
        storeFor: (storeId) => this.storeFor(storeId),
        refusal: this.refusalFor(settings),
        mayRead: (path) => !this.host.guard.deniedByName(path),
      });
    } catch (err) {
      return done({ success: false, message: `Nothing was restored: ${errorMessage(err)}` });
    }
    if (outcome.conflicts.length > 0) {
      const conflicts = outcome.conflicts.map(show);
      return done({
        success: false,
        message: `Nothing was restored: ${conflicts.length === 1 ? "this file was" : "these files were"} changed since (by hand, or by a later turn): ${conflicts.join(", ")}. Confirm to overwrite ${conflicts.length === 1 ? "it" : "them"}.`,
        conflicts,
        restored: [],
      });
    }
    if (outcome.refused.length > 0) {
      // Grouped by reason: a read-only session refuses every path for the same one.
      const byReason = new Map<string, string[]>();
      for (const r of outcome.refused) byReason.set(r.reason, [...(byReason.get(r.reason) ?? []), show(r.path)]);
      const list = [...byReason].map(([reason, paths]) => `${paths.join(", ")} (${reason})`).join("; ");
      return done({ success: false, message: `Nothing was restored: the session may not write ${list}.`, restored: [] });
    }
    const restored = outcome.restored.map(show);
    const ids = entries.map((e) => e.turnId);
    if (outcome.failed.length > 0) {
      const list = outcome.failed.map((f) => `${show(f.path)}: ${f.reason}`).join("; ");
      const written = outcome.restored.filter((p) => !outcome.failed.some((f) => f.path === p)).map(show);
      return done({ success: false, message: `Restored ${written.length} of ${restored.length} files; these could not be: ${list}.`, restored: written });
    }
    if (direction === "undo") this.journal.markUndone(ids);
    else this.journal.markRedone(ids);
    const verb = action === "redo" ? "Put back" : "Restored";
    return done({ success: true, message: `${verb} ${restored.length === 1 ? "1 file" : `${restored.length} files`}.`, restored, snapshots: ids });
  }

  /**
   * Why a restore may not write at a real path, by the agent's own rules: what the permission
   * profile denies, and where patches may not write (sandbox/patch-scope.ts).
   */
  private refusalFor(settings: { cwd: string; sandboxPolicy: SandboxPolicy }): WriteRefusal {
    const policy = settings.sandboxPolicy;
    const scope = patchWriteScope(policy, settings.cwd, this.host.grantedRoots());
    return (path) => {
      if (this.host.guard.deniedReason(path) !== null) return "the permission profile denies it";
      if (policy.type === "read-only") return "the session is read-only, and undo writes only where the agent may";
      return scope === null ? null : scopeRefusal(scope, path);
    };
  }

  /** Replays the resumed thread's recorded undo history, once, when it is first needed. */
  private replayRecorded(): void {
    const recorded = this.recorded;
    if (recorded === null) return;
    this.recorded = null;
    for (const item of recorded.log) {
      if (item.kind === "snapshot") {
        let payload: unknown;
        try {
          payload = JSON.parse(item.raw);
        } catch {
          continue;
        }
        this.journal.replay({ kind: "snapshot", payload: (payload as { payload?: unknown }).payload });
      } else this.journal.replay({ kind: "completed", event: item.event });
    }
  }

  /** Removes, once per process, what undo kept for threads whose session files are gone. */
  private sweepOnce(): void {
    const home = this.host.codexHome;
    if (swept || this.temporary || home === undefined) return;
    swept = true;
    const own = this.host.threadId.toLowerCase();
    setImmediate(() => {
      try {
        // The session files are listed only when some other thread has undo data to check.
        let known: Set<string> | null = null;
        sweepStores(home, (id) => {
          if (id.toLowerCase() === own) return true;
          known ??= recordedThreadIds(home);
          return known.has(id.toLowerCase());
        });
      } catch {
        // A sweep that cannot read the session folders removes nothing.
      }
    });
  }

  /** Resolves once the last turn's changes are recorded. */
  flush(): Promise<void> {
    return this.settled;
  }

  /** The end of the session: a temporary store goes with it, and what snapshots kept between turns. */
  async close(): Promise<void> {
    await this.snapshotter?.close();
    if (this.temporaryBase !== null) rmSync(this.temporaryBase, { recursive: true, force: true });
  }
}

/**
 * Whether a turn under these settings may change files, which is when it takes snapshots: not in
 * plan mode, nor when the sandbox is read-only and nothing may ask to leave it.
 */
function mayChangeFiles(settings: { planning?: boolean; sandboxPolicy: SandboxPolicy; approvalPolicy: AskForApproval }): boolean {
  return settings.planning !== true && !(settings.sandboxPolicy.type === "read-only" && settings.approvalPolicy === "never");
}

/** The ids of every recorded thread, active or archived. */
function recordedThreadIds(home: string): Set<string> {
  const ids = new Set(rolloutFiles(home).map((f) => f.threadId.toLowerCase()));
  for (const name of safeReaddir(join(home, ARCHIVED_SUBDIR))) {
    const parsed = parseRolloutFileName(name);
    if (parsed) ids.add(parsed.threadId.toLowerCase());
  }
  return ids;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The path with its links resolved, or as given when it cannot be (gone). */
function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Relative to the session's folder when inside it, else absolute. */
function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel) ? rel : path;
}
