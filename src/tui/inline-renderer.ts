/**
 * The inline renderer: the terminal keeps its own scrollback. Finished history cells are written
 * once above the live region and scroll away into the terminal's scrollback, never to be redrawn;
 * only the live region (the streaming cell, the status line, the composer, an overlay) is
 * repainted, line by line where it changed, inside one synchronized-output frame (CSI ?2026h/l),
 * so a keystroke costs the same however long the conversation is.
 *
 * The renderer tracks where the terminal's cursor is relative to the live region's first row; it
 * never moves above that row, so nothing already in scrollback is touched.
 *
 * No row ends in padding: a terminal made narrower re-wraps the rows it holds, and trailing
 * spaces would come back as extra rows (blank ones, in the scrollback for good). A row wider than
 * the terminal is cut with "…". A full-screen view (the transcript pager) is drawn on the
 * alternate screen, so the inline conversation comes back untouched when it closes.
 */
import { truncateToWidth, visibleWidth } from "./pi-tui.js";

export interface Screen {
  write(data: string): void;
  readonly columns: number;
  readonly rows: number;
}

/** Where to leave the terminal's cursor inside the live region (row from its top, column). */
export interface CursorSpot {
  row: number;
  col: number;
}

const SYNC_ON = "\x1b[?2026h";
const SYNC_OFF = "\x1b[?2026l";
const CLEAR_LINE = "\x1b[2K";
const CLEAR_BELOW = "\x1b[J";
const ALT_SCREEN_ON = "\x1b[?1049h";
const ALT_SCREEN_OFF = "\x1b[?1049l";
/** Stands for a row that still shows old content; never equal to a rendered row. */
const STALE_ROW = "\u0000stale";

export class InlineRenderer {
  private previous: string[] = [];
  /** The cursor's row, counted from the live region's first row. */
  private cursorRow = 0;
  private cursorCol = 0;
  private width: number;
  /** After close() nothing is drawn any more (a render queued before exit must not reappear). */
  private closed = false;
  /** A full-screen view is shown on the alternate screen. */
  private fullScreen = false;

  /** `alternateScreen`: the whole UI already runs on the alternate screen (`--alt-screen`). */
  constructor(
    private readonly screen: Screen,
    private readonly alternateScreen = false,
  ) {
    this.width = screen.columns;
  }

  /**
   * Writes finished lines above the live region (they go to scrollback for good) and paints the
   * live region below them, in one frame.
   */
  commit(lines: readonly string[], live: readonly string[], cursor?: CursorSpot): void {
    if (this.closed) return;
    // Each row is overwritten in place rather than clearing the screen below the live region
    // first: when the live region starts at the top-left corner (a fresh or cleared terminal, or
    // an overlay as tall as the screen), "clear below" clears the whole screen, which tmux (and
    // terminals with a scroll-on-clear setting) answer by pushing the old rows into scrollback,
    // leaving a stray copy of the composer above the transcript.
    const staleRows = this.previous.length - lines.length;
    let out = SYNC_ON + this.moveTo(0) + "\r";
    for (const line of lines) out += CLEAR_LINE + this.fit(line) + "\r\n";
    // Rows of the old live region not covered by the committed lines count as drawn-but-stale,
    // so frame() repaints over them and clears what is left from below its own first row.
    this.previous = staleRows > 0 ? new Array<string>(staleRows).fill(STALE_ROW) : [];
    this.cursorRow = 0;
    out += this.frame(live, cursor);
    this.screen.write(out + SYNC_OFF);
  }

  /** Repaints the live region, rewriting only the rows from the first one that changed. */
  paint(live: readonly string[], cursor?: CursorSpot): void {
    if (this.closed) return;
    const body = this.frame(live, cursor);
    if (body !== "") this.screen.write(SYNC_ON + body + SYNC_OFF);
  }

  /**
   * After a resize the terminal may have reflowed the rows we drew: estimate how many rows the
   * old live region now spans above the cursor, clear from there and draw it afresh.
   */
  resize(live: readonly string[], cursor?: CursorSpot): void {
    // A full-screen view is simply drawn again; the live region comes back when it closes.
    if (this.closed || this.fullScreen) return;
    const columns = Math.max(1, this.screen.columns);
    let rowsAbove = 0;
    // Rows carry no padding, so a row's text is what the terminal re-wraps.
    for (let i = 0; i < this.cursorRow && i < this.previous.length; i++) {
      rowsAbove += Math.max(1, Math.ceil(visibleWidth(this.previous[i] ?? "") / columns));
    }
    rowsAbove = Math.min(rowsAbove, Math.max(0, this.screen.rows - 1));
    this.width = this.screen.columns;
    let out = SYNC_ON + (rowsAbove > 0 ? `\x1b[${rowsAbove}A` : "") + "\r" + CLEAR_BELOW;
    this.previous = [];
    this.cursorRow = 0;
    out += this.frame(live, cursor);
    this.screen.write(out + SYNC_OFF);
  }

