/**
 * Writes a plan to disk all or nothing, in place. Files are rewritten through their existing
 * inode (so permissions, ownership, hard links and symlinks stay as they are, and no file is
 * created per write), new files are created, deleted ones unlinked. Every step taken is recorded
 * with what was there before, which the plan already holds in memory; if any step fails, the
 * recorded steps are undone newest first: rewritten files get their old bytes back, created ones
 * are removed, deleted ones (and the sources of moves) come back with their old mode. A step that
 * cannot be undone is named in the error, so nobody is told "nothing changed" when something did.
 *
 * With a write scope (the agent's patches), every path is resolved by a walk that never lets the
 * kernel follow a link (util/path-walk.ts) and the place it really leads to is checked against
 * the scope just before the file is opened, relative to the directory the walk holds open: a
 * link swapped in after the approval, or one whose target does not exist yet, cannot carry a
 * write out of the scope. The opened file is checked once more (a regular file, still inside).
 *
 * patch/editor-files.ts commits the same way with an editor rewriting the existing files; it
 * shares the steps and their undo from here.
 *
 * The system calls are synchronous: for the small files patches mostly touch, a round trip
 * through the thread pool costs more than the call, and a patch's writes are over in
 * milliseconds.
 */
import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, lstatSync, openSync, readlinkSync, rmdirSync, symlinkSync, unlinkSync, writeSync, writevSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { PathWalker, errnoError, type WalkedDir } from "../util/path-walk.js";
import { folderRefusal, scopeRefusal, type WriteScope } from "../util/write-scope.js";
import { PatchIoError, describeIoError } from "./io-error.js";
import { FileContent } from "./file-content.js";
import type { ChangeContents, PatchPlan, PlannedChange } from "./types.js";
import { errorCode } from "../util/errors.js";

/** Buffers per vectored write: the usual IOV_MAX. */
const MAX_WRITEV_BUFFERS = 1024;
/** Never block on a FIFO, never take a terminal as controlling terminal, never follow a final link. */
const SAFE_OPEN = constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** What the patch does to one path, and what was there before (null: nothing). */
export interface PathOutcome {
  path: string;
  before: FileContent | null;
  after: FileContent | null;
}

/** Where a step happened: the directory the walk holds open and the entry's name in it. */
interface Place {
  path: string;
  dir: WalkedDir;
  name: string;
}

/** A step that changed the disk, with what undoing it needs. */
export type Step =
  | ({ kind: "wrote"; before: FileContent | null } & Place)
  | ({ kind: "deleted"; before: FileContent | null; mode: number; linkTarget: string | null } & Place)
  | ({ kind: "created-dir" } & Place);

/** A commit that failed; `unrestored` names what the undo could not put back (empty: everything was). */
export class PatchCommitError extends Error {
  constructor(
    cause: Error,
    readonly unrestored: readonly string[],
  ) {
    super(unrestored.length === 0 ? cause.message : `${cause.message}\n${unrestoredNote(unrestored)}`);
    this.name = "PatchCommitError";
  }
}

function unrestoredNote(unrestored: readonly string[]): string {
  return `The patch was undone except for ${unrestored.length === 1 ? "this path, which" : "these paths, which"} could not be restored:\n${unrestored.map((line) => `  ${line}`).join("\n")}`;
}

/**
 * Writes the plan. `scope` limits where it may write (null: anywhere, as the standalone
 * `apply_patch` command and danger-full-access do).
 */
export function commitPlan(plan: PatchPlan, scope: WriteScope | null = null): Promise<void> {
  const outcomes = finalOutcomes(plan);
  // Without a scope there is nothing to hold a place against: path strings do, at plain cost.
  const walker = new PathWalker({ descriptors: scope !== null });
  const steps: Step[] = [];
  try {
    // Writes first, then deletions, so a move's destination exists before its source goes.
    for (const outcome of outcomes) {
      if (outcome.after !== null) writeOutcome(walker, scope, outcome, outcome.after, steps);
    }
    for (const outcome of outcomes) {
      if (outcome.after === null) deleteOutcome(walker, scope, outcome, steps);
    }
  } catch (err) {
    const unrestored = undo(walker, steps);
    walker.close();
    return Promise.reject(new PatchCommitError(err as Error, unrestored));
  }
  walker.close();
  return Promise.resolve();
}

