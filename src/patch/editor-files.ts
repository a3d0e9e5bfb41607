/**
 * Patches through an editor (protocol/editor-files.ts): the files a patch reads come from the
 * editor's buffers, unsaved changes included, and the files it rewrites are written back through
 * the editor, still all or nothing and still only where the patch may write.
 *
 * Reading: each file is first read from disk as usual (so a FIFO, a binary file or one too large
 * is refused the same way), then its text is taken from the editor, asked for the place the path
 * really leads to.
 *
 * Writing: existing files are rewritten through the editor; new files and deletions (for which
 * the editor protocol has no call) are made on disk by the commit's own steps (commit.ts). Each
 * rewrite is checked the moment it happens as a disk write is: the path is resolved without the
 * kernel following any link (util/path-walk.ts), the place it leads to must be inside the write
 * scope (or approved), and the editor is sent that place, never the link. If any step fails, the
 * steps taken are undone newest first: rewritten files get their text back through the editor,
 * created files are removed, deleted ones come back; what could not be put back is named.
 */
import type { EditorFiles } from "../protocol/editor-files.js";
import { errorMessage } from "../util/errors.js";
import { PathWalker } from "../util/path-walk.js";
import { destinationsOf, scopeRefusal, type WriteScope } from "../util/write-scope.js";
import { deleteOutcome, finalOutcomes, PatchCommitError, undo, writeOutcome, type Step } from "./commit.js";
import { FileContent } from "./file-content.js";
import { PatchIoError } from "./io-error.js";
import { readDisk, type DiskRead } from "./plan.js";
import type { PatchPlan } from "./types.js";

type ReadThrough = Required<Pick<EditorFiles, "readTextFile">>;
type WriteThrough = Required<Pick<EditorFiles, "writeTextFile">>;

/** The files at `paths` as the editor has them (for planPatch's `preread`); paths not on disk are left to the plan. */
export async function readThroughEditor(paths: readonly string[], editor: ReadThrough): Promise<Map<string, DiskRead>> {
  const reads = new Map<string, DiskRead>();
  const destinations = destinationsOf(paths.map((path) => ({ path, followsLinks: true })));
  await Promise.all(
    destinations.map(async ({ path, canonical }) => {
      // Missing, unreadable or refused on disk: the plan reports it as it would without an editor.
      if ("error" in readDisk(path)) return;
      try {
        reads.set(path, { content: FileContent.fromText(await editor.readTextFile(canonical)) });
      } catch (err) {
        reads.set(path, { error: new Error(`the editor could not read it: ${errorMessage(err)}`) });
      }
    }),
  );
  return reads;
}

/** A file rewritten through the editor, with the text to put back if a later step fails. */
interface Rewrite {
  path: string;
  location: string;
  before: FileContent;
}

/** Writes the plan, existing files through the editor; `scope` as for commitPlan (null: anywhere). */
export async function commitPlanThroughEditor(plan: PatchPlan, editor: WriteThrough, scope: WriteScope | null): Promise<void> {
  const outcomes = finalOutcomes(plan);
  const walker = new PathWalker({ descriptors: scope !== null });
  const steps: Step[] = [];
  const rewrites: Rewrite[] = [];
  try {
    // Writes first, then deletions, so a move's destination exists before its source goes.
    for (const outcome of outcomes) {
      const { path, before, after } = outcome;
      if (after === null) continue;
      if (before === null) {
        writeOutcome(walker, scope, outcome, after, steps);
        continue;
      }
      const location = rewriteLocation(walker, scope, path);
      try {
        await editor.writeTextFile(location, after.text);
      } catch (err) {
        throw new PatchIoError(`Failed to write file ${path}`, new Error(`the editor refused the write: ${errorMessage(err)}`));
      }
      rewrites.push({ path, location, before });
    }
    for (const outcome of outcomes) {
      if (outcome.after === null) deleteOutcome(walker, scope, outcome, steps);
    }
  } catch (err) {
    const unrestored = undo(walker, steps);
    for (const rewrite of rewrites.reverse()) {
      try {
        await editor.writeTextFile(rewrite.location, rewrite.before.text);
      } catch (undoErr) {
        unrestored.push(`${rewrite.path}: the editor refused to take its text back: ${errorMessage(undoErr)}`);
      }
    }
    walker.close();
    throw new PatchCommitError(err as Error, unrestored);
  }
  walker.close();
}

/** Where a rewrite of the existing file at `path` lands now, if the scope lets it; else the patch stops. */
function rewriteLocation(walker: PathWalker, scope: WriteScope | null, path: string): string {
  try {
    const located = walker.locate(path, { followFinal: true });
    const refusal = scope && scopeRefusal(scope, located.canonical);
    if (refusal) throw new Error(refusal);
    if (located.kind !== "file") throw new Error(located.kind === "missing" ? "no such file" : "not a regular file");
    return located.canonical;
  } catch (err) {
    throw new PatchIoError(`Failed to write file ${path}`, err);
  }
}
