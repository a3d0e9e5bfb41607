/**
 * Writes a plan to disk all or nothing, in place. Files are rewritten through their existing
 * inode (so permissions, ownership, hard links and symlinks stay as they are, and no file is
 * created per write), new files are created, deleted ones unlinked. Every step taken is recorded
 * with what was there before, which the plan already holds in memory; if any step fails, the
 * recorded steps are undone newest first: rewritten files get their old bytes back, created ones
 * are removed, deleted ones (and the sources of moves) come back with their old mode.
 *
 * The system calls are synchronous: for the small files patches mostly touch, a round trip
 * through the thread pool costs more than the call, and a patch's writes are over in
 * milliseconds.
 */
import {
  chmodSync,
  closeSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  writevSync,
} from "node:fs";
import { dirname } from "node:path";
import { PatchIoError } from "./io-error.js";
import { FileContent } from "./file-content.js";
import type { ChangeContents, PatchPlan, PlannedChange } from "./types.js";

/** Buffers per vectored write: the usual IOV_MAX. */
const MAX_WRITEV_BUFFERS = 1024;

/** What the patch does to one path, and what was there before (null: nothing). */
export interface PathOutcome {
  path: string;
  before: FileContent | null;
  after: FileContent | null;
}

/** A step that changed the disk, with what undoing it needs. */
export type Step =
  | { kind: "wrote"; path: string; before: FileContent | null }
  | { kind: "deleted"; path: string; before: FileContent | null; mode: number; linkTarget: string | null }
  | { kind: "created-dir"; path: string };

export function commitPlan(plan: PatchPlan): Promise<void> {
  const outcomes = finalOutcomes(plan);
  const steps: Step[] = [];
  try {
    // Writes first, then deletions, so a move's destination exists before its source goes.
    for (const outcome of outcomes) {
      if (outcome.after !== null) writeOutcome(outcome, outcome.after, steps);
    }
    for (const outcome of outcomes) {
      if (outcome.after === null) deleteOutcome(outcome, steps);
    }
  } catch (err) {
    undo(steps);
    return Promise.reject(err as Error);
  }
  return Promise.resolve();
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
export function finalOutcomes(plan: PatchPlan): PathOutcome[] {
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

export function writeOutcome(outcome: PathOutcome, content: FileContent, steps: Step[]): void {
  const { path, before } = outcome;
  if (before === null) {
    try {
      const created = mkdirSync(dirname(path), { recursive: true });
      if (created !== undefined) steps.push({ kind: "created-dir", path: created });
    } catch (err) {
      throw new PatchIoError(`Failed to create parent directories for ${path}`, err);
    }
  }
  let fd: number;
  try {
    // An existing file is overwritten from its start and cut to length only when it shrinks: no
    // new inode, and no truncation that frees (and on some disks discards) all of its blocks.
    fd = openSync(path, before === null ? "w" : "r+");
  } catch (err) {
    throw new PatchIoError(`Failed to write file ${path}`, err);
  }
  // From here on the file may be partly written: record it first so a failure restores it.
  steps.push({ kind: "wrote", path, before });
  try {
    const length = writeAll(fd, content.parts);
    if (before !== null && length < before.byteLength) ftruncateSync(fd, length);
  } catch (err) {
    throw new PatchIoError(`Failed to write file ${path}`, err);
  } finally {
    closeSync(fd);
  }
}

/** Writes the pieces from the file's start, in as few calls as the system allows; returns the length. */
function writeAll(fd: number, parts: readonly Buffer[]): number {
  let position = 0;
  for (let i = 0; i < parts.length; i += MAX_WRITEV_BUFFERS) {
    const batch = parts.slice(i, i + MAX_WRITEV_BUFFERS);
    const size = batch.reduce((sum, part) => sum + part.length, 0);
    let written = writevSync(fd, batch, position);
    // A short write (a signal, a full pipe) continues with what is left of the batch.
    while (written < size) written += writeSync(fd, Buffer.concat(batch).subarray(written), 0, size - written, position + written);
    position += size;
  }
  return position;
}

export function deleteOutcome(outcome: PathOutcome, steps: Step[]): void {
  const { path, before } = outcome;
  try {
    const info = lstatSync(path);
    if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    const linkTarget = info.isSymbolicLink() ? readlinkSync(path) : null;
    unlinkSync(path);
    steps.push({ kind: "deleted", path, before, mode: info.mode & 0o7777, linkTarget });
  } catch (err) {
    throw new PatchIoError(`Failed to delete file ${path}`, err);
  }
}

/** Undoes recorded steps, newest first, from the contents the plan holds. */
export function undo(steps: readonly Step[]): void {
  for (const step of [...steps].reverse()) {
    try {
      undoStep(step);
    } catch {
      // Best effort: the original error is what the caller needs to see.
    }
  }
}

function undoStep(step: Step): void {
  switch (step.kind) {
    case "wrote":
      if (step.before !== null) writeFileSync(step.path, step.before.bytes);
      else unlinkSync(createdFile(step.path));
      return;
    case "deleted":
      if (step.linkTarget !== null) {
        symlinkSync(step.linkTarget, step.path);
      } else {
        writeFileSync(step.path, step.before?.bytes ?? "", { mode: step.mode });
        // The process umask may have narrowed the mode the file was created with.
        chmodSync(step.path, step.mode);
      }
      return;
    case "created-dir":
      rmSync(step.path, { recursive: true, force: true });
      return;
  }
}

/** The file a write to `path` created: the path itself, or what a dangling symlink there led to. */
function createdFile(path: string): string {
  return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
}
