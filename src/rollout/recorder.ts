/**
 * Writes a session's rollout file as the session runs. Every record call appends its lines with
 * one synchronous write on a descriptor opened for appending, so once a call returns its lines
 * are in the kernel's hands: a process killed with SIGKILL a moment later leaves them on disk.
 * (There is no fsync: surviving a power cut is not the goal, surviving the process is.)
 *
 * A new thread's file is created lazily, as the reference does: lines recorded before the first
 * user turn wait in memory, and `persist()` (called when that turn starts) creates the file with
 * session_meta first. A thread that never gets a turn leaves nothing behind. A resumed thread
 * appends to its existing file and never writes session_meta again.
 */
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { EventMsg } from "../protocol/events.js";
import type { ResponseItem } from "../protocol/items.js";
import { rolloutPath, serializeLine, utcTimestamp, type SessionMetaPayload, type TurnContextPayload } from "./format.js";
import { gitInfo } from "./git-info.js";
import { ItemJournal } from "./item-journal.js";
import { MULTI_AGENT_VERSION, type SubAgentSource, type ThreadLineage } from "../protocol/collab.js";
import { PRIVATE_DIR_MODE } from "../util/atomic-write.js";
import { errorMessage } from "../util/errors.js";

export interface NewRolloutParams {
  codexHome: string;
  threadId: string;
  cwd: string;
  originator: string;
  cliVersion: string;
  source: string;
  modelProvider: string;
  baseInstructions: string;
  /** Set for a sub-agent: its place in the tree, recorded in session_meta. */
  lineage?: ThreadLineage;
}

export class RolloutRecorder {
  private fd: number | null = null;
  /** The file was created (or opened to append to), so it can be read back, even after close. */
  private created = false;
  private pending: string[] = [];
  private failed = false;
  /** Write failures not yet told to anyone (nobody listens before the session starts). */
  private unreported: string[] = [];
  private onError: ((message: string) => void) | null = null;
  /** Which event lines each event becomes (the persistence policy, and the commands and file changes shown). */
  private readonly journal = new ItemJournal();

  private constructor(
    readonly path: string,
    private readonly meta: (() => SessionMetaPayload) | null,
  ) {}

  /**
   * Where write failures are told (recording then stops; the session goes on). The session
   * turns them into warning events: the recorder never writes to the terminal itself.
   */
  reportErrorsTo(listener: (message: string) => void): void {
    this.onError = listener;
    for (const message of this.unreported.splice(0)) listener(message);
  }

  /** A recorder for a new thread; its file appears at the first `persist()`. */
  static create(params: NewRolloutParams): RolloutRecorder {
    const started = new Date();
    // The repository's .git files may be hostile (refused ones are reported like write failures).
    const warn = (message: string): void => recorder.report(message);
    const meta = (): SessionMetaPayload => {
      const lineage = params.lineage;
      const payload: SessionMetaPayload = lineage
        ? {
            session_id: lineage.rootThreadId,
            id: params.threadId,
            parent_thread_id: lineage.parentThreadId,
            timestamp: utcTimestamp(started),
            cwd: params.cwd,
            originator: params.originator,
            cli_version: params.cliVersion,
            source: subAgentSource(lineage),
            thread_source: "subagent",
            agent_nickname: lineage.nickname,
            ...(lineage.role !== null ? { agent_role: lineage.role } : {}),
            model_provider: params.modelProvider,
            base_instructions: { text: params.baseInstructions },
            multi_agent_version: MULTI_AGENT_VERSION,
          }
        : {
            // A user's thread is the root of its own tree of sub-agents.
            session_id: params.threadId,
            id: params.threadId,
            timestamp: utcTimestamp(started),
            cwd: params.cwd,
            originator: params.originator,
            cli_version: params.cliVersion,
            source: params.source,
            thread_source: "user",
            model_provider: params.modelProvider,
            base_instructions: { text: params.baseInstructions },
          };
      const git = gitInfo(params.cwd, warn);
      if (git) payload.git = git;
      return payload;
    };
    const recorder = new RolloutRecorder(rolloutPath(params.codexHome, params.threadId, started), meta);
    return recorder;
  }

  /**
   * A recorder appending to an existing file. A torn last line (a write cut short) is cut off
   * first, so the next line starts on a line of its own and the file stays valid JSON Lines.
   * The file is opened at once: a resumed thread's lines go straight to disk.
   */
  static append(path: string): RolloutRecorder {
    const recorder = new RolloutRecorder(path, null);
    const fd = openSync(path, "r+");
    try {
      endWithNewline(fd);
    } finally {
      closeSync(fd);
    }
    recorder.fd = openSync(path, "a");
    recorder.created = true;
    return recorder;
  }

