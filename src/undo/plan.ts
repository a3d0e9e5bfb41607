/**
 * What an undo (or a redo, or a rollback of several turns) writes, worked out before anything
 * is written. Undoing turns newest first, each path must be as the newest turn left it (or the
 * user changed it by hand since: a conflict), and ends as the oldest turn found it. A path the
 * user already put back by hand needs nothing. A redo is the same with before and after swapped,
 * oldest turn first.
 */
import { join } from "node:path";
import { sameState, type AreaChanges, type FileState } from "./types.js";

export type Direction = "undo" | "redo";

/** A turn's changes and the store that keeps their contents. */
export interface TurnChanges {
  storeId: string;
  areas: readonly AreaChanges[];
}

/** One path of a plan. */
export interface PlannedPath {
  /** Absolute. */
  absolute: string;
  /** Where the target's contents are kept: the area, its store, and the path there. */
  area: AreaChanges;
  storeId: string;
  path: string;
  /** What must be on disk now for the write to go ahead unasked. */
  expected: FileState | null;
  /** What ends up there. */
  target: FileState | null;
  /**
   * The user changed it between two of the turns (an undo of several turns would lose that
   * edit), whatever is on disk now.
   */
  editedBetween: boolean;
}

/**
 * `turns`: the changes of each turn, in the order they happened. The plan of an undo walks them
 * newest first; a redo oldest first.
 */
export function planRestore(turns: readonly TurnChanges[], direction: Direction): PlannedPath[] {
  const order = direction === "undo" ? [...turns].reverse() : [...turns];
  const plan = new Map<string, PlannedPath>();
  for (const { storeId, areas } of order) {
    for (const area of areas) {
      for (const change of area.changes) {
        const from = direction === "undo" ? change.after : change.before;
        const to = direction === "undo" ? change.before : change.after;
        const absolute = join(area.root, change.path);
        const known = plan.get(absolute);
        if (known === undefined) {
          plan.set(absolute, { absolute, area, storeId, path: change.path, expected: from, target: to, editedBetween: false });
          continue;
        }
        // Reached by a later step already: that step's end must be this one's start.
        if (!sameState(known.target, from)) known.editedBetween = true;
        known.target = to;
        known.area = area;
        known.storeId = storeId;
        known.path = change.path;
      }
    }
  }
  return [...plan.values()];
}

/** Paths the user changed by hand (now, or between the turns), unless now already as the plan would leave them. */
export function conflictsOf(plan: readonly PlannedPath[], current: ReadonlyMap<string, FileState | null>): PlannedPath[] {
  return plan.filter((step) => {
    const now = current.get(step.absolute) ?? null;
    if (sameState(now, step.target)) return false;
    return step.editedBetween || !sameState(now, step.expected);
  });
}

/** The steps that write something (paths already as the plan leaves them need nothing). */
export function writesOf(plan: readonly PlannedPath[], current: ReadonlyMap<string, FileState | null>): PlannedPath[] {
  return plan.filter((step) => !sameState(current.get(step.absolute) ?? null, step.target));
}
