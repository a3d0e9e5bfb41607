/**
 * Writes a plan to disk all or nothing. Every new content is first written to a temporary file
 * beside its target; only when all of them exist are they renamed into place and deletions
 * done. If a step of that second phase fails, the steps already taken are undone from the
 * contents the plan holds, so a failed patch leaves the files as they were.
 */
import { chmod, lstat, mkdir, realpath, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { PatchIoError } from "./io-error.js";
import type { PatchPlan } from "./types.js";

const STAGING_CONCURRENCY = 16;

/** What the patch does to one path, and what was there before (null: nothing). */
interface PathOutcome {
  path: string;
  before: string | null;
  after: string | null;
}

interface StagedWrite {
  outcome: PathOutcome;
  /** The file actually replaced: the path itself, or what it links to. */
  target: string;
  temp: string;
}

export async function commitPlan(plan: PatchPlan): Promise<void> {
  const outcomes = finalOutcomes(plan);
  const createdDirs: string[] = [];
  const staged: StagedWrite[] = [];
  try {
    // Creating files is the slow part on real disks, so several are written at once.
    await forEachConcurrently(outcomes, STAGING_CONCURRENCY, async (outcome) => {
      if (outcome.after !== null) staged.push(await stage(outcome, outcome.after, createdDirs));
    });
  } catch (err) {
    await discard(staged, createdDirs);
    throw err;
  }
  const done: Array<{ outcome: PathOutcome; target: string }> = [];
  const stagedFor = new Map(staged.map((write) => [write.outcome, write]));
  try {
    for (const outcome of outcomes) {
      const write = stagedFor.get(outcome);
      if (write) {
        await rename(write.temp, write.target).catch((err: unknown) => {
          throw new PatchIoError(`Failed to write file ${outcome.path}`, err);
        });
        done.push({ outcome, target: write.target });
      } else {
        await deleteFile(outcome.path);
        done.push({ outcome, target: outcome.path });
      }
    }
  } catch (err) {
    await restore(done);
    const finished = new Set(done.map((d) => d.outcome));
    await discard(staged.filter((s) => !finished.has(s.outcome)), createdDirs);
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
  const touch = (path: string, before: string | null, after: string | null): void => {
    const known = byPath.get(path);
    if (known) known.after = after;
    else byPath.set(path, { path, before, after });
  };
  for (const change of plan.changes) {
    switch (change.kind) {
      case "add":
        touch(change.path, change.overwrittenContent, change.newContent);
        break;
      case "delete":
        touch(change.path, change.oldContent, null);
        break;
      case "update":
        if (change.movePath === null) {
          touch(change.path, change.oldContent, change.newContent);
        } else {
          touch(change.path, change.oldContent, null);
          touch(change.movePath, change.overwrittenContent, change.newContent);
        }
        break;
    }
  }
  return [...byPath.values()];
}

async function stage(outcome: PathOutcome, content: string, createdDirs: string[]): Promise<StagedWrite> {
  const target = await writeTarget(outcome.path);
  const dir = dirname(target);
  try {
    const created = await mkdir(dir, { recursive: true });
    if (created !== undefined) createdDirs.push(created);
  } catch (err) {
    throw new PatchIoError(`Failed to create parent directories for ${outcome.path}`, err);
  }
  const temp = join(dir, `.${basename(target)}.${randomBytes(4).toString("hex")}.codex-ts-patch`);
  try {
    await writeFile(temp, content, { flag: "wx" });
    // The replacement keeps the permissions of the file it replaces (an executable stays one).
    const mode = await stat(target).then((s) => s.mode & 0o7777, () => null);
    if (mode !== null) await chmod(temp, mode);
  } catch (err) {
    await rm(temp, { force: true });
    throw new PatchIoError(`Failed to write file ${outcome.path}`, err);
  }
  return { outcome, target, temp };
}

/** Writing to a symlink updates the file it points to, as a plain write would, not the link. */
async function writeTarget(path: string): Promise<string> {
  const isLink = await lstat(path).then((s) => s.isSymbolicLink(), () => false);
  return isLink ? realpath(path).catch(() => path) : path;
}

async function deleteFile(path: string): Promise<void> {
  try {
    if ((await lstat(path)).isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    await unlink(path);
  } catch (err) {
    throw new PatchIoError(`Failed to delete file ${path}`, err);
  }
}

/** Undoes completed steps, newest first, from the contents the plan recorded. */
async function restore(done: ReadonlyArray<{ outcome: PathOutcome; target: string }>): Promise<void> {
  for (const { outcome, target } of [...done].reverse()) {
    try {
      if (outcome.before === null) await rm(target, { force: true });
      else await writeFile(target, outcome.before);
    } catch {
      // Best effort: the original error is what the caller needs to see.
    }
  }
}

async function discard(staged: readonly StagedWrite[], createdDirs: readonly string[]): Promise<void> {
  for (const s of staged) await rm(s.temp, { force: true });
  for (const dir of [...createdDirs].reverse()) await rm(dir, { recursive: true, force: true });
}

/**
 * Runs `task` over `items` with at most `limit` in flight. On a failure no new task starts, the
 * ones in flight finish (so their temporary files are known and can be discarded), and the
 * first error is thrown.
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
