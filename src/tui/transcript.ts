/**
 * The whole conversation, for Ctrl+T. Scrollback holds each cell as it was drawn, at the width
 * of that moment and with a command's output cut to its tail; the transcript keeps every cell as
 * a function that draws it again, at any width, with everything (a command's whole output).
 *
 * `TranscriptPager` shows it full screen (on the alternate screen, so the conversation returns
 * untouched): Up/Down and PgUp/PgDn scroll, Home/End jump, q, Esc or Ctrl+T close. It opens at
 * the end.
 */
import { matchesKey, truncateToWidth } from "./pi-tui.js";
import type { Theme } from "./parts/theme.js";

export class Transcript {
  private readonly cells: Array<(width: number) => string[]> = [];
  /** The lines of the last `lines()` call, for the same width (the pager asks on every key). */
  private cache: { width: number; count: number; lines: string[] } | null = null;

  add(render: (width: number) => string[]): void {
    this.cells.push(render);
  }

  clear(): void {
    this.cells.length = 0;
    this.cache = null;
  }

  lines(width: number): string[] {
    if (this.cache?.width !== width) this.cache = { width, count: 0, lines: [] };
    for (const render of this.cells.slice(this.cache.count)) this.cache.lines.push(...render(width));
    this.cache.count = this.cells.length;
    return this.cache.lines;
  }
}

export class TranscriptPager {
  /** The first line shown; null: follow the end. */
  private top: number | null = null;
  /** From the last render: lines per page and lines in all. */
  private page = 1;
  private total = 0;

  constructor(
    private readonly theme: Theme,
    private readonly transcript: Transcript,
    private readonly onClose: () => void,
  ) {}

  render(width: number, height: number): string[] {
    const t = this.theme;
    const lines = this.transcript.lines(width);
    this.page = Math.max(1, height - 2);
    this.total = lines.length;
    const last = Math.max(0, lines.length - this.page);
    const top = Math.max(0, Math.min(this.top ?? last, last));
    this.top = top >= last ? null : top;
    const shown = lines.slice(top, top + this.page);
    const where = lines.length === 0 ? "empty" : `lines ${top + 1}–${top + shown.length} of ${lines.length}`;
    const head = t.bold(truncateToWidth(`Transcript · ${where}`, width, "…"));
    const keys = t.dim(truncateToWidth("↑/↓ PgUp/PgDn scroll · Home/End · q or Esc to close", width, "…"));
    return [head, ...shown, ...new Array<string>(this.page - shown.length).fill(""), keys];
  }

  handleInput(data: string): void {
    if (matchesKey(data, "escape") || matchesKey(data, "ctrl+t") || matchesKey(data, "ctrl+c") || data === "q") return this.onClose();
    const top = this.top ?? Math.max(0, this.total - this.page);
    if (matchesKey(data, "up")) this.top = Math.max(0, top - 1);
    else if (matchesKey(data, "down")) this.top = top + 1;
    else if (matchesKey(data, "pageUp")) this.top = Math.max(0, top - this.page);
    else if (matchesKey(data, "pageDown")) this.top = top + this.page;
    else if (matchesKey(data, "home")) this.top = 0;
    else if (matchesKey(data, "end")) this.top = null;
  }
}
