/**
 * Turns parsed hunks into a plan: for every file, its content before and after, computed by
 * reading the file system but never writing to it. Hunks apply in order against a view that
 * already includes the earlier hunks, so a patch that adds a file and then updates it, or
 * updates one file twice, behaves as if each hunk had been applied in turn.
 */
import { readFile } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { applyChunks } from "./file-update.js";
import { PatchIoError } from "./io-error.js";
import type { Hunk, ParsedPatch, PatchPlan, PlannedChange } from "./types.js";

export async function planPatch(parsed: ParsedPatch, cwd: string): Promise<PatchPlan> {
  const view = new PendingFiles();
  // Start every read at once (the hunks are then planned in order from memory): a patch that
  // touches hundreds of files waits for the disk once, not once per file.
  for (const path of pathsWrittenBy(parsed, cwd)) view.prefetch(path);
  const changes: PlannedChange[] = [];
  for (const hunk of parsed.hunks) changes.push(await planHunk(hunk, cwd, view));
  return { cwd, patch: parsed.patch, changes };
}

/** A hunk's path made absolute: relative paths are taken from the patch's working directory. */
export function resolvePatchPath(cwd: string, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** Every absolute path a patch writes, creates or deletes (what a write-permission check needs). */
export function pathsWrittenBy(parsed: ParsedPatch, cwd: string): string[] {
  const paths: string[] = [];
  for (const hunk of parsed.hunks) {
    paths.push(resolvePatchPath(cwd, hunk.path));
    if (hunk.kind === "update" && hunk.movePath !== null) paths.push(resolvePatchPath(cwd, hunk.movePath));
  }
  return [...new Set(paths)];
}

async function planHunk(hunk: Hunk, cwd: string, view: PendingFiles): Promise<PlannedChange> {
  const path = resolvePatchPath(cwd, hunk.path);
  const base = { path, displayPath: hunk.path, movePath: null, moveDisplayPath: null, overwrittenContent: null, regions: null };
  switch (hunk.kind) {
    case "add": {
      const overwritten = await view.readIfPresent(path, "Failed to write file");
      view.set(path, hunk.contents);
      return { ...base, kind: "add", oldContent: null, newContent: hunk.contents, overwrittenContent: overwritten };
    }
    case "delete": {
      const content = await view.read(path, "Failed to read");
      view.set(path, null);
      return { ...base, kind: "delete", oldContent: content, newContent: null };
    }
    case "update": {
      const original = await view.read(path, "Failed to read file to update");
      const { content, regions } = applyChunks(original, hunk.chunks, path);
      if (hunk.movePath === null) {
        view.set(path, content);
        return { ...base, kind: "update", oldContent: original, newContent: content, regions };
      }
      const movePath = resolvePatchPath(cwd, hunk.movePath);
      const overwritten = movePath === path ? null : await view.readIfPresent(movePath, "Failed to write file");
      view.set(path, null);
      view.set(movePath, content);
      return {
        ...base,
        kind: "update",
        movePath,
        moveDisplayPath: hunk.movePath,
        oldContent: original,
        newContent: content,
        overwrittenContent: overwritten,
        regions,
      };
    }
  }
}

/** The file system as it will be after the hunks planned so far (null marks a deletion). */
class PendingFiles {
  private readonly pending = new Map<string, string | null>();
  private readonly disk = new Map<string, Promise<DiskRead>>();

  prefetch(path: string): void {
    if (!this.disk.has(path)) this.disk.set(path, readDisk(path));
  }

  set(path: string, content: string | null): void {
    this.pending.set(path, content);
  }

  /** Reads a file that must exist as text; the error says which step needed it. */
  async read(path: string, context: string): Promise<string> {
    const planned = this.pending.get(path);
    if (planned === null) throw new PatchIoError(`${context} ${path}`, missingFile());
    if (planned !== undefined) return planned;
    const result = await this.fromDisk(path);
    if ("error" in result) throw new PatchIoError(`${context} ${path}`, result.error);
    return result.text;
  }

  /** Reads a file the patch is about to replace, or null when nothing is there yet. */
  async readIfPresent(path: string, context: string): Promise<string | null> {
    const planned = this.pending.get(path);
    if (planned !== undefined) return planned;
    const result = await this.fromDisk(path);
    if (!("error" in result)) return result.text;
    const code = (result.error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    // A directory in the way would only fail at write time: refuse the patch now instead.
    throw new PatchIoError(`${context} ${path}`, result.error);
  }

  private fromDisk(path: string): Promise<DiskRead> {
    this.prefetch(path);
    return this.disk.get(path) as Promise<DiskRead>;
  }
}

type DiskRead = { text: string } | { error: unknown };

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Reads UTF-8 text; a binary file is an error rather than something to mangle on rewrite. */
async function readDisk(path: string): Promise<DiskRead> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return { error };
  }
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { error: new Error("stream did not contain valid UTF-8") };
  }
}

function missingFile(): NodeJS.ErrnoException {
  return Object.assign(new Error("no such file"), { code: "ENOENT" });
}