  get persisted(): boolean {
    return this.fd !== null;
  }

  /** Whether the file exists to be read back (open now, or written and closed). */
  get onDisk(): boolean {
    return this.created;
  }

  /** Creates the file (session_meta, then whatever was recorded so far). Idempotent. */
  persist(): void {
    if (this.fd !== null || this.failed) return;
    let lines: string[];
    try {
      // Building the meta line reads .git; a failure there must not abort the user's turn.
      lines = this.meta ? [serializeLine("session_meta", this.meta()), ...this.pending] : this.pending;
      mkdirSync(dirname(this.path), { recursive: true, mode: PRIVATE_DIR_MODE });
      this.fd = openSync(this.path, "a", 0o600);
      this.created = true;
    } catch (err) {
      return this.fail(err);
    }
    this.pending = [];
    this.write(lines.join(""));
  }

  recordItems(items: readonly ResponseItem[]): void {
    if (items.length > 0) this.add(items.map((item) => serializeLine("response_item", item)).join(""));
  }

  /** Records the event lines `msg` becomes: none for most events (see item-journal.ts). */
  recordEvent(msg: EventMsg): void {
    let lines = "";
    for (const payload of this.journal.recordable(msg)) lines += serializeLine("event_msg", payload);
    if (lines !== "") this.add(lines);
  }

  /**
   * A compaction: `message` is the summary; `replacementHistory`, when given, is the whole new
   * history (what a resume replays instead of rebuilding it from the summary), as the reference
   * writes its `compacted` lines.
   */
  recordCompaction(message: string, replacementHistory?: readonly ResponseItem[]): void {
    this.add(serializeLine("compacted", replacementHistory ? { message, replacement_history: replacementHistory } : { message }));
  }

  /**
   * A turn's undo record: a `ghost_snapshot` response item (not history: the model never sees
   * it), which the reference's readers skip and codex-ts replays into its undo history.
   */
  recordGhostSnapshot(payload: { type: "ghost_snapshot" } & Record<string, unknown>): void {
    this.add(serializeLine("response_item", payload));
  }

  recordTurnContext(context: TurnContextPayload): void {
    this.add(serializeLine("turn_context", context));
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    this.failed = true; // nothing more may be written after close
  }

  private add(lines: string): void {
    if (this.failed) return;
    if (this.fd === null) this.pending.push(lines);
    else this.write(lines);
  }

  private write(text: string): void {
    if (this.fd === null || text === "") return;
    try {
      const bytes = Buffer.from(text, "utf8");
      for (let off = 0; off < bytes.length; ) off += writeSync(this.fd, bytes, off);
    } catch (err) {
      this.fail(err);
    }
  }

  private report(message: string): void {
    if (this.onError) this.onError(message);
    else this.unreported.push(message);
  }

  private fail(err: unknown): void {
    this.failed = true;
    this.report(`could not write the session file ${this.path}: ${errorMessage(err)}; this session will not be resumable from here on`);
  }
}


/**
 * Makes the file end with a newline. A last line that is complete JSON just lacked its newline
 * and gets one; anything else is a write cut short, useless to every reader, and is cut off.
 */
function endWithNewline(fd: number): void {
  const size = fstatSync(fd).size;
  let lineStart = 0;
  const chunk = Buffer.allocUnsafe(Math.min(size, 64 * 1024));
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - start, start);
    if (end === size && chunk[n - 1] === 10) return;
    const nl = chunk.subarray(0, n).lastIndexOf(10);
    if (nl !== -1) {
      lineStart = start + nl + 1;
      break;
    }
    end = start;
  }
  if (lineStart === size) return;
  const tail = Buffer.allocUnsafe(size - lineStart);
  readSync(fd, tail, 0, tail.length, lineStart);
  let complete = true;
  try {
    JSON.parse(tail.toString("utf8"));
  } catch {
    complete = false;
  }
  if (complete) writeSync(fd, "\n", size);
  else ftruncateSync(fd, lineStart);
}

/** session_meta's `source` for a sub-agent: who spawned it, how deep, its nickname and role. */
function subAgentSource(lineage: ThreadLineage): SubAgentSource {
  return {
    subagent: {
      thread_spawn: {
        parent_thread_id: lineage.parentThreadId,
        depth: lineage.depth,
        agent_path: null,
        agent_nickname: lineage.nickname,
        agent_role: lineage.role,
      },
    },
  };
}
