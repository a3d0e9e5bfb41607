/** What snapshots' git commands print, read: `status --porcelain=2`, raw diffs, `cat-file --batch`. */
import { nulFields } from "./git.js";
import { FILE_MODES, type FileMode, type FileState, type PathChange } from "./types.js";

/** `--raw -z` diff output as changes (what git keeps that is not a file is left to git). */
export function parseRawDiff(out: Buffer): PathChange[] {
  const fields = nulFields(out);
  const changes: PathChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const header = fields[i] ?? "";
    const path = fields[i + 1] ?? "";
    const [srcMode, dstMode, srcOid, dstOid] = header.replace(/^:/, "").split(" ");
    const before = stateOf(srcMode, srcOid);
    const after = stateOf(dstMode, dstOid);
    // Neither side a file undo keeps (a submodule; an unmerged or intent-to-add entry: no change).
    if (before === undefined || after === undefined || (before === null && after === null)) continue;
    changes.push({ path, before, after });
  }
  return changes;
}

/** A raw diff side as a state: null for "not there", undefined for what undo does not handle. */
function stateOf(mode: string | undefined, oid: string | undefined): FileState | null | undefined {
  if (mode === "000000") return null;
  if (!(FILE_MODES as readonly string[]).includes(mode ?? "") || oid === undefined) return undefined;
  return { mode: mode as FileMode, oid };
}

/** `git status --porcelain=2 -z`: changed tracked paths, untracked and ignored ones (folders end in `/`), and HEAD when asked (`--branch`). */
export function parseStatus(output: Buffer): { tracked: string[]; untracked: string[]; ignored: string[]; head: string | null } {
  const tracked: string[] = [];
  const untracked: string[] = [];
  const ignored: string[] = [];
  let head: string | null = null;
  for (const entry of nulFields(output)) {
    const kind = entry[0];
    // With --branch: the commit HEAD names, or "(initial)" before the first commit.
    if (entry.startsWith("# branch.oid ")) head = /^[0-9a-f]{40,64}$/.test(entry.slice(13)) ? entry.slice(13) : null;
    else if (kind === "?") untracked.push(entry.slice(2));
    else if (kind === "!") ignored.push(entry.slice(2));
    else if (kind === "1") tracked.push(fieldAfter(entry, 8));
    else if (kind === "u") tracked.push(fieldAfter(entry, 10));
  }
  return { tracked, untracked, ignored, head };
}

/** The rest of a space-separated line after `n` fields (a path may hold spaces). */
function fieldAfter(line: string, n: number): string {
  let at = 0;
  for (let i = 0; i < n; i++) at = line.indexOf(" ", at) + 1;
  return line.slice(at);
}

/** `git cat-file --batch` output: contents by object id (missing objects left out). */
export function parseBatch(out: Buffer): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const end = out.indexOf(0x0a, at);
    if (end < 0) break;
    const [oid, type, size] = out.subarray(at, end).toString("utf8").split(" ");
    at = end + 1;
    if (type === "missing" || oid === undefined || size === undefined) continue;
    const length = Number(size);
    blobs.set(oid, out.subarray(at, at + length));
    at += length + 1;
  }
  return blobs;
}
