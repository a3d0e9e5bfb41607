/**
 * The undo history of a thread: the turns that changed files, in order, each applied or undone,
 * and the last undo that a redo may reverse (forgotten as soon as a turn changes files again).
 *
 * It is written into the session file so a resumed thread keeps it: each turn as a
 * `ghost_snapshot` response item in the reference's shape (`ghost_commit`, which the reference
 * reads, or since 0.169 skips) with codex-ts's `undo` object beside it (what the turn changed,
 * path by path, and where the contents are kept); each undo, redo or rollback of files as its
 * `undo_completed` event, naming the turns it applied.
 */
import type { EventMsg } from "../protocol/events.js";
import type { GhostCommit, TurnRecord } from "./snapshotter.js";
import { decodeState, encodeState, isValidOid, type AreaChanges, type ContentSource, type PathChange } from "./types.js";

export interface UndoEntry extends TurnRecord {
  undone: boolean;
}

export class UndoJournal {
  private readonly entries: UndoEntry[] = [];
  /** The turns the last undo took back (newest first), while a redo may still put them back. */
  private redoable: string[] | null = null;

  add(record: TurnRecord): void {
    this.entries.push({ ...record, undone: false });
    this.redoable = null;
  }

  /** The newest turn whose changes are still in place. */
  lastApplied(): UndoEntry | null {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i];
      if (entry && !entry.undone) return entry;
    }
    return null;
  }

  /** Turns from `turnId` on (turn ids grow with time) whose changes are still in place, oldest first. */
  appliedSince(turnId: string | null): UndoEntry[] {
    return this.entries.filter((e) => !e.undone && (turnId === null || e.turnId >= turnId));
  }

  /** What a redo would put back, oldest first. */
  redoTarget(): UndoEntry[] {
    if (this.redoable === null) return [];
    const ids = new Set(this.redoable);
    return this.entries.filter((e) => ids.has(e.turnId) && e.undone);
  }

  markUndone(turnIds: readonly string[]): void {
    const ids = new Set(turnIds);
    for (const entry of this.entries) if (ids.has(entry.turnId)) entry.undone = true;
    this.redoable = [...turnIds];
  }

  markRedone(turnIds: readonly string[]): void {
    const ids = new Set(turnIds);
    for (const entry of this.entries) if (ids.has(entry.turnId)) entry.undone = false;
    this.redoable = null;
  }

  /** Replays what a session file recorded: a ghost snapshot line's payload, or an undo_completed event. */
  replay(item: { kind: "snapshot"; payload: unknown } | { kind: "completed"; event: unknown }): void {
    if (item.kind === "snapshot") {
      const record = decodeRecord(item.payload);
      if (record !== null) this.add(record);
      return;
    }
    const event = item.event as Partial<Extract<EventMsg, { type: "undo_completed" }>> | null;
    if (!event || event.success !== true || !Array.isArray(event.snapshots)) return;
    const ids = event.snapshots.filter((id): id is string => typeof id === "string");
    if (event.action === "redo") this.markRedone(ids);
    else if (event.action === "undo" || event.action === "rollback") this.markUndone(ids);
  }
}

/** The `ghost_snapshot` response item a turn is recorded as. */
export function encodeRecord(record: TurnRecord): { type: "ghost_snapshot" } & Record<string, unknown> {
  return {
    type: "ghost_snapshot",
    ghost_commit: record.ghostCommit,
    undo: {
      turn_id: record.turnId,
      store: record.storeId,
      areas: record.areas.map((area) => ({
        root: area.root,
        source: area.source,
        ...(area.repoObjects !== undefined ? { repo_objects: area.repoObjects } : {}),
        changes: area.changes.map((c) => [c.path, encodeState(c.before), encodeState(c.after)]),
      })),
    },
  };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);

/**
 * A recorded turn, or null for what undo cannot use: the reference's own ghost snapshots (no
 * `undo` object: they name a commit to check out whole, which codex-ts never does) and anything
 * damaged.
 */
export function decodeRecord(payload: unknown): TurnRecord | null {
  if (!isObject(payload) || !isObject(payload.ghost_commit) || !isObject(payload.undo)) return null;
  const commit = payload.ghost_commit;
  const undo = payload.undo;
  if (typeof commit.id !== "string" || typeof undo.turn_id !== "string" || typeof undo.store !== "string" || !Array.isArray(undo.areas)) return null;
  const areas: AreaChanges[] = [];
  for (const raw of undo.areas as unknown[]) {
    const area = decodeArea(raw);
    if (area === null) return null;
    areas.push(area);
  }
  const ghostCommit: GhostCommit = {
    id: commit.id,
    parent: isValidOid(commit.parent) ? commit.parent : null,
    preexisting_untracked_files: strings(commit.preexisting_untracked_files),
    preexisting_untracked_dirs: strings(commit.preexisting_untracked_dirs),
  };
  return { turnId: undo.turn_id, storeId: undo.store, ghostCommit, areas };
}

function decodeArea(raw: unknown): AreaChanges | null {
  if (!isObject(raw) || typeof raw.root !== "string" || (raw.source !== "git" && raw.source !== "blobs") || !Array.isArray(raw.changes)) return null;
  const changes: PathChange[] = [];
  for (const c of raw.changes as unknown[]) {
    if (!Array.isArray(c) || typeof c[0] !== "string") return null;
    const before = decodeState(c[1]);
    const after = decodeState(c[2]);
    if (before === undefined || after === undefined) return null;
    changes.push({ path: c[0], before, after });
  }
  return {
    root: raw.root,
    source: raw.source as ContentSource,
    ...(typeof raw.repo_objects === "string" ? { repoObjects: raw.repo_objects } : {}),
    changes,
  };
}
