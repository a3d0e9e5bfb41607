/**
 * Overlays that take the keyboard until answered: a list of choices with shortcut keys (the
 * approval questions), a filterable picker (/model, /permissions, backtrack, /review targets, the
 * model's questions), and a one-line text prompt. Each replaces the composer in the live region,
 * and fits the height it is given.
 */
import type { Component, SelectItem } from "@mariozechner/pi-tui";
import { Input, SelectList, matchesKey, truncateToWidth } from "./pi-tui.js";
import type { Theme } from "./parts/theme.js";
import { prefixed } from "./cells.js";

export interface Overlay extends Component {
  handleInput(data: string): void;
  /**
   * `maxHeight`: the rows the overlay may take (the screen less the status line). An overlay
   * that needs more keeps what it asks and its answers in view and scrolls the rest.
   */
  render(width: number, maxHeight?: number): string[];
}

export interface Choice<T> {
  /** The key that picks it at once ("y", "a", "n", …); Enter picks the highlighted one. */
  key: string;
  label: string;
  value: T;
}

/** What a question shows between its title and its answers, drawn at the overlay's inner width. */
export interface QuestionDetail {
  /** Always shown, under the title (the files a patch touches). */
  top?: (width: number) => string[];
  /** Scrolls inside the overlay when the screen is too short for it (a diff, a long command). */
  body?: (width: number) => string[];
  /** Always shown, under the body (the directory, the model's reason). */
  bottom?: (width: number) => string[];
  /** What Esc does, in the key hint: "stop" (an approval stops the turn) unless told. */
  escape?: string;
}

/**
 * A question with a fixed set of answers: the title, its detail, the answers (one highlighted)
 * and a key hint. `y`/`a`/`n`/… pick directly; Esc (or Ctrl+C) picks `escape`. On a short screen
 * the title, the fixed detail and the answers stay; the body scrolls (PgUp/PgDn, Home/End).
 */
export class ChoiceOverlay<T> implements Overlay {
  private selected = 0;
  /** The body's first row shown. */
  private scroll = 0;
  /** How many body rows were shown last time (what PgUp/PgDn move by). */
  private page = 0;

  constructor(
    private readonly theme: Theme,
    private readonly title: string,
    private readonly detail: QuestionDetail,
    private readonly choices: Choice<T>[],
    private readonly escape: T,
    private readonly onPick: (value: T) => void,
  ) {}

  render(width: number, maxHeight = Number.POSITIVE_INFINITY): string[] {
    const t = this.theme;
    const inner = Math.max(10, width - 2);
    const indent = (lines: string[]): string[] => lines.map((l) => `  ${l}`);
    const head = [t.dim("─".repeat(width)), ...prefixed(t.fg("warning", "▌ "), "  ", t.bold(this.title), width), ...indent(this.detail.top?.(inner) ?? [])];
    const bottom = indent(this.detail.bottom?.(inner) ?? []);
    const answers = this.choices.map((c, i) => {
      const label = `${c.label} ${t.dim(`(${c.key})`)}`;
      const row = i === this.selected ? t.fg("accent", `› ${i + 1}. `) + t.bold(label) : `  ${i + 1}. ${label}`;
      return truncateToWidth(row, width, "…");
    });
    const body = indent(this.detail.body?.(inner) ?? []);
    const scrolls = head.length + body.length + bottom.length + answers.length + 2 > maxHeight;
    const hint = t.dim(truncateToWidth(`  ↑/↓ select · Enter confirm · Esc ${this.detail.escape ?? "stop"}${scrolls ? " · PgUp/PgDn scroll" : ""}`, width, "…"));
    return [...head, ...this.window(body, maxHeight - head.length - bottom.length - answers.length - 2), ...bottom, "", ...answers, hint];
  }

