/**
 * Turns parsed hunks into a plan: for every file, its content before and after, computed by
 * reading the file system but never writing to it. Hunks apply in order against a view that
 * already includes the earlier hunks, so a patch that adds a file and then updates it, or
 * updates one file twice, behaves as if each hunk had been applied in turn.
 */
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { applyChunks } from "./file-update.js";
import { PatchIoError } from "./io-error.js";
import type { Hunk, ParsedPatch, PatchPlan, PlannedChange } from "./types.js";

export async function planPatch(parsed: ParsedPatch, cwd: string): Promise<PatchPlan> {
  const view = new PendingFiles();
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

  set(path: string, content: string | null): void {
    this.pending.set(path, content);
  }

  /** Reads a file that must exist as text; the error says which step needed it. */
  async read(path: string, context: string): Promise<string> {
    const planned = this.pending.get(path);
    if (planned !== undefined) {
      if (planned === null) throw new PatchIoError(`${context} ${path}`, missingFile());
      return planned;
    }
    return readText(path, context);
  }

  /** Reads a file the patch is about to replace, or null when nothing is there yet. */
  async readIfPresent(path: string, context: string): Promise<string | null> {
    const planned = this.pending.get(path);
    if (planned !== undefined) return planned;
    try {
      // A directory in the way would only fail at write time: refuse the patch now instead.
      if ((await stat(path)).isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR") return null;
      throw new PatchIoError(`${context} ${path}`, err);
    }
    return readText(path, context);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Reads UTF-8 text; a binary file is refused rather than silently mangled on rewrite. */
async function readText(path: string, context: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new PatchIoError(`${context} ${path}`, err);
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new PatchIoError(`${context} ${path}`, new Error("stream did not contain valid UTF-8"));
  }
}

function missingFile(): NodeJS.ErrnoException {
  return Object.assign(new Error("no such file"), { code: "ENOENT" });
}
