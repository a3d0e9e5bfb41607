/**
 * The `@` popup under the composer: the best file matches for the word being typed, matched
 * characters highlighted, one row selected.
 *
 * API: `new FileSearchPopup(index, { onSelect, onCancel, requestRender, maxVisible })`;
 * `setQuery(text)` after every edit of the `@` word; `handleInput(data)` takes Up/Down (and
 * Ctrl+P/Ctrl+N) to move, Tab/Enter to pick (`onSelect(path)`), Esc to close (`onCancel()`),
 * and returns whether it used the key (other keys belong to the composer); `selectedPath()`;
 * `render(width)`. While the index is still being built it says so, and re-renders through
 * `requestRender` once the index is ready.
 */
import type { Component } from "@mariozechner/pi-tui";
import { matchesKey, truncateToWidth, visibleWidth } from "../pi-tui.js";
import type { FileMatch } from "../../file-search/fuzzy-match.js";
import type { IndexState } from "../../file-search/file-index.js";
import { theme } from "./theme.js";

/** What the popup needs of a `FileIndex`. */
export interface SearchableIndex {
  readonly state: IndexState;
  readonly error: string | null;
  search(query: string, limit: number): FileMatch[];
  whenReady(): Promise<void>;
  /** For an index whose answers come later (a remote one): who to tell when one arrives. */
  watch?(listener: (() => void) | null): void;
}

export interface FileSearchPopupOptions {
  onSelect: (path: string) => void;
  onCancel: () => void;
  /** Called when the popup changed by itself (the index finished building). */
  requestRender?: () => void;
  /** Rows shown at once (default 8); the list scrolls to keep the selection in view. */
  maxVisible?: number;
}

/** How many matches are kept for scrolling. */
const KEPT = 50;

export class FileSearchPopup implements Component {
  private query = "";
  private matches: FileMatch[] = [];
  private selected = 0;
  private top = 0;
  private readonly maxVisible: number;

  constructor(
    private readonly index: SearchableIndex,
    private readonly options: FileSearchPopupOptions,
  ) {
    this.maxVisible = options.maxVisible ?? 8;
    index.watch?.(() => {
      this.update();
      options.requestRender?.();
    });
    if (index.state === "building") {
      void index.whenReady().then(() => {
        this.update();
        options.requestRender?.();
      });
    }
  }

  setQuery(query: string): void {
    if (query === this.query && this.matches.length > 0) return;
    this.query = query;
    this.update();
  }

  selectedPath(): string | null {
    return this.matches[this.selected]?.path ?? null;
  }

  private update(): void {
    this.matches = this.index.state === "building" ? [] : this.index.search(this.query, KEPT);
    this.selected = 0;
    this.top = 0;
  }

  private move(delta: number): void {
    const n = this.matches.length;
    if (n === 0) return;
    this.selected = (this.selected + delta + n) % n;
    if (this.selected < this.top) this.top = this.selected;
    if (this.selected >= this.top + this.maxVisible) this.top = this.selected - this.maxVisible + 1;
  }

  handleInput(data: string): boolean {
    if (matchesKey(data, "up") || matchesKey(data, "ctrl+p")) this.move(-1);
    else if (matchesKey(data, "down") || matchesKey(data, "ctrl+n")) this.move(1);
    else if (matchesKey(data, "escape")) this.options.onCancel();
    else if (matchesKey(data, "tab") || matchesKey(data, "enter")) {
      const path = this.selectedPath();
      if (path === null) this.options.onCancel();
      else this.options.onSelect(path);
    } else return false;
    return true;
  }

  invalidate(): void {}

  render(width: number): string[] {
    const t = theme();
    const note = (text: string): string[] => [t.fg("muted", truncateToWidth(`  ${text}`, width, "…"))];
    if (this.index.state === "building") return note("indexing files…");
    if (this.index.state === "failed") return [t.fg("error", truncateToWidth(`  ${this.index.error ?? "file search failed"}`, width, "…"))];
    if (this.matches.length === 0) return note(this.query === "" ? "type part of a file name" : "no matches");
    const rows: string[] = [];
    const end = Math.min(this.matches.length, this.top + this.maxVisible);
    for (let i = this.top; i < end; i++) {
      const match = this.matches[i] as FileMatch;
      const chosen = i === this.selected;
      const marker = chosen ? t.fg("accent", "› ") : "  ";
      rows.push(marker + highlightPath(match, Math.max(1, width - 2), chosen));
    }
    return rows;
  }
}

/**
 * The path with its matched characters highlighted, fitted into `width` columns by dropping
 * characters from the left (the file name matters most), marked with `…`.
 */
export function highlightPath(match: FileMatch, width: number, selected: boolean): string {
  const t = theme();
  const chars = Array.from(match.path);
  // UTF-16 index → code point index, since `indices` count UTF-16 units.
  const hit = new Set<number>();
  let unit = 0;
  const marks = new Set(match.indices);
  chars.forEach((ch, i) => {
    if (marks.has(unit)) hit.add(i);
    unit += ch.length;
  });
  let start = 0;
  if (visibleWidth(match.path) > width) {
    let used = 1; // the ellipsis
    start = chars.length;
    while (start > 0 && used + visibleWidth(chars[start - 1] as string) <= width) used += visibleWidth(chars[--start] as string);
  }
  let out = start > 0 ? t.fg("muted", "…") : "";
  for (let i = start; i < chars.length; i++) {
    const ch = chars[i] as string;
    out += hit.has(i) ? t.bold(t.fg("match", ch)) : ch;
  }
  return selected ? t.bold(out) : out;
}

/** The path as the composer inserts it for a pick: quoted when it holds whitespace or quotes. */
export function mentionText(path: string): string {
  return /[\s"']/.test(path) ? JSON.stringify(path) : path;
}
