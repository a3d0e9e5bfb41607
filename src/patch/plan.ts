/**
 * Turns parsed hunks into a plan: for every file, its content before and after, computed by
 * reading the file system but never writing to it. Hunks apply in order against a view that
 * already includes the earlier hunks, so a patch that adds a file and then updates it, or
 * updates one file twice, behaves as if each hunk had been applied in turn. Files are read with
 * synchronous calls, like the commit's writes (see commit.ts), and kept as bytes until something
 * needs their text.
 */
import { isUtf8 } from "node:buffer";
import { readBoundedBytes } from "../util/bounded-read.js";
import { isAbsolute, resolve } from "node:path";
import { FileContent } from "./file-content.js";
import { updateContent } from "./file-update.js";
import { PatchIoError } from "./io-error.js";
import type { ChangeContents, Hunk, ParsedPatch, PatchPlan, PlannedChange } from "./types.js";
import { errorCode } from "../util/errors.js";

/**
 * `preread`: files already read by someone else (the editor's buffers, editor-files.ts), used
 * instead of the disk for those paths.
 */
export async function planPatch(parsed: ParsedPatch, cwd: string, preread?: ReadonlyMap<string, DiskRead>): Promise<PatchPlan> {
  const view = new PendingFiles(preread);
  const changes: PlannedChange[] = [];
  for (const hunk of parsed.hunks) changes.push(planHunk(hunk, cwd, view));
  return { cwd, patch: parsed.patch, changes };
}

/** A hunk's path made absolute: relative paths are taken from the patch's working directory. */
export function resolvePatchPath(cwd: string, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** Every absolute path a patch writes, creates or deletes, as the patch names them (checked before anything is read). */
export function pathsWrittenBy(parsed: ParsedPatch, cwd: string): string[] {
  const paths: string[] = [];
  for (const hunk of parsed.hunks) {
    paths.push(resolvePatchPath(cwd, hunk.path));
    if (hunk.kind === "update" && hunk.movePath !== null) paths.push(resolvePatchPath(cwd, hunk.movePath));
  }
  return [...new Set(paths)];
}

function planHunk(hunk: Hunk, cwd: string, view: PendingFiles): PlannedChange {
  const path = resolvePatchPath(cwd, hunk.path);
  const base = { path, displayPath: hunk.path, movePath: null, moveDisplayPath: null, regions: null };
  switch (hunk.kind) {
    case "add": {
      const overwritten = view.readIfPresent(path, "Failed to write file");
      const added = FileContent.fromText(hunk.contents);
      view.set(path, added);
      return plannedChange({ ...base, kind: "add" }, { old: null, new: added, overwritten });
    }
    case "delete": {
      const content = view.read(path, "Failed to read");
      view.set(path, null);
      return plannedChange({ ...base, kind: "delete" }, { old: content, new: null, overwritten: null });
    }
    case "update": {
      const original = view.read(path, "Failed to read file to update");
      const { content, regions } = updateContent(original, hunk.chunks, path);
      if (hunk.movePath === null) {
        view.set(path, content);
        return plannedChange({ ...base, kind: "update", regions }, { old: original, new: content, overwritten: null });
      }
      const movePath = resolvePatchPath(cwd, hunk.movePath);
      const overwritten = movePath === path ? null : view.readIfPresent(movePath, "Failed to write file");
      view.set(path, null);
      view.set(movePath, content);
      return plannedChange(
        { ...base, kind: "update", movePath, moveDisplayPath: hunk.movePath, regions },
        { old: original, new: content, overwritten },
      );
    }
  }
}

/** A change whose string contents are decoded from `contents` the first time they are read. */
function plannedChange(fields: Omit<PlannedChange, "contents" | "oldContent" | "newContent" | "overwrittenContent">, contents: ChangeContents): PlannedChange {
  const text = (content: FileContent | null): PropertyDescriptor => ({ enumerable: true, get: () => content?.text ?? null });
  return Object.defineProperties(
    { ...fields, contents },
    { oldContent: text(contents.old), newContent: text(contents.new), overwrittenContent: text(contents.overwritten) },
  ) as PlannedChange;
}

/** The file system as it will be after the hunks planned so far (null marks a deletion). */
class PendingFiles {
  private readonly pending = new Map<string, FileContent | null>();
  private readonly disk: Map<string, DiskRead>;

  constructor(preread?: ReadonlyMap<string, DiskRead>) {
    this.disk = new Map(preread);
  }

  set(path: string, content: FileContent | null): void {
    this.pending.set(path, content);
  }

  /** Reads a file that must exist as text; the error says which step needed it. */
  read(path: string, context: string): FileContent {
    const planned = this.pending.get(path);
    if (planned === null) throw new PatchIoError(`${context} ${path}`, missingFile());
    if (planned !== undefined) return planned;
    const result = this.fromDisk(path);
    if ("error" in result) throw new PatchIoError(`${context} ${path}`, result.error);
    return result.content;
  }

  /** Reads a file the patch is about to replace, or null when nothing is there yet. */
  readIfPresent(path: string, context: string): FileContent | null {
    const planned = this.pending.get(path);
    if (planned !== undefined) return planned;
    const result = this.fromDisk(path);
    if (!("error" in result)) return result.content;
    const code = errorCode(result.error);
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    // A directory in the way would only fail at write time: refuse the patch now instead.
    throw new PatchIoError(`${context} ${path}`, result.error);
  }

  private fromDisk(path: string): DiskRead {
    let result = this.disk.get(path);
    if (result === undefined) {
      result = readDisk(path);
      this.disk.set(path, result);
    }
    return result;
  }
}

/** A file's content as read for the plan, or why it could not be read. */
export type DiskRead = { content: FileContent } | { error: unknown };

/** Larger files are refused: an edit keeps a few copies of the file in memory. */
const PATCH_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** Reads UTF-8 text; a binary file is an error rather than something to mangle on rewrite. */
export function readDisk(path: string): DiskRead {
  let bytes: Buffer;
  try {
    // A FIFO or device (which a sandboxed command can create) is refused rather than waited on.
    const read = readBoundedBytes(path, PATCH_FILE_MAX_BYTES);
    if (read.truncated) return { error: new Error(`the file is ${read.size} bytes, more than apply_patch edits (${PATCH_FILE_MAX_BYTES})`) };
    bytes = read.data;
  } catch (error) {
    return { error };
  }
  // Checked now, decoded only if something needs the text (see FileContent).
  return isUtf8(bytes) ? { content: FileContent.fromBytes(bytes) } : { error: new Error("stream did not contain valid UTF-8") };
}

function missingFile(): NodeJS.ErrnoException {
  return Object.assign(new Error("no such file"), { code: "ENOENT" });
}
