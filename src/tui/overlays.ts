/**
 * Overlays that take the keyboard until answered: a list of choices with shortcut keys (the
 * approval questions), a filterable picker (/model, /approvals, backtrack, /review targets, the
 * model's questions), and a one-line text prompt. Each replaces the composer in the live region.
 */
import type { Component, SelectItem } from "@mariozechner/pi-tui";
import { Input, SelectList, matchesKey } from "./pi-tui.js";
import type { Theme } from "./parts/theme.js";
import { prefixed } from "./cells.js";

export interface Overlay extends Component {
  handleInput(data: string): void;
}

export interface Choice<T> {
  /** The key that picks it at once ("y", "a", "n", …); Enter picks the highlighted one. */
  key: string;
  label: string;
  value: T;
}

/**
 * A question with a fixed set of answers: detail lines above, the answers below, one highlighted.
 * `y`/`a`/`n`/… pick directly; Esc (or Ctrl+C) picks `escape` (deny and stop, for approvals).
 */
export class ChoiceOverlay<T> implements Overlay {
  private selected = 0;

  constructor(
    private readonly theme: Theme,
    private readonly title: string,
    private readonly detail: (width: number) => string[],
    private readonly choices: Choice<T>[],
    private readonly escape: T,
    private readonly onPick: (value: T) => void,
  ) {}

  render(width: number): string[] {
    const t = this.theme;
    const lines = [t.dim("─".repeat(width)), ...prefixed(t.fg("warning", "▌ "), "  ", t.bold(this.title), width)];
    for (const l of this.detail(width - 2)) lines.push(`  ${l}`);
    lines.push("");
    this.choices.forEach((c, i) => {
      const label = `${c.label} ${t.dim(`(${c.key})`)}`;
      lines.push(i === this.selected ? t.fg("accent", `› ${i + 1}. `) + t.bold(label) : `  ${i + 1}. ${label}`);
    });
    lines.push(t.dim("  ↑/↓ select · Enter confirm · Esc cancel"));
    return lines;
  }

  handleInput(data: string): void {
    if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) return this.onPick(this.escape);
    if (matchesKey(data, "up")) this.selected = (this.selected + this.choices.length - 1) % this.choices.length;
    else if (matchesKey(data, "down")) this.selected = (this.selected + 1) % this.choices.length;
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
