/**
 * The net effect of every apply_patch call in one turn, as one git-style multi-file diff.
 *
 * Everything is tracked from the contents the patch engine already holds, never by re-reading
 * the file system: a file's content when the turn first touched it (its baseline), its content
 * now, and where a moved file came from. Files changed by other means (shell commands) are not
 * in the diff, as in the Codex CLI.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { ChangedRegion, PlannedChange } from "./types.js";
import { unifiedDiff } from "./unified-diff.js";

const CONTEXT_LINES = 3;
const FILE_MODE = "100644";
const ABSENT_OID = "0".repeat(40);

/** The last update that produced a path's content, kept so its regions can speed up the diff. */
interface LastUpdate {
  oldContent: string;
  newContent: string;
  regions: ChangedRegion[];
}

export class TurnDiffTracker {
  /** Content when first touched this turn; no entry means the file did not exist then. */
  private readonly baseline = new Map<string, string>();
  /** Content now; no entry means the file does not exist now. */
  private readonly current = new Map<string, string>();
  /** For files moved this turn: current path → path the content started at. */
  private readonly origin = new Map<string, string>();
  private readonly lastUpdate = new Map<string, LastUpdate>();

  /** Paths under `displayRoot` (the turn's cwd) are shown relative to it. */
  constructor(private readonly displayRoot: string) {}

  /** Records the changes of a patch that was applied successfully, in order. */
  track(changes: readonly PlannedChange[]): void {
    for (const change of changes) {
      switch (change.kind) {
        case "add":
          this.trackAdd(change.path, change.newContent ?? "", change.overwrittenContent);
          break;
        case "delete":
          this.trackDelete(change.path, change.oldContent ?? "");
          break;
        case "update":
          this.trackUpdate(change);
          break;
      }
    }
  }

  /** The turn's diff so far, or null when the files are back to how the turn found them. */
  unifiedDiff(): string | null {
    const renames = this.renamePairs();
    const renamed = new Set(renames.values());
    const paths = [...new Set([...this.baseline.keys(), ...this.current.keys()])]
      .filter((p) => !renamed.has(p))
      .map((p) => ({ path: p, display: this.displayPath(p) }))
      .sort((a, b) => compareStrings(a.display, b.display));
    const sections: string[] = [];
    for (const { path: left } of paths) {
      const section = this.renderFile(left, renames.get(left) ?? left);
      if (section !== null) sections.push(section);
    }
    return sections.length > 0 ? sections.join("") : null;
  }

  private trackAdd(target: string, content: string, overwritten: string | null): void {
    this.origin.delete(target);
    this.lastUpdate.delete(target);
    if (!this.seen(target) && overwritten !== null) this.baseline.set(target, overwritten);
    this.current.set(target, content);
  }

  private trackDelete(target: string, content: string): void {
    // A file first touched by its deletion: what was deleted is its baseline.
    if (!this.current.delete(target) && !this.baseline.has(target)) this.baseline.set(target, content);
    this.origin.delete(target);
    this.lastUpdate.delete(target);
  }

  private trackUpdate(change: PlannedChange): void {
    const source = change.path;
    const newContent = change.newContent ?? "";
    if (!this.seen(source)) this.baseline.set(source, change.oldContent ?? "");
    // A move onto its own path is an update in place; treating it as a move would lose the
    // file's link to where an earlier move brought it from.
    const dest = change.movePath !== null && change.movePath !== source ? change.movePath : null;
    if (dest === null) {
      this.current.set(source, newContent);
      this.rememberUpdate(source, change);
      return;
    }
    if (!this.seen(dest) && change.overwrittenContent !== null) this.baseline.set(dest, change.overwrittenContent);
    const start = this.origin.get(source) ?? source;
    this.origin.delete(source);
    this.current.delete(source);
    this.lastUpdate.delete(source);
    this.current.set(dest, newContent);
    this.origin.delete(dest);
    if (dest !== start) this.origin.set(dest, start);
    this.rememberUpdate(dest, change);
  }

  private rememberUpdate(target: string, change: PlannedChange): void {
    if (change.regions && change.oldContent !== null && change.newContent !== null) {
      this.lastUpdate.set(target, { oldContent: change.oldContent, newContent: change.newContent, regions: change.regions });
    } else {
      this.lastUpdate.delete(target);
    }
  }

  private seen(p: string): boolean {
    return this.current.has(p) || this.baseline.has(p);
  }

  /**
   * Moves to show as one diff, start path → current path: the content left its start path, which
   * existed before the turn, and landed on a path that did not.
   */
  private renamePairs(): Map<string, string> {
    const pairs = new Map<string, string>();
    for (const [dest, start] of this.origin) {
      const isRename =
        dest !== start && !this.current.has(start) && this.current.has(dest) && this.baseline.has(start) && !this.baseline.has(dest);
      // A start path re-created and moved again can name two destinations; the first move keeps it.
      if (isRename && !pairs.has(start)) pairs.set(start, dest);
    }
    return pairs;
  }

  /** One file's section of the diff (baseline of `left` → current of `right`), or null if unchanged. */
  private renderFile(left: string, right: string): string | null {
    const before = this.baseline.get(left) ?? null;
    const after = this.current.get(right) ?? null;
    if (before === after) return null;
    const leftName = this.displayPath(left);
    const rightName = this.displayPath(right);
    let out = `diff --git a/${leftName} b/${rightName}\n`;
    if (before === null) out += `new file mode ${FILE_MODE}\n`;
    if (after === null) out += `deleted file mode ${FILE_MODE}\n`;
    out += `index ${blobOid(before)}..${blobOid(after)}\n`;
    out += unifiedDiff(before ?? "", after ?? "", {
      context: CONTEXT_LINES,
      regions: this.regionsFor(right, before, after),
      header: { old: before === null ? "/dev/null" : `a/${leftName}`, new: after === null ? "/dev/null" : `b/${rightName}` },
    });
    return out.endsWith("\n") ? out : `${out}\n`;
  }

  /**
   * The regions of the update that produced `right`'s content, when that update's old and new
   * contents are exactly what is being diffed (typically: the file was touched once this turn).
   * Otherwise undefined, and the whole contents are diffed.
   */
  private regionsFor(right: string, before: string | null, after: string | null): ChangedRegion[] | undefined {
    const last = this.lastUpdate.get(right);
    if (!last || before === null || after === null) return undefined;
    return last.oldContent === before && last.newContent === after ? last.regions : undefined;
  }

  /** Relative to the display root when inside it, else absolute; always with `/` separators. */
  private displayPath(p: string): string {
    const relative = path.relative(this.displayRoot, p);
    const outside = relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
    const inside = relative !== "" && !outside;
    return (inside ? relative : p).split(path.sep).join("/");
  }
}

/** Git's object id for a blob with this content (all zeros for a missing file). */
function blobOid(content: string | null): string {
  if (content === null) return ABSENT_OID;
  const body = Buffer.from(content, "utf8");
  return createHash("sha1").update(`blob ${body.length}\0`).update(body).digest("hex");
}

/** Orders by Unicode code point, as byte-wise UTF-8 comparison (and git) would. */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
