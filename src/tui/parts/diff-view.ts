/**
 * Coloured per-file diffs for patch cells and the patch approval overlay, from the `changes`
 * map of `patch_apply_begin` / `apply_patch_approval_request` (keys are paths, usually absolute).
 *
 * API:
 * - `renderFileChange(path, change, width, options)`: one file: a header line (`path (+3 -1)`,
 *   `old → new` for a move, "(new)" / "(deleted)"), then numbered lines (`12 +text`), wrapped to
 *   `width` under the gutter, hunks separated by `⋮`. Fits the app's `DiffRenderer`.
 * - `renderChanges(changes, width, options)`: the summary header ("Edited 2 files (+10 -3)", or
 *   the verb given) and every file.
 * - `changeCounts(change)`, `summarize(changes)`: added / removed line counts.
 * - `displayPath(path, cwd)`: relative to `cwd` when inside it.
 * Options: `cwd` (for display paths), `maxLines` (per file; the rest is counted, not shown).
 */
import { visibleWidth } from "../pi-tui.js";
import { isAbsolute, relative } from "node:path";
import type { FileChange } from "../../protocol/events.js";
import { theme } from "./theme.js";

export interface DiffViewOptions {
  cwd?: string;
  /** Body lines shown per file before "… N more lines". */
  maxLines?: number;
  /** The summary verb (default "Edited"). */
  verb?: string;
}

export interface LineCounts {
  added: number;
  removed: number;
}

type DiffLine = { kind: "add" | "del" | "ctx"; no: number; text: string } | { kind: "gap" };

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The text's lines, without the empty one after a final newline. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function diffLines(change: FileChange): DiffLine[] {
  if (change.type === "add") return linesOf(change.content).map((text, i) => ({ kind: "add", no: i + 1, text }));
  if (change.type === "delete") return linesOf(change.content).map((text, i) => ({ kind: "del", no: i + 1, text }));
  const out: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  for (const line of linesOf(change.unified_diff)) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      if (inHunk) out.push({ kind: "gap" });
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      inHunk = true;
      continue;
    }
    if (!inHunk) continue; // `---` / `+++` headers
    const sign = line[0];
    if (sign === "+") out.push({ kind: "add", no: newNo++, text: line.slice(1) });
    else if (sign === "-") out.push({ kind: "del", no: oldNo++, text: line.slice(1) });
    else if (sign === " ") {
      out.push({ kind: "ctx", no: newNo, text: line.slice(1) });
      oldNo++;
      newNo++;
    }
    // `\ No newline at end of file` and anything else says nothing a reader needs here.
  }
  return out;
}

export function changeCounts(change: FileChange): LineCounts {
  const counts = { added: 0, removed: 0 };
  if (change.type === "add") counts.added = linesOf(change.content).length;
  else if (change.type === "delete") counts.removed = linesOf(change.content).length;
  else {
    for (const line of linesOf(change.unified_diff)) {
      if (line.startsWith("+") && !line.startsWith("+++ ")) counts.added++;
      else if (line.startsWith("-") && !line.startsWith("--- ")) counts.removed++;
    }
  }
  return counts;
}

export function summarize(changes: Record<string, FileChange>): LineCounts & { files: number } {
  const total = { files: 0, added: 0, removed: 0 };
  for (const change of Object.values(changes)) {
    const c = changeCounts(change);
    total.files++;
    total.added += c.added;
    total.removed += c.removed;
  }
  return total;
}

export function displayPath(path: string, cwd: string | undefined): string {
  if (cwd === undefined || !isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

function countsText({ added, removed }: LineCounts): string {
  const t = theme();
  return `(${t.fg("added", `+${added}`)} ${t.fg("removed", `-${removed}`)})`;
}

/** Cuts `text` (tabs expanded) into pieces of at most `width` columns. */
function wrapPlain(text: string, width: number): string[] {
  const s = text.replace(/\t/g, "    ");
  if (/^[\x20-\x7e]*$/.test(s)) {
    const pieces: string[] = [];
    for (let i = 0; i < s.length; i += width) pieces.push(s.slice(i, i + width));
    return pieces.length > 0 ? pieces : [""];
  }
  const pieces: string[] = [];
  let piece = "";
  let used = 0;
  for (const ch of s) {
    const w = visibleWidth(ch);
    if (used + w > width && piece !== "") {
      pieces.push(piece);
      piece = "";
      used = 0;
    }
    piece += ch;
    used += w;
  }
  pieces.push(piece);
  return pieces;
}

export function renderFileChange(path: string, change: FileChange, width: number, options: DiffViewOptions = {}): string[] {
  const t = theme();
  const shown = displayPath(path, options.cwd);
  const counts = countsText(changeCounts(change));
  let header: string;
  if (change.type === "add") header = `${t.bold(shown)} ${t.fg("muted", "(new)")} ${counts}`;
  else if (change.type === "delete") header = `${t.bold(shown)} ${t.fg("muted", "(deleted)")} ${counts}`;
  else if (change.move_path) header = `${t.bold(shown)} → ${t.bold(displayPath(change.move_path, options.cwd))} ${counts}`;
  else header = `${t.bold(shown)} ${counts}`;

  const lines = diffLines(change);
  const gutter = Math.max(1, ...lines.map((l) => (l.kind === "gap" ? 1 : String(l.no).length)));
  // Gutter, a space, the sign, then the text; at least 10 columns of text however narrow.
  const textWidth = Math.max(10, width - gutter - 2);
  const limit = options.maxLines ?? Number.POSITIVE_INFINITY;
  const out = [header];
  let body = 0;
  for (const [index, line] of lines.entries()) {
    if (body >= limit) {
      out.push(t.fg("muted", `${" ".repeat(gutter)} … ${lines.length - index} more lines`));
      break;
    }
    body++;
    if (line.kind === "gap") {
      out.push(t.fg("muted", `${" ".repeat(gutter - 1)}⋮`));
      continue;
    }
    const sign = line.kind === "add" ? "+" : line.kind === "del" ? "-" : " ";
    const pieces = wrapPlain(line.text, textWidth);
    pieces.forEach((piece, i) => {
      const number = i === 0 ? String(line.no).padStart(gutter) : " ".repeat(gutter);
      const mark = i === 0 ? sign : " ";
      const content = `${mark}${piece}`;
      const styled =
        line.kind === "add" ? t.bg("addedLine", t.fg("added", content)) : line.kind === "del" ? t.bg("removedLine", t.fg("removed", content)) : content;
      out.push(`${t.fg("muted", number)} ${styled}`);
    });
  }
  return out;
}

export function renderChanges(changes: Record<string, FileChange>, width: number, options: DiffViewOptions = {}): string[] {
  const t = theme();
  const total = summarize(changes);
  const noun = total.files === 1 ? "file" : "files";
  const out = [`${t.bold(options.verb ?? "Edited")} ${total.files} ${noun} ${countsText(total)}`];
  for (const [path, change] of Object.entries(changes)) {
    const [head, ...body] = renderFileChange(path, change, Math.max(1, width - 4), options);
    out.push(`  └ ${head ?? ""}`, ...body.map((l) => `    ${l}`));
  }
  return out;
}
