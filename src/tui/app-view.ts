/**
 * What the app draws, and where: finished cells go to scrollback once (and into the transcript,
 * which can draw them again for Ctrl+T); the live region shows the running turn, the status
 * line and either the composer or the question on top of the overlay stack.
 *
 * A question too tall for the inline region (a long diff), and the transcript pager, are drawn
 * full screen on the alternate screen instead: the live region then stays small, so a resize
 * that re-wraps it cannot push stale copies of it into the scrollback, and the conversation
 * comes back untouched when they close. Cells that finish meanwhile wait until then.
 */
import type { Theme } from "./parts/theme.js";
import type { InlineRenderer } from "./inline-renderer.js";
import type { Overlay } from "./overlays.js";
import { Transcript, TranscriptPager } from "./transcript.js";

/** The parts of the live region the app supplies, drawn at a width. */
export interface LiveParts {
  /** The running turn: streaming answer, running commands… */
  turn(width: number): string[];
  status(width: number): string[];
  /** The composer and its key hints, shown when no question is open. */
  composer(width: number): string[];
}

/** An inline question may take at most this share of the screen's rows; a taller one goes full screen. */
const INLINE_SHARE = 0.6;

export class AppView {
  private readonly overlays: Overlay[] = [];
  private pager: TranscriptPager | null = null;
  private readonly transcript = new Transcript();
  private pendingCommit: string[] = [];
  private renderQueued = false;

  constructor(
    private readonly renderer: InlineRenderer,
    private readonly theme: Theme,
    private readonly rows: () => number,
    private readonly parts: LiveParts,
  ) {}

  get width(): number {
    return Math.max(20, this.renderer.columns);
  }

  /**
   * A finished cell: drawn now into scrollback, and kept for the transcript, which draws it again
   * (with `full` when it shows more there, e.g. a command's whole output).
   */
  commit(render: (width: number) => string[], full: (width: number) => string[] = render): void {
    this.transcript.add(full);
    this.pendingCommit.push(...render(this.width));
    this.requestRender();
  }

  /** What takes the keys: the pager, else the question on top, else nothing (the composer). */
  get keyTarget(): { handleInput(data: string): void } | null {
    return this.pager ?? this.overlays[0] ?? null;
  }

  get hasOverlay(): boolean {
    return this.overlays.length > 0;
  }

  open(overlay: Overlay): void {
    this.overlays.push(overlay);
    this.requestRender();
  }

  close(overlay: Overlay): void {
    const i = this.overlays.indexOf(overlay);
    if (i >= 0) this.overlays.splice(i, 1);
    this.requestRender();
  }

  /** Shows a component that takes the keyboard until it calls `done`; resolves with its answer. */
  present<T>(make: (done: (value: T) => void) => Overlay): Promise<T> {
    return new Promise((resolve) => {
      const overlay = make((value) => {
        this.close(overlay);
        resolve(value);
      });
      this.open(overlay);
    });
  }

  /** Clears the terminal and the transcript, for a redraw of the whole conversation (after a backtrack). */
  clearAll(): void {
    this.transcript.clear();
    this.pendingCommit = [];
    this.renderer.clearAll();
  }

  /** Questions of a thread that is no longer shown are dropped. */
  clearOverlays(): void {
    this.overlays.length = 0;
  }

  openTranscript(): void {
    this.pager = new TranscriptPager(this.theme, this.transcript, () => {
      this.pager = null;
      this.requestRender();
    });
    this.requestRender();
  }

  requestRender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    setImmediate(() => {
      this.renderQueued = false;
      this.renderNow();
    });
  }

  /** Paints now: the full-screen view, or the committed cells and the live region. */
  renderNow(): void {
    const full = this.fullScreenView();
    if (full !== null) return this.renderer.showFullScreen(full);
    if (this.renderer.showingFullScreen) this.leaveFullScreen();
    const live = this.liveLines();
    if (this.pendingCommit.length > 0) {
      const lines = this.pendingCommit;
      this.pendingCommit = [];
      this.renderer.commit(lines, live);
    } else {
      this.renderer.paint(live);
    }
  }

  /** The live region, top to bottom. */
  liveLines(): string[] {
    const w = this.width;
    const status = this.parts.status(w);
    const overlay = this.overlays[0];
    // A question keeps what it asks and its answers in view: it gets the screen less the status line.
    const bottom = overlay ? overlay.render(w, Math.max(4, this.rows() - 1 - status.length)) : this.parts.composer(w);
    return [...this.parts.turn(w), ...status, ...bottom];
  }

  private fullScreenView(): string[] | null {
    const w = this.width;
    const rows = this.rows();
    if (this.pager) return this.pager.render(w, rows);
    const overlay = this.overlays[0];
    if (!overlay || overlay.render(w).length <= Math.floor(rows * INLINE_SHARE)) return null;
    return overlay.render(w, rows);
  }

  private leaveFullScreen(): void {
    if (this.renderer.leaveFullScreen(this.liveLines())) return;
    // The UI runs on the alternate screen itself: show the conversation's end again above the
    // live region (the transcript has the cells that waited too).
    const room = Math.max(0, this.rows() - 1 - this.liveLines().length);
    this.pendingCommit = this.transcript.lines(this.width).slice(-room);
  }
}
