/**
 * Enforcing a deny view (fs-guard.ts) with Landlock, which can only grant: the helper's rights
 * are granted on "everything except" the denied paths. Walking down from `/` towards each path
 * whose access differs from its folder's, every sibling met on the way is granted whole, and the
 * folders on the way get nothing themselves. Landlock rules hold on to the inodes they were
 * given, so a denied folder stays denied when it is renamed, and so does whatever is created in
 * it later; linking a denied file elsewhere fails, since the link would gain rights.
 *
 * What that costs, and bubblewrap does not:
 * - a folder on the way to a denied path (often the project root, when a `.env` sits in it) gets
 *   no rights itself: a command can still write in its subfolders and to its existing files, but
 *   cannot create, delete or rename entries directly in it;
 * - folder listings stay readable everywhere (names are not contents);
 * - /dev is readable only for the usual devices (null, zero, random, tty, pts, shm, …), so a
 *   command run as root cannot read a disk device to get around the rules.
 *
 * The first cost is why a built-in denial (one the user did not write, fs-rules.ts) is left out
 * here wherever a folder above it is writable (`landlockEnforceable`): out of the box, a project
 * with a `.env` at its root would otherwise lose the right to create files in its root. The
 * user's own denials are enforced whatever they cost.
 */
import { dirname } from "node:path";
import type { DenyView } from "./fs-guard.js";

/** Python for the helper (landlock.ts): `grant_tree`, used once per kind of right. */
export const LANDLOCK_DENY_PYTHON = String.raw`
NONE, READ, WRITE = 0, 1, 2
READ_DIR = 1 << 3

def split_points(levels, base, need):
    # The folders above each path whose level makes a difference to need compared with its
    # folder's: they cannot be granted whole.
    def level_above(path):
        parent = path
        while parent != "/":
            parent = os.path.dirname(parent)
            if parent in levels:
                return levels[parent]
        return base
    branches = set()
    for path, level in levels.items():
        if path == "/" or (level >= need) == (level_above(path) >= need):
            continue
        parent = path
        while parent != "/":
            parent = os.path.dirname(parent)
            branches.add(parent)
    return branches

def grant_entry(path, rights, is_dir):
    if not is_dir:
        rights &= FILE_RIGHTS
    if not rights:
        return
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return
    try:
        rule = PathBeneath(rights, fd)
        check(libc.syscall(ctypes.c_long(NR_ADD_RULE), ctypes.c_int(ruleset), ctypes.c_int(1),
                           ctypes.byref(rule), ctypes.c_uint32(0)), "landlock_add_rule " + path)
    finally:
        os.close(fd)

def grant_with_denials(roots, read_only, hidden, write_rights, read_rights):
    # Writes: nothing by default, the roots and what is below them. Reads: everything by default
    # (when anything is hidden), /dev only for the devices granted below. The deepest entry wins.
    write_levels = {root: WRITE for root in roots}
    write_levels.update({path: READ for path in read_only})
    write_levels.update({path: NONE for path in hidden})
    read_levels = dict(write_levels)
    read_levels.setdefault("/dev", NONE)
    split_write = split_points(write_levels, NONE, WRITE)
    split_read = split_points(read_levels, READ, READ) if hidden else set()
    # One walk for both kinds of right: a path granted whole for one kind needs nothing more of
    # that kind below it, and is walked into only while the other kind still has to be split.
    def walk(path, is_dir, write_level, read_level, wrote, read):
        write_level = write_levels.get(path, write_level)
        read_level = read_levels.get(path, read_level)
        rights = 0
        if not wrote and path not in split_write:
            wrote = True
            if write_level >= WRITE:
                rights |= write_rights
        if not read and path not in split_read:
            read = True
            if read_level >= READ:
                rights |= read_rights
        grant_entry(path, rights, is_dir)
        if wrote and read:
            return
        try:
            entries = list(os.scandir(path))
        except OSError:
            return
        for entry in entries:
            # A symlink needs no rule: access through it is decided where it leads.
            if not entry.is_symlink():
                walk(entry.path, entry.is_dir(follow_symlinks=False), write_level, read_level, wrote, read)
    walk("/", True, NONE, READ, False, not hidden)
    if hidden:
        grant_entry("/", READ_DIR, True)
        grant_entry("/dev/shm", read_rights, True)
`;

/**
 * The helper's ROOT arguments: writable roots as they are, `=PATH` for a read-only rule and
 * `!PATH` for a hidden path. Legacy writable roots inside a hidden path stay hidden; a profile's
 * own write rule there reopens it.
 */
export function landlockRootArgs(legacyRoots: readonly string[], view: { hidden: readonly { path: string }[]; readOnly: readonly string[]; writable: readonly string[] }): string[] {
  const hidden = view.hidden.map((entry) => entry.path);
  const insideHidden = (path: string): boolean => hidden.some((h) => path === h || path.startsWith(h.endsWith("/") ? h : `${h}/`));
  const roots = legacyRoots.filter((root) => !insideHidden(root));
  return [...new Set([...roots, ...view.writable])].concat(
    view.readOnly.map((path) => `=${path}`),
    hidden.map((path) => `!${path}`),
  );
}

/**
 * The part of `view` Landlock enforces with the writable roots `roots` (real paths), the
 * built-in denials it leaves out because a folder above them is writable (hiding them would take
 * the right to create, rename and delete entries in that folder away), and the user's own
 * denials that cost a writable folder those rights (`costly`: they are enforced whatever they
 * cost). A denial inside a path hidden anyway is dropped (built-in) or costs nothing more.
 */
export function landlockEnforceable(view: DenyView, roots: readonly string[]): { view: DenyView; unenforced: string[]; costly: string[] } {
  const strict = view.hidden.filter((entry) => entry.byDefault !== true);
  const levels = new Map<string, "write" | "read" | "none">();
  for (const root of [...roots, ...view.writable]) levels.set(root, "write");
  for (const path of view.readOnly) levels.set(path, "read");
  for (const { path } of strict) levels.set(path, "none");
  const levelAt = (path: string): "write" | "read" | "none" | undefined => {
    for (let at = path; ; at = dirname(at)) {
      const level = levels.get(at);
      if (level !== undefined || at === dirname(at)) return level;
    }
  };
  /** Whether hiding `path` costs a writable folder above it its entries' rights. */
  const costsWrites = (path: string): boolean => {
    for (let above = dirname(path); ; above = dirname(above)) {
      if (levelAt(above) === "write") return true;
      if (above === dirname(above)) return false;
    }
  };
  const kept = [...strict];
  const unenforced: string[] = [];
  for (const entry of view.hidden) {
    if (entry.byDefault !== true || levelAt(entry.path) === "none") continue;
    if (costsWrites(entry.path)) unenforced.push(entry.path);
    else kept.push(entry);
  }
  const costly = strict.filter((entry) => levelAt(dirname(entry.path)) !== "none" && costsWrites(entry.path)).map((entry) => entry.path);
  return { view: { ...view, hidden: kept }, unenforced, costly };
}
