/**
 * A bounded text buffer for process output: it keeps the first `headCap` and the last `tailCap`
 * UTF-16 code units and counts what fell out of the middle, so a command that prints gigabytes
 * cannot exhaust memory while the start and the end (usually the interesting parts) survive.
 * Cuts never separate the two halves of a surrogate pair.
 */

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

export class HeadTailText {
  private head: string[] = [];
  private headLength = 0;
  private tail: string[] = [];
  private tailLength = 0;
  private omittedUnits = 0;

  constructor(
    private readonly headCap: number,
    private readonly tailCap: number,
  ) {}

  /** Code units dropped from the middle so far. */
  get omitted(): number {
    return this.omittedUnits;
  }

  get isEmpty(): boolean {
    return this.headLength === 0 && this.tailLength === 0 && this.omittedUnits === 0;
  }

  push(text: string): void {
    if (text.length === 0) return;
    let rest = text;
    const room = this.headCap - this.headLength;
    if (room > 0 && this.tailLength === 0 && this.omittedUnits === 0) {
      let take = Math.min(room, rest.length);
      if (take < rest.length && take > 0 && isHighSurrogate(rest.charCodeAt(take - 1))) take--;
      if (take > 0) {
        this.head.push(rest.slice(0, take));
        this.headLength += take;
        rest = rest.slice(take);
      }
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    this.trimTail();
  }

  private trimTail(): void {
    while (this.tailLength > this.tailCap && this.tail.length > 0) {
      const front = this.tail[0] ?? "";
      const excess = this.tailLength - this.tailCap;
      if (front.length <= excess) {
        this.tail.shift();
        this.tailLength -= front.length;
        this.omittedUnits += front.length;
        continue;
      }
      let cut = excess;
      if (isLowSurrogate(front.charCodeAt(cut))) cut++;
      this.tail[0] = front.slice(cut);
      this.tailLength -= cut;
      this.omittedUnits += cut;
      break;
    }
  }

  /** The kept text; `marker` renders the gap when something was dropped. */
  toString(marker?: (omitted: number) => string): string {
    const gap = this.omittedUnits > 0 && marker ? marker(this.omittedUnits) : "";
    return this.head.join("") + gap + this.tail.join("");
  }

  /** Returns the kept text and empties the buffer. */
  drain(marker?: (omitted: number) => string): string {
    const text = this.toString(marker);
    this.head = [];
    this.headLength = 0;
    this.tail = [];
    this.tailLength = 0;
    this.omittedUnits = 0;
    return text;
  }
}
