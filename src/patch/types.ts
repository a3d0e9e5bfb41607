/**
 * The data the patch engine passes between its stages:
 *
 *   patch text ─parse─▶ ParsedPatch ─plan (reads files)─▶ PatchPlan ─commit (writes files)─▶ summary
 *
 * Everything up to the plan is side-effect free, so a patch that cannot apply is refused before
 * any file is touched.
 */
import type { FileContent } from "./file-content.js";

/** One `*** Add File` / `*** Delete File` / `*** Update File` section, paths as spelled in the patch. */
export type Hunk =
  | { kind: "add"; path: string; contents: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; movePath: string | null; chunks: UpdateChunk[] };

/** One `@@` block of an update: the lines it expects to find and what replaces them. */
export interface UpdateChunk {
  /** The text after `@@ `, a line that must appear before the chunk (narrows the search). */
  changeContext: string | null;
  oldLines: string[];
  newLines: string[];
  /** Set by `*** End of File`: the old lines must be the file's last lines. */
  isEndOfFile: boolean;
}

export interface ParsedPatch {
  hunks: Hunk[];
  /** The patch text between and including the Begin/End markers, heredoc wrapper removed. */
  patch: string;
}

/**
 * A span the patch changed, in line indices, half-open: old lines [oldStart, oldEnd) became new
 * lines [newStart, newEnd). Between two regions the files are identical line for line, which is
 * what lets a diff be computed per region instead of over the whole file.
 */
export interface ChangedRegion {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** One file the plan will write, with both contents so diffs and rollbacks need no re-read. */
export interface PlannedChange {
  /**
   * The three contents below in the form the plan holds them (bytes from disk, text from a
   * patch), when it built the change; the string fields then decode on first read. The commit
   * writes from here, so it never decodes what nobody reads.
   */
  contents?: ChangeContents;
  kind: "add" | "delete" | "update";
  /** Absolute path of the file the hunk names. */
  path: string;
  /** The path as the patch spelled it, for the summary the model reads. */
  displayPath: string;
  /** Absolute destination of a move, or null. */
  movePath: string | null;
  moveDisplayPath: string | null;
  /** Content before the patch: null for an add that creates a new file. */
  oldContent: string | null;
  /** Content after the patch: null for a delete. */
  newContent: string | null;
  /** Content a move or add overwrites at its destination, if a file was there. */
  overwrittenContent: string | null;
  /** For updates: where the content changed (absent when unknown, e.g. adds and deletes). */
  regions: ChangedRegion[] | null;
}

export interface ChangeContents {
  old: FileContent | null;
  new: FileContent | null;
  overwritten: FileContent | null;
}

export interface PatchPlan {
  /** Directory relative paths were resolved against. */
  cwd: string;
  patch: string;
  changes: PlannedChange[];
}
