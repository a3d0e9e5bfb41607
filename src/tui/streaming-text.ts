/**
 * An agent message that is still arriving. Whole paragraphs (text up to a blank line outside a
 * code fence) are handed out as soon as they are complete, so they can be committed to
 * scrollback while the rest streams; only the unfinished paragraph stays in the live region,
 * which keeps a long answer from making every token cost more than the last.
 */
export class StreamingText {
  private text = "";
  private committed = 0;
  /** Code fences opened or closed in the text handed out so far. */
  private fencesCommitted = 0;
  /** Whether any delta arrived (a message without deltas is drawn whole when it ends). */
  started = false;

  append(delta: string): void {
    this.text += delta;
    this.started = true;
  }

  /** The complete paragraphs not handed out yet, or null when none finished since last time. */
  takeStable(): string | null {
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
    return this.text.slice(this.committed);
  }

  /** Whether a paragraph was already handed out (later parts continue the same cell). */
  get hasCommitted(): boolean {
    return this.committed > 0;
  }

  /** The rest of the final message (`full` is the complete text the model sent). */
  finish(full: string): string {
    const rest = full.startsWith(this.text.slice(0, this.committed)) ? full.slice(this.committed) : full;
    this.text = "";
    this.committed = 0;
    this.fencesCommitted = 0;
    this.started = false;
    return rest;
  }
}
