/**
 * Markdown as the UI draws it: pi-tui's Markdown component, plus three things it does not do
 * the way a terminal transcript wants:
 * - GFM task list items (`- [ ] x`, `- [x] y`) show a box, ☐ or ☑ (pi-tui drops the box);
 * - code fences are not printed: the code is set off by its indent and its colours;
 * - no line is padded with spaces to the width (pi-tui pads every line), since a terminal made
 *   narrower later re-wraps trailing spaces into extra blank rows.
 */
import type { DefaultTextStyle, MarkdownTheme } from "@mariozechner/pi-tui";
import { renderMarkdown } from "./pi-tui.js";
import { stripAnsi } from "./parts/theme.js";

/** What the theme draws for a fence line; such lines are then left out (a private-use character). */
export const FENCE_LINE = "\ue000";

const FENCE = /^\s*(```|~~~)/;
const TASK_ITEM = /^(\s*(?:[-*+]|\d+[.)])\s+)\[([ xX])\](?=\s)/;

/** `text` rendered at `width`: lines without trailing padding, fences left out. */
export function markdownLines(text: string, theme: MarkdownTheme, width: number, style?: DefaultTextStyle): string[] {
  const lines = renderMarkdown(withTaskBoxes(text), { ...theme, codeBlockBorder: () => FENCE_LINE }, width, style);
  return lines.filter((line) => stripAnsi(line).trim() !== FENCE_LINE).map(trimPadding);
}

/** Task list boxes written as characters, so they survive parsing (code blocks left alone). */
export function withTaskBoxes(text: string): string {
  let inFence = false;
  return text
    .split("\n")
    .map((line) => {
      if (FENCE.test(line)) inFence = !inFence;
      if (inFence) return line;
      return line.replace(TASK_ITEM, (_m, lead: string, mark: string) => `${lead}${mark === " " ? "☐" : "☑"}`);
    })
    .join("\n");
}

/** A line without the spaces after its last visible character (escape sequences after them stay). */
export function trimPadding(line: string): string {
  return line.replace(/ +$/, "");
}