  /**
   * Shows `lines` as the whole screen (at most the screen's height), on the alternate screen so
   * the conversation stays as it was underneath.
   */
  showFullScreen(lines: readonly string[]): void {
    if (this.closed) return;
    let out = SYNC_ON;
    if (!this.fullScreen) {
      // The live region is cleared first, so the main screen holds only finished cells while the
      // view is up: a resize meanwhile re-wraps nothing that must be found and cleared later, and
      // coming back starts on the empty row where the live region began.
      out += this.moveTo(0) + "\r" + CLEAR_BELOW + (this.alternateScreen ? "" : ALT_SCREEN_ON);
      this.previous = [];
      this.cursorRow = 0;
      this.cursorCol = 0;
    }
    out += "\x1b[H";
    this.fullScreen = true;
    this.width = this.screen.columns;
    lines.slice(0, this.screen.rows).forEach((line, i) => (out += (i > 0 ? "\r\n" : "") + CLEAR_LINE + this.fit(line)));
    this.screen.write(out + CLEAR_BELOW + SYNC_OFF);
  }

  /**
   * Leaves the full-screen view: the conversation is back as it was and the live region is
   * drawn again. When the UI runs on the alternate screen itself there is nothing underneath to
   * return to, so the caller gets `false` and redraws what it wants to show.
   */
  leaveFullScreen(live: readonly string[]): boolean {
    if (!this.fullScreen) return true;
    this.fullScreen = false;
    if (this.alternateScreen) {
      this.screen.write("\x1b[H\x1b[2J");
      this.previous = [];
      this.cursorRow = 0;
      this.commit([], live);
      return false;
    }
    // Back on the row where the live region began (it was cleared before leaving).
    this.screen.write(ALT_SCREEN_OFF + "\r");
    this.width = this.screen.columns;
    this.screen.write(SYNC_ON + this.frame(live) + SYNC_OFF);
    return true;
  }

  get showingFullScreen(): boolean {
    return this.fullScreen;
  }

  /**
   * Clears the screen and the terminal's scrollback (for a redraw of the whole conversation);
   * the next commit draws from the top-left corner.
   */
  clearAll(): void {
    if (this.closed) return;
    this.screen.write(`${SYNC_ON}\x1b[H\x1b[2J\x1b[3J${SYNC_OFF}`);
    this.previous = [];
    this.cursorRow = 0;
    this.cursorCol = 0;
  }

  /** Clears the live region for good, leaving the cursor where it began (on exit). */
  close(): void {
    if (this.closed) return;
    if (this.fullScreen) this.screen.write(this.alternateScreen ? "" : ALT_SCREEN_OFF);
    this.fullScreen = false;
    this.screen.write(this.moveTo(0) + "\r" + CLEAR_BELOW);
    this.previous = [];
    this.cursorRow = 0;
    this.closed = true;
  }

  get columns(): number {
    return this.screen.columns;
  }

  /** The live region as last painted (tests and the benchmark read it). */
  get lines(): readonly string[] {
    return this.previous;
  }

  private frame(liveIn: readonly string[], cursor?: CursorSpot): string {
    // A live region taller than the screen could not be repainted without touching rows that
    // have scrolled off; keep its bottom part, where the composer is.
    const maxRows = Math.max(1, this.screen.rows - 1);
    const clip = Math.max(0, liveIn.length - maxRows);
    const live = liveIn.slice(clip).map((l) => this.fit(l));
    const target = cursor ? { row: Math.min(Math.max(0, cursor.row - clip), live.length - 1), col: cursor.col } : { row: live.length - 1, col: 0 };
    let first = 0;
    while (first < live.length && first < this.previous.length && live[first] === this.previous[first]) first++;
    const unchanged = first === live.length && live.length === this.previous.length;
    if (unchanged && live.length > 0 && target.row === this.cursorRow && target.col === this.cursorCol) return "";
    let out = "";
    if (!unchanged) {
      if (first < live.length) {
        out += this.moveTo(first) + "\r";
        for (let i = first; i < live.length; i++) {
          if (i > first) out += "\r\n";
          out += CLEAR_LINE + live[i];
        }
        this.cursorRow = live.length - 1;
      }
      if (live.length < this.previous.length) {
        // Rows below the new end existed before, so moving into them does not scroll.
        out += live.length === 0 ? this.moveTo(0) + "\r" + CLEAR_BELOW : this.moveTo(live.length) + "\r" + CLEAR_BELOW;
        if (live.length > 0) out += this.moveTo(live.length - 1);
      }
      this.previous = live;
    }
    if (live.length > 0) {
      const row = Math.min(Math.max(0, target.row), live.length - 1);
      out += this.moveTo(row) + "\r" + (target.col > 0 ? `\x1b[${target.col}C` : "");
      this.cursorCol = target.col;
    }
    return out;
  }

  /** Cursor movement from the current row to `row` of the live region (both already drawn). */
  private moveTo(row: number): string {
    const delta = row - this.cursorRow;
    this.cursorRow = row;
    if (delta > 0) return `\x1b[${delta}B`;
    if (delta < 0) return `\x1b[${-delta}A`;
    return "";
  }

  /** A row never wider than the terminal (so it never wraps it behind our back), without padding. */
  private fit(line: string): string {
    const row = line.replace(/ +$/, "");
    return visibleWidth(row) > this.width ? truncateToWidth(row, this.width, "…") : row;
  }
}