/** Every path the plan touches once, and whether the patch removes it (a deletion removes a link, never its target). */
export function planTargets(plan: PatchPlan): Array<{ path: string; followsLinks: boolean }> {
  return finalOutcomes(plan).map((outcome) => ({ path: outcome.path, followsLinks: outcome.after !== null }));
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

export function writeOutcome(walker: PathWalker, scope: WriteScope | null, outcome: PathOutcome, content: FileContent, steps: Step[]): void {
  const { path, before } = outcome;
  const created: Array<{ dir: WalkedDir; name: string }> = [];
  let makingFolders = false;
  let dir: WalkedDir;
  try {
    const allow = (folder: string): void => {
      makingFolders = true;
      const refusal = scope && folderRefusal(scope, folder);
      if (refusal) throw new Error(refusal);
    };
    dir = walker.directory(dirname(path), before === null ? { created, allow } : undefined).dir;
  } catch (err) {
    const inTheWay = errorCode(err) === "EEXIST";
    throw new PatchIoError(makingFolders || inTheWay ? `Failed to create parent directories for ${path}` : `Failed to write file ${path}`, err);
  } finally {
    for (const { dir: parent, name } of created) steps.push({ kind: "created-dir", path, dir: parent, name });
  }

  let opened: Place & { fd: number };
  try {
    opened = openDestination(walker, scope, path, dir, basename(path), before !== null);
  } catch (err) {
    throw new PatchIoError(`Failed to write file ${path}`, err);
  }
  // From here on the file may be partly written: record it first so a failure restores it.
  steps.push({ kind: "wrote", path, dir: opened.dir, name: opened.name, before });
  try {
    // An existing file is overwritten from its start and cut to length only when it shrinks: no
    // new inode, and no truncation that frees (and on some disks discards) all of its blocks.
    const length = writeAll(opened.fd, content.parts);
    if (before !== null && length < before.byteLength) ftruncateSync(opened.fd, length);
  } catch (err) {
    throw new PatchIoError(`Failed to write file ${path}`, err);
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Opens the file a write to `path` lands on, in `dir` (its folder, already walked): a new file
 * only where nothing is (a file that appeared since the plan is not clobbered), an existing one
 * only if it is still there, never through a link the kernel follows. A link in the final
 * position is followed by the walker instead and its target checked like any destination.
 */
function openDestination(walker: PathWalker, scope: WriteScope | null, path: string, dir: WalkedDir, name: string, existed: boolean): Place & { fd: number } {
  const flags = existed ? constants.O_RDWR | SAFE_OPEN : constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | SAFE_OPEN;
  const refusal = scope && scopeRefusal(scope, join(dir.path, name));
  let place: Place = { path, dir, name };
  // The common case, a name that is no link: one open, relative to the folder the walk holds.
  if (!refusal || walker.kindOf(dir, name) !== "symlink") {
    if (refusal) throw new Error(refusal);
    try {
      return checkedOpen(walker, place, flags);
    } catch (err) {
      // O_NOFOLLOW met a link (ELOOP), or O_EXCL met something (EEXIST): a link is resolved
      // below, anything else is the error.
      const code = errorCode(err);
      if (code !== "ELOOP" && code !== "EEXIST") throw err;
      const kind = walker.kindOf(dir, name);
      if (kind === "dir") throw errnoError("EISDIR", "is a directory");
      if (kind !== "symlink") throw existed ? err : errnoError("EEXIST", "a file appeared there after the patch was checked");
    }
  }
  const located = walker.locate(path, { followFinal: true });
  const target = scope && scopeRefusal(scope, located.canonical);
  if (target) throw new Error(target);
  if (located.kind === "dir") throw errnoError("EISDIR", "is a directory");
  if (located.kind === "other") throw new Error("not a regular file");
  if (existed && located.kind === "missing") throw errnoError("ENOENT", "no such file");
  if (!existed && located.kind !== "missing") throw errnoError("EEXIST", "a file appeared there after the patch was checked");
  place = { path, dir: located.dir, name: located.name };
  return checkedOpen(walker, place, flags);
}

/**
 * Opens `place` and checks what was opened: a regular file, in a folder that is still where the
 * walk found it (checked once per folder, where the kernel can say: a folder renamed since the
 * walk is refused rather than written into).
 */
function checkedOpen(walker: PathWalker, place: Place, flags: number): Place & { fd: number } {
  const fd = openSync(walker.entry(place.dir, place.name), flags, 0o666);
  try {
    if (!fstatSync(fd).isFile()) throw new Error("not a regular file");
    if (!walker.stillThere(place.dir)) throw new Error(`${place.dir.path} was moved while the patch was being written`);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return { ...place, fd };
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

export function deleteOutcome(walker: PathWalker, scope: WriteScope | null, outcome: PathOutcome, steps: Step[]): void {
  const { path, before } = outcome;
  try {
    const { dir, name, canonical } = walker.locate(path, { followFinal: false });
    const refusal = scope && scopeRefusal(scope, canonical);
    if (refusal) throw new Error(refusal);
    const entry = walker.entry(dir, name);
    const info = lstatSync(entry);
    if (info.isDirectory()) throw errnoError("EISDIR", "is a directory");
    const linkTarget = info.isSymbolicLink() ? readlinkSync(entry) : null;
    unlinkSync(entry);
    steps.push({ kind: "deleted", path, dir, name, before, mode: info.mode & 0o7777, linkTarget });
  } catch (err) {
    throw new PatchIoError(`Failed to delete file ${path}`, err);
  }
}

/** Undoes recorded steps, newest first; returns a line for each one that could not be undone. */
export function undo(walker: PathWalker, steps: readonly Step[]): string[] {
  const unrestored: string[] = [];
  for (const step of [...steps].reverse()) {
    try {
      undoStep(walker, step);
    } catch (err) {
      const what = step.kind === "created-dir" ? `folder ${join(step.dir.path, step.name)} (created for ${step.path})` : step.path;
      unrestored.push(`${what}: ${describeIoError(err)}`);
    }
  }
  return unrestored;
}

/** Each undo goes through the directory the step used and follows no link either. */
function undoStep(walker: PathWalker, step: Step): void {
  const entry = walker.entry(step.dir, step.name);
  switch (step.kind) {
    case "wrote":
      if (step.before === null) {
        unlinkSync(entry);
        return;
      }
      restoreBytes(openSync(entry, constants.O_WRONLY | SAFE_OPEN), step.before);
      return;
    case "deleted":
      if (step.linkTarget !== null) {
        symlinkSync(step.linkTarget, entry);
        return;
      }
      // Created with the old mode and set again after, since the process umask may narrow it.
      restoreBytes(openSync(entry, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | SAFE_OPEN, step.mode), step.before, step.mode);
      return;
    case "created-dir":
      rmdirSync(entry);
      return;
  }
}

function restoreBytes(fd: number, content: FileContent | null, mode?: number): void {
  try {
    if (!fstatSync(fd).isFile()) throw new Error("not a regular file");
    const length = writeAll(fd, content?.parts ?? []);
    ftruncateSync(fd, length);
    if (mode !== undefined) fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}