  /** The body rows that fit in `room`, with a line saying where the view is when some are hidden. */
  private window(body: string[], room: number): string[] {
    // Everything fits (also when the caller only measures): the scroll position is kept for later.
    if (body.length <= room) return body;
    const rows = Math.max(0, room - 1);
    this.page = Math.max(1, rows);
    this.scroll = Math.max(0, Math.min(this.scroll, body.length - rows));
    const shown = body.slice(this.scroll, this.scroll + rows);
    const where = rows === 0 ? `${body.length} lines hidden` : `lines ${this.scroll + 1}–${this.scroll + shown.length} of ${body.length}`;
    return [...shown, this.theme.dim(`  … ${where} (PgUp/PgDn)`)];
  }

  handleInput(data: string): void {
    if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) return this.onPick(this.escape);
    if (matchesKey(data, "up")) this.selected = (this.selected + this.choices.length - 1) % this.choices.length;
    else if (matchesKey(data, "down")) this.selected = (this.selected + 1) % this.choices.length;
    else if (matchesKey(data, "pageUp")) this.scroll = Math.max(0, this.scroll - this.page);
    else if (matchesKey(data, "pageDown")) this.scroll += this.page;
    else if (matchesKey(data, "home")) this.scroll = 0;
    else if (matchesKey(data, "end")) this.scroll = Number.MAX_SAFE_INTEGER;
    else if (matchesKey(data, "enter")) {
      const c = this.choices[this.selected];
      if (c) this.onPick(c.value);
    } else {
      const c = this.choices.find((x) => x.key === data.toLowerCase());
      if (c) this.onPick(c.value);
    }
  }

  invalidate(): void {}
}

/** A titled, filterable list: typing narrows it, Enter picks, Esc cancels (null). */
export class PickerOverlay implements Overlay {
  private readonly list: SelectList;
  private filter = "";

  constructor(
    private readonly theme: Theme,
    private readonly title: string,
    items: SelectItem[],
    private readonly onPick: (item: SelectItem | null) => void,
    private readonly hint = "type to filter · ↑/↓ select · Enter confirm · Esc cancel",
  ) {
    this.list = new SelectList(items, 10, {
      selectedPrefix: (s) => theme.fg("accent", s),
      selectedText: (s) => theme.bold(theme.fg("accent", s)),
      description: (s) => theme.dim(s),
      scrollInfo: (s) => theme.dim(s),
      noMatch: (s) => theme.dim(s),
    });
    this.list.onSelect = (item) => this.onPick(item);
    this.list.onCancel = () => this.onPick(null);
  }

  render(width: number): string[] {
    const t = this.theme;
    const head = [t.dim("─".repeat(width)), `${t.fg("accent", "▌ ")}${t.bold(this.title)}${this.filter ? t.dim(`  filter: ${this.filter}`) : ""}`];
    return [...head, ...this.list.render(width), t.dim(`  ${this.hint}`)];
  }

  handleInput(data: string): void {
    if (matchesKey(data, "backspace")) {
      this.filter = this.filter.slice(0, -1);
      this.list.setFilter(this.filter);
    } else if (data.length === 1 && data >= " " && data !== "\x7f") {
      this.filter += data;
      this.list.setFilter(this.filter);
    } else {
      this.list.handleInput(data);
    }
  }

  invalidate(): void {
    this.list.invalidate();
  }
}

/** One line of free text (an "Other" answer, /prompts arguments): Enter submits, Esc cancels (null). */
export class TextPromptOverlay implements Overlay {
  private readonly input = new Input();

  constructor(
    private readonly theme: Theme,
    private readonly title: string,
    private readonly onDone: (text: string | null) => void,
  ) {
    this.input.onSubmit = (text) => this.onDone(text);
    this.input.focused = true;
  }

  render(width: number): string[] {
    return [this.theme.dim("─".repeat(width)), `${this.theme.fg("accent", "▌ ")}${this.theme.bold(this.title)}`, ...this.input.render(width)];
  }

  handleInput(data: string): void {
    if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) return this.onDone(null);
    this.input.handleInput(data);
  }

  invalidate(): void {
    this.input.invalidate();
  }
}
