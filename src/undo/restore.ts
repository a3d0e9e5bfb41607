/**
 * Carrying out an undo, a redo or a rollback of files: plan (plan.ts), read what is on disk
 * now, stop at files the user changed by hand unless they were confirmed, stop at anything the
 * session may not write, fetch every content the plan needs, and only then write: deletions
 * first (deepest paths first), then files, then folders left empty by deletions are removed.
 * Nothing is written until every check passed; a write that fails on the way is reported with
 * what was done.
 */
import { existsSync } from "node:fs";
import { join, sep } from "node:path";
import { BlobStore } from "./blob-store.js";
import { currentStates } from "./folder-area.js";
import { ShadowGit, findRepo, type GitRepo } from "./git-area.js";
import { conflictsOf, planRestore, writesOf, type Direction, type PlannedPath, type TurnChanges } from "./plan.js";
import { RestoreRefused, SafeWriter, type WriteRefusal } from "./safe-write.js";
import type { StoreLayout } from "./storage.js";
import type { FileState } from "./types.js";

export interface RestoreRequest {
  turns: readonly TurnChanges[];
  direction: Direction;
  /** Absolute paths the user agreed to overwrite though changed by hand. */
  overwrite: ReadonlySet<string>;
  /** Where the store of each thread lives (`$CODEX_HOME/undo/<id>`, or a temporary folder). */
  storeFor(storeId: string): StoreLayout;
  /** Why the session may not write at a real path (outside the writable folders, denied), or null. */
  refusal: WriteRefusal;
  mayRead(absolute: string): boolean;
}

export interface RestoreOutcome {
  /** Absolute paths now as the plan wanted them. */
  restored: string[];
  /** Changed by hand since (not written: confirm them to overwrite). */
  conflicts: string[];
  /** Not written because the session may not write there (nothing was written). */
  refused: Array<{ path: string; reason: string }>;
  /** Writes that failed on the way (others may have been done). */
  failed: Array<{ path: string; reason: string }>;
}

export async function restoreFiles(request: RestoreRequest): Promise<RestoreOutcome> {
  const outcome: RestoreOutcome = { restored: [], conflicts: [], refused: [], failed: [] };
  const plan = planRestore(request.turns, request.direction);
  if (plan.length === 0) return outcome;
  const repos = new RepoCache(request.storeFor);
  const current = await currentOf(plan, repos, request.mayRead);
  outcome.conflicts = conflictsOf(plan, current)
    .map((step) => step.absolute)
    .filter((path) => !request.overwrite.has(path));
  if (outcome.conflicts.length > 0) return outcome;

  const writes = writesOf(plan, current);
  for (const step of writes) {
    const why = request.refusal(step.absolute);
    if (why !== null) outcome.refused.push({ path: step.absolute, reason: why });
  }
  if (outcome.refused.length > 0) return outcome;

  const contents = await contentsOf(writes, repos);
  const writer = new SafeWriter(request.refusal);
  const depth = (s: PlannedPath): number => s.absolute.split(sep).length;
  const deletions = writes.filter((s) => s.target === null).sort((a, b) => depth(b) - depth(a));
  const files = writes.filter((s) => s.target !== null).sort((a, b) => depth(a) - depth(b));
  try {
    for (const step of [...deletions, ...files]) {
      try {
        writer.restore(step.absolute, step.target, contents.get(step) ?? null);
        outcome.restored.push(step.absolute);
      } catch (err) {
        outcome.failed.push({ path: step.absolute, reason: err instanceof RestoreRefused ? err.reason : (err as Error).message });
      }
    }
    // Folders a deleted file leaves empty go too (within its area: never the repository itself).
    for (const step of deletions) writer.pruneEmpty(step.absolute, step.area.root);
  } finally {
    writer.close();
  }
  // Paths already as the plan leaves them count as restored: the user sees every path the turn touched.
  for (const step of plan) if (!writes.includes(step)) outcome.restored.push(step.absolute);
  outcome.restored.sort();
  return outcome;
}

/** Repositories and shadow stores, looked up once per restore. */
class RepoCache {
  private readonly repos = new Map<string, Promise<GitRepo | null>>();

  constructor(private readonly storeFor: (storeId: string) => StoreLayout) {}

  async git(root: string, storeId: string): Promise<ShadowGit> {
    let repo = this.repos.get(root);
    if (!repo) this.repos.set(root, (repo = findRepo(root)));
    const found = await repo;
    if (found === null) throw new Error(`${root} is not a git repository any more; its snapshots cannot be read`);
    const layout = this.storeFor(storeId);
    if (!existsSync(layout.objects)) throw new Error(`the snapshots of ${root} are gone (their session's undo data was removed)`);
    return new ShadowGit(found, layout.objects, layout.tmp);
  }

  blobs(storeId: string): BlobStore {
    return new BlobStore(this.storeFor(storeId).blobs);
  }
}

/** What is on disk now at every path of the plan, read the way its area reads (git's filters in a repository). */
async function currentOf(plan: readonly PlannedPath[], repos: RepoCache, mayRead: (path: string) => boolean): Promise<Map<string, FileState | null>> {
  const current = new Map<string, FileState | null>();
  const byArea = groupBy(plan, (s) => `${s.area.source}\0${s.area.root}\0${s.storeId}`);
  for (const steps of byArea.values()) {
    const first = steps[0];
    if (first === undefined) continue;
    const { area, storeId } = first;
    const paths = steps.map((s) => s.path);
    const states = area.source === "git" ? await (await repos.git(area.root, storeId)).current(paths, mayRead) : currentStates(area.root, paths, mayRead);
    for (const step of steps) current.set(step.absolute, states.get(step.path) ?? null);
  }
  return current;
}

/** The content of every target state (steps whose target is a file or a link). */
async function contentsOf(steps: readonly PlannedPath[], repos: RepoCache): Promise<Map<PlannedPath, Buffer>> {
  const contents = new Map<PlannedPath, Buffer>();
  const targets = steps.flatMap((step) => (step.target === null ? [] : [{ step, state: step.target }]));
  for (const group of groupBy(targets, ({ step }) => `${step.area.source}\0${step.area.root}\0${step.storeId}`).values()) {
    const first = group[0];
    if (first === undefined) continue;
    const { area, storeId } = first.step;
    if (area.source === "git") {
      const read = await (await repos.git(area.root, storeId)).contents(group.map(({ step, state }) => ({ path: step.path, state })));
      for (const { step } of group) {
        const content = read.get(step.path);
        if (content !== undefined) contents.set(step, content);
      }
    } else {
      const blobs = repos.blobs(storeId);
      for (const { step, state } of group) {
        try {
          contents.set(step, blobs.read(state.oid));
        } catch {
          throw new Error(`the saved copy of ${join(area.root, step.path)} is gone (its session's undo data was removed)`);
        }
      }
    }
  }
  return contents;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
