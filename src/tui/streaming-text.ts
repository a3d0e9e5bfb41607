/**
 * An agent message that is still arriving. Whole paragraphs (text up to a blank line outside a
 * code fence) are handed out as soon as they are complete, so they can be committed to
 * scrollback while the rest streams; only the unfinished paragraph stays in the live region,
 * which keeps a long answer from making every token cost more than the last.
 *
 * A stream can also end early (an interrupt, an error: `cut()` keeps whole lines and whole
 * words, marked with "…") or start over (a retried request streams the answer again from its
 * beginning: `restart()`, after which the part already shown is not shown twice).
 */
export class StreamingText {
  private text = "";
  private committed = 0;
  /** Code fences opened or closed in the text handed out so far. */
  private fencesCommitted = 0;
  /** Whether any delta arrived (a message without deltas is drawn whole when it ends). */
  started = false;
  /** After a restart: the text already shown, which the new attempt is expected to repeat. */
  private replay: string | null = null;

  append(delta: string): void {
    this.text += delta;
    this.started = true;
    if (this.replay === null) return;
    if (this.replay.startsWith(this.text)) {
      // Still repeating what is on screen: nothing new to show.
      this.committed = this.text.length;
    } else if (this.text.startsWith(this.replay)) {
      this.committed = this.replay.length;
      this.replay = null;
    } else {
      // The new attempt says something else: it goes on after what was shown.
      this.committed = 0;
      this.fencesCommitted = 0;
      this.replay = null;
    }
  }

  /** The request is being sent again and its answer will stream from the start. */
  restart(): void {
    if (!this.started) return;
    this.replay = this.text.slice(0, this.committed);
    this.text = "";
    this.committed = 0;
  }

  /**
   * The rest of a stream that ends here, cut at a clean point: whole lines, then the whole words
   * of an unfinished line followed by "…" (a word still being written is dropped). The stream is
   * reset.
   */
  cut(): string {
    const rest = this.replay === null ? this.pending() : "";
    this.finish("");
    const end = rest.lastIndexOf("\n");
    const lines = rest.slice(0, end + 1);
    const words = rest.slice(end + 1).replace(/\S*$/, "").trimEnd();
    return words === "" ? lines : `${lines}${words} …`;
  }

  /** The complete paragraphs not handed out yet, or null when none finished since last time. */
  takeStable(): string | null {
    if (this.replay !== null) return null;
    let fences = this.fencesCommitted;
    let boundary = -1;
    let fencesAtBoundary = fences;
    let i = this.committed;
    for (;;) {
      const next = this.text.indexOf("\n", i);
      if (next < 0) break;
      const line = this.text.slice(i, next);
      if (/^\s*(```|~~~)/.test(line)) fences++;
      if (line.trim() === "" && fences % 2 === 0 && next > this.committed) {
        boundary = next + 1;
        fencesAtBoundary = fences;
      }
      i = next + 1;
    }
    if (boundary <= this.committed) return null;
    const part = this.text.slice(this.committed, boundary);
    this.committed = boundary;
    this.fencesCommitted = fencesAtBoundary;
    return part.trim() === "" ? null : part;
  }

  /** What has arrived but not been handed out. */
  pending(): string {
    return this.replay === null ? this.text.slice(this.committed) : "";
  }

  /** Whether a paragraph was already handed out (later parts continue the same cell). */
  get hasCommitted(): boolean {
    return this.committed > 0;
  }

  /** The rest of the final message (`full` is the complete text the model sent). */
  finish(full: string): string {
    const shown = this.replay ?? this.text.slice(0, this.committed);
    const rest = full.startsWith(shown) ? full.slice(shown.length) : full;
    this.text = "";
    this.committed = 0;
    this.fencesCommitted = 0;
    this.started = false;
    this.replay = null;
    return rest;
  }
}
