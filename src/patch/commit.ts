/**
 * Writes a plan to disk all or nothing, in place. Files are rewritten through their existing
 * inode (so permissions, ownership, hard links and symlinks stay as they are, and no file is
 * created per write), new files are created, deleted ones unlinked. Every step taken is recorded
 * with what was there before, which the plan already holds in memory; if any step fails, the
 * recorded steps are undone newest first: rewritten files get their old bytes back, created ones
 * are removed, deleted ones (and the sources of moves) come back with their old mode.
 */
import { mkdir, lstat, open, readlink, realpath, rm, symlink, unlink, writeFile, chmod } from "node:fs/promises";
import { dirname } from "node:path";
import { PatchIoError } from "./io-error.js";
import { FileContent } from "./file-content.js";
import type { ChangeContents, PatchPlan, PlannedChange } from "./types.js";

/** Enough writes in flight to keep the thread pool busy on a slow disk, not so many as to thrash. */
const WRITE_CONCURRENCY = 16;

/** What the patch does to one path, and what was there before (null: nothing). */
interface PathOutcome {
  path: string;
  before: FileContent | null;
  after: FileContent | null;
}

/** A step that changed the disk, with what undoing it needs. */
type Step =
  | { kind: "wrote"; path: string; before: FileContent | null }
  | { kind: "deleted"; path: string; before: FileContent | null; mode: number; linkTarget: string | null }
  | { kind: "created-dir"; path: string };

export async function commitPlan(plan: PatchPlan): Promise<void> {
  const outcomes = finalOutcomes(plan);
  const steps: Step[] = [];
  try {
    // Writes first, then deletions, so a move's destination exists before its source goes.
    await forEachConcurrently(
      outcomes.filter((o) => o.after !== null),
      WRITE_CONCURRENCY,
      (outcome) => writeOutcome(outcome, outcome.after as FileContent, steps),
    );
    await forEachConcurrently(
      outcomes.filter((o) => o.after === null),
      WRITE_CONCURRENCY,
      (outcome) => deleteOutcome(outcome, steps),
    );
  } catch (err) {
    await undo(steps);
    throw err;
  }
}

/** "Success. Updated the following files:" then A, M and D lines, paths as the patch spelled them. */
export function summarizePlan(plan: PatchPlan): string {
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  for (const change of plan.changes) {
    if (change.kind === "add") added.push(`A ${change.displayPath}\n`);
    else if (change.kind === "delete") deleted.push(`D ${change.displayPath}\n`);
    else modified.push(`M ${change.moveDisplayPath ?? change.displayPath}\n`);
  }
  return `Success. Updated the following files:\n${added.join("")}${modified.join("")}${deleted.join("")}`;
}

/** Collapses the plan to one outcome per path, in the order the paths were first touched. */
function finalOutcomes(plan: PatchPlan): PathOutcome[] {
  const byPath = new Map<string, PathOutcome>();
  const touch = (path: string, before: FileContent | null, after: FileContent | null): void => {
    const known = byPath.get(path);
    if (known) known.after = after;
    else byPath.set(path, { path, before, after });
  };
  for (const change of plan.changes) {
    const { old, new: next, overwritten } = change.contents ?? contentsOf(change);
    switch (change.kind) {
      case "add":
        touch(change.path, overwritten, next);
        break;
      case "delete":
        touch(change.path, old, null);
        break;
      case "update":
        if (change.movePath === null) {
          touch(change.path, old, next);
        } else {
          touch(change.path, old, null);
          touch(change.movePath, overwritten, next);
        }
        break;
    }
  }
  return [...byPath.values()].filter((o) => o.before !== null || o.after !== null);
}

/** The contents of a change built without them (by hand, in tests and tools). */
function contentsOf(change: PlannedChange): ChangeContents {
  const wrap = (text: string | null): FileContent | null => (text === null ? null : FileContent.fromText(text));
  return { old: wrap(change.oldContent), new: wrap(change.newContent), overwritten: wrap(change.overwrittenContent) };
}

async function writeOutcome(outcome: PathOutcome, content: FileContent, steps: Step[]): Promise<void> {
  const { path, before } = outcome;
  if (before === null) {
    try {
      const created = await mkdir(dirname(path), { recursive: true });
      if (created !== undefined) steps.push({ kind: "created-dir", path: created });
    } catch (err) {
      throw new PatchIoError(`Failed to create parent directories for ${path}`, err);
    }
  }
  const bytes = content.bytes;
  // An existing file is overwritten from its start and cut to length only when it shrinks: no
  // new inode, and no truncation that would free (and, on some disks, discard) all its blocks.
  const handle = await open(path, before === null ? "w" : "r+").catch((err: unknown) => {
    throw new PatchIoError(`Failed to write file ${path}`, err);
  });
  // From here on the file may be partly written: record it first so a failure restores it.
  steps.push({ kind: "wrote", path, before });
  try {
    await handle.write(bytes, 0, bytes.length, 0);
    if (before !== null && bytes.length < before.bytes.length) await handle.truncate(bytes.length);
  } catch (err) {
    throw new PatchIoError(`Failed to write file ${path}`, err);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function deleteOutcome(outcome: PathOutcome, steps: Step[]): Promise<void> {
  const { path, before } = outcome;
  try {
    const info = await lstat(path);
    if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    const linkTarget = info.isSymbolicLink() ? await readlink(path) : null;
    await unlink(path);
    steps.push({ kind: "deleted", path, before, mode: info.mode & 0o7777, linkTarget });
  } catch (err) {
    throw new PatchIoError(`Failed to delete file ${path}`, err);
  }
}

/** Undoes recorded steps, newest first, from the contents the plan holds. */
async function undo(steps: readonly Step[]): Promise<void> {
  for (const step of [...steps].reverse()) {
    try {
      await undoStep(step);
    } catch {
      // Best effort: the original error is what the caller needs to see.
    }
  }
}

async function undoStep(step: Step): Promise<void> {
  switch (step.kind) {
    case "wrote":
      if (step.before !== null) await writeFile(step.path, step.before.bytes);
      else await unlink(await createdFile(step.path));
      return;
    case "deleted":
      if (step.linkTarget !== null) {
        await symlink(step.linkTarget, step.path);
      } else {
        await writeFile(step.path, step.before?.bytes ?? "", { mode: step.mode });
        // The process umask may have narrowed the mode the file was created with.
        await chmod(step.path, step.mode);
      }
      return;
    case "created-dir":
      await rm(step.path, { recursive: true, force: true });
      return;
  }
}

/** The file a write to `path` created: the path itself, or what a dangling symlink there led to. */
async function createdFile(path: string): Promise<string> {
  const isLink = await lstat(path).then((s) => s.isSymbolicLink(), () => false);
  return isLink ? realpath(path) : path;
}

/**
 * Runs `task` over `items` with at most `limit` in flight. On a failure no new task starts, the
 * ones in flight finish (so every step they took is recorded and can be undone), and the first
 * error is thrown.
 */
async function forEachConcurrently<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
