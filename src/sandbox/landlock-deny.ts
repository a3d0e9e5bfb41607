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
 */

/** Python for the helper (landlock.ts): `grant_tree`, used once per kind of right. */
export const LANDLOCK_DENY_PYTHON = String.raw`
NONE, READ, WRITE = 0, 1, 2
EXECUTE, READ_FILE, READ_DIR = 1 << 0, 1 << 2, 1 << 3

def grant_tree(levels, base, need, rights):
    # Grants rights on every path whose level (the deepest entry of levels at or above it, else
    # base) is at least need. A folder is granted whole unless some path below it differs.
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
    def walk(path, inherited):
        level = levels.get(path, inherited)
        if path not in branches:
            if level >= need:
                allow(path, rights)
            return
        try:
            entries = list(os.scandir(path))
        except OSError:
            return
        for entry in entries:
            # A symlink needs no rule: access through it is decided where it leads.
            if not entry.is_symlink():
                walk(entry.path, level)
    walk("/", base)

def grant_with_denials(roots, read_only, hidden, write_rights, read_rights):
    levels = {root: WRITE for root in roots}
    levels.update({path: READ for path in read_only})
    levels.update({path: NONE for path in hidden})
    grant_tree(levels, NONE, WRITE, write_rights)
    if hidden:
        allow("/", READ_DIR)
        read_levels = dict(levels)
        read_levels.setdefault("/dev", NONE)
        grant_tree(read_levels, READ, READ, read_rights)
        allow("/dev/shm", read_rights)
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
