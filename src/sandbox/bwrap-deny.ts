/**
 * The bubblewrap mounts that enforce a deny view (fs-guard.ts) on top of the mounts bwrap.ts
 * makes for the legacy policy:
 *
 * - a hidden folder gets an empty tmpfs with mode 000, remounted read-only once everything
 *   inside it is mounted (writes fail, nothing is there to read);
 * - a hidden file (or socket, fifo, device) gets /dev/null bound over it read-only; bubblewrap
 *   binds without device access, so opening it fails with "Permission denied", even for root;
 * - a read-only rule gets a read-only bind, a write rule a writable one;
 * - every folder between a writable mount and a hidden path is bound onto itself ("pinned"), so
 *   it is a mount point that cannot be renamed or moved: a command cannot carry a hidden file
 *   out from under the pattern that hides it (say `mv secrets public`, for the next command to
 *   read `public/key`). Renaming the hidden path itself fails the same way.
 *
 * A later bind covers an earlier one at the same place, so all of these are sorted from the
 * shallowest path to the deepest, and the legacy mounts (writable roots, protected folders) are
 * repeated wherever one of these would cover them. Hard links out of a hidden file cannot be
 * made inside the sandbox: link() across mounts fails.
 */
import { dirname } from "node:path";
import type { DenyView } from "./fs-guard.js";
import { pathDepth } from "./fs-rules.js";

export interface LegacyMounts {
  /** What `/` is before any of this: read-only for a confining policy, writable for full access. */
  root: "ro" | "rw";
  /** Writable roots bwrap.ts bound (real, existing). */
  writableRoots: readonly string[];
  /** Protected folders bwrap.ts bound read-only (real, existing). */
  protectedPaths: readonly string[];
}

type Access = "rw" | "ro" | "hide-dir" | "hide-file";
type Source = "legacy" | "rule" | "pin";

interface MountOp {
  path: string;
  access: Access;
  source: Source;
}

/** The `--bind`/`--tmpfs`/… arguments, to go after the legacy mounts and before `--proc`. */
export function bwrapDenyArgs(view: DenyView, legacy: LegacyMounts): string[] {
  if (view.hidden.length === 0 && view.readOnly.length === 0 && view.writable.length === 0) return [];
  const ops = new Map<string, MountOp>();
  const put = (op: MountOp): void => {
    const existing = ops.get(op.path);
    // At one path: hiding beats a rule, a rule beats the legacy mount, and a pin only fills gaps.
    if (existing === undefined || rank(op) > rank(existing)) ops.set(op.path, op);
  };
  for (const path of legacy.writableRoots) put({ path, access: "rw", source: "legacy" });
  for (const path of legacy.protectedPaths) put({ path, access: "ro", source: "legacy" });
  for (const path of view.writable) put({ path, access: "rw", source: "rule" });
  for (const path of view.readOnly) put({ path, access: "ro", source: "rule" });
  for (const { path, dir } of view.hidden) {
    put({ path, access: dir ? "hide-dir" : "hide-file", source: "rule" });
    for (let parent = dirname(path); parent !== dirname(parent); parent = dirname(parent)) put({ path: parent, access: "rw", source: "pin" });
  }

  const sorted = [...ops.values()].sort((a, b) => pathDepth(a.path) - pathDepth(b.path) || a.path.localeCompare(b.path));
  // What is mounted where, ours and the legacy mounts already in place, to know what covers a path.
  const state = new Map<string, MountOp>();
  const args: string[] = [];
  const remounts: string[] = [];
  for (const op of sorted) {
    const cover = deepestAncestor(state, op.path);
    const coverAccess: Access = cover?.access ?? legacy.root;
    const hiddenAbove = coverAccess === "hide-dir" || coverAccess === "hide-file";
    if (op.source === "legacy") {
      // Never reopened inside a hidden folder; repeated only where a mount of ours covers it.
      if (hiddenAbove) continue;
      state.set(op.path, op);
      if (cover === undefined || cover.source === "legacy") continue;
    } else if (op.source === "pin") {
      // Renaming is only possible where writes are.
      if (coverAccess !== "rw") continue;
      state.set(op.path, op);
    } else {
      // A rule always applies (the deepest wins), except hiding what is hidden already.
      if (hiddenAbove && (op.access === "hide-dir" || op.access === "hide-file")) continue;
      state.set(op.path, op);
    }
    switch (op.access) {
      case "rw":
        args.push("--bind", op.path, op.path);
        break;
      case "ro":
        args.push("--ro-bind", op.path, op.path);
        break;
      case "hide-dir":
        args.push("--perms", "0000", "--tmpfs", op.path);
        remounts.push(op.path);
        break;
      case "hide-file":
        args.push("--ro-bind", "/dev/null", op.path);
        break;
    }
  }
  // Read-only only now: mounts inside a hidden folder (a reopened subfolder) need mount points made first.
  for (const path of remounts) args.push("--remount-ro", path);
  return args;
}

function rank(op: MountOp): number {
  if (op.access === "hide-dir" || op.access === "hide-file") return 3;
  return op.source === "rule" ? 2 : op.source === "legacy" ? 1 : 0;
}

function deepestAncestor(state: Map<string, MountOp>, path: string): MountOp | undefined {
  for (let parent = dirname(path); ; parent = dirname(parent)) {
    const op = state.get(parent);
    if (op !== undefined) return op;
    if (parent === dirname(parent)) return undefined;
  }
}
