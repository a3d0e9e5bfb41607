/**
 * Patches through an editor (protocol/editor-files.ts): the files a patch reads come from the
 * editor's buffers, unsaved changes included, and the files it rewrites are written back through
 * the editor, still all or nothing.
 *
 * Reading: each file is first read from disk as usual (so a FIFO, a binary file or one too large
 * is refused the same way), then its text is taken from the editor instead.
 *
 * Writing: every path must still lead where it led when the patch was checked (`pinned`, the
 * real locations with symlinks resolved): a link swapped in meanwhile stops the patch before
 * anything is written, and the editor is sent the real location, not the link. Existing files are
 * rewritten through the editor; new files and deletions (which the editor protocol has no call
 * for) are made on disk. If any step fails, the steps taken are undone newest first: rewritten
 * files get the text they had (through the editor again), created files are removed, deleted ones
 * come back.
 */
import type { EditorFiles } from "../protocol/editor-files.js";
import { errorMessage } from "../util/errors.js";
import { realLocation } from "../util/real-location.js";
import { deleteOutcome, finalOutcomes, undo, writeOutcome, type Step } from "./commit.js";
import { FileContent } from "./file-content.js";
import { PatchIoError } from "./io-error.js";
import { readDisk, type DiskRead } from "./plan.js";
import type { PatchPlan } from "./types.js";

type ReadThrough = Required<Pick<EditorFiles, "readTextFile">>;
type WriteThrough = Required<Pick<EditorFiles, "writeTextFile">>;

/** The files at `paths` as the editor has them (for planPatch's `preread`); paths not on disk are left to the plan. */
export async function readThroughEditor(paths: readonly string[], editor: ReadThrough): Promise<Map<string, DiskRead>> {
  const reads = new Map<string, DiskRead>();
  await Promise.all(
    paths.map(async (path) => {
      const local = readDisk(path);
      // Missing, unreadable or refused: the plan reports it as it would without an editor.
      if ("error" in local) return;
      try {
        const text = await editor.readTextFile(realLocation(path));
        reads.set(path, { content: FileContent.fromText(text) });
      } catch (err) {
        reads.set(path, { error: new Error(`the editor could not read it: ${errorMessage(err)}`) });
      }
    }),
  );
  return reads;
}

/** Where each path leads now, to pin before the patch is checked and asked about. */
export function pinLocations(paths: readonly string[]): Map<string, string> {
  return new Map(paths.map((path) => [path, realLocation(path)]));
}

/** A rewrite made through the editor, with the text to put back if a later step fails. */
interface EditorStep {
  location: string;
  before: FileContent;
}

export async function commitPlanThroughEditor(plan: PatchPlan, editor: WriteThrough, pinned: ReadonlyMap<string, string>): Promise<void> {
  const outcomes = finalOutcomes(plan);
  for (const outcome of outcomes) checkPinned(outcome.path, pinned);
  const rewritten: EditorStep[] = [];
  const steps: Step[] = [];
  try {
    for (const outcome of outcomes) {
      const { path, before, after } = outcome;
      if (after === null) continue;
      if (before === null) {
        writeOutcome(outcome, after, steps);
        continue;
      }
      const location = checkPinned(path, pinned);
      try {
        await editor.writeTextFile(location, after.text);
      } catch (err) {
        throw new PatchIoError(`Failed to write file ${path}`, new Error(`the editor refused the write: ${errorMessage(err)}`));
      }
      rewritten.push({ location, before });
    }
    for (const outcome of outcomes) {
      if (outcome.after === null) deleteOutcome(outcome, steps);
    }
  } catch (err) {
    undo(steps);
    for (const step of rewritten.reverse()) {
      try {
        await editor.writeTextFile(step.location, step.before.text);
      } catch {
        // Best effort, as on disk: the original error is what the caller needs to see.
      }
    }
    throw err;
  }
}

/** The path's real location, if it is still the one pinned; else the patch stops here. */
function checkPinned(path: string, pinned: ReadonlyMap<string, string>): string {
  const now = realLocation(path);
  const then = pinned.get(path);
  if (then === undefined) throw new PatchIoError(`Failed to write file ${path}`, new Error("the path was not checked before the write"));
  if (then !== now) {
    throw new PatchIoError(`Failed to write file ${path}`, new Error(`it now leads to ${now}, not ${then} as when the patch was checked`));
  }
  return now;
}
