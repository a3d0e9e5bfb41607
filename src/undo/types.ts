/**
 * What undo knows about files, shared by every part of it. A file's state is what git would
 * store for it: a mode (regular, executable, symbolic link) and the id of its content (a git
 * blob id: SHA-1 over "blob <size>\0" and the bytes). Git repositories and plain folders use the
 * same ids, so states from either compare the same way and a plan never cares where they came from.
 */

/** A file as a snapshot holds it; `null` where a snapshot holds no file at that path. */
export interface FileState {
  /** `100644` regular, `100755` executable, `120000` symbolic link (the content is its target). */
  mode: FileMode;
  oid: string;
}

export const FILE_MODES = ["100644", "100755", "120000"] as const;
export type FileMode = (typeof FILE_MODES)[number];

/** Where a change's contents are kept: the shadow git objects of a repository, or undo's own blob store. */
export type ContentSource = "git" | "blobs";

/** One path a turn changed: how it was before the turn and after it. */
export interface PathChange {
  /** Relative to the area's root, `/`-separated. */
  path: string;
  before: FileState | null;
  after: FileState | null;
}

/**
 * The changes of one turn inside one folder: a git repository's working tree (contents in the
 * shadow objects), a plain folder, or single files written outside both (root `/`, contents in
 * the blob store).
 */
export interface AreaChanges {
  root: string;
  source: ContentSource;
  /** For `git`: the repository's object folder, which the shadow objects borrow from. */
  repoObjects?: string;
  changes: PathChange[];
}

/** `"<mode> <oid>"`, or null: how a state is written in a session file. */
export function encodeState(state: FileState | null): string | null {
  return state === null ? null : `${state.mode} ${state.oid}`;
}

const OID = /^[0-9a-f]{40}$/;

export function decodeState(value: unknown): FileState | null | undefined {
  if (value === null) return null;
  if (typeof value !== "string") return undefined;
  const [mode, oid, ...rest] = value.split(" ");
  if (rest.length > 0 || oid === undefined || !OID.test(oid) || !(FILE_MODES as readonly string[]).includes(mode ?? "")) return undefined;
  return { mode: mode as FileMode, oid };
}

/** The state of a path holding something a snapshot cannot keep (a folder, a device, a denied file): equal to no state. */
export const OTHER_STATE: FileState = { mode: "100644", oid: "0".repeat(40) };

export function sameState(a: FileState | null, b: FileState | null): boolean {
  return a === null || b === null ? a === b : a.mode === b.mode && a.oid === b.oid;
}

export function isValidOid(value: unknown): value is string {
  return typeof value === "string" && OID.test(value);
}
