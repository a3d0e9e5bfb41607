/**
 * The pieces of pi-tui the UI uses, each imported from its own file. The package's index
 * loads every component it has (images, settings lists, autocomplete, the Markdown component
 * with `marked`), about 25 ms that would come before the first frame; this loads only what the
 * composer and the renderer need. The UI imports pi-tui's values from here (an ESLint rule
 * keeps the index out of src/); type-only imports from the package cost nothing.
 *
 * The Markdown component is the one part loaded later: `loadMarkdown()` runs after the first
 * frame, and the runner awaits it before a thread can send an agent message.
 */
import type { DefaultTextStyle, Markdown, MarkdownTheme } from "@mariozechner/pi-tui";
import { wrapTextWithAnsi } from "@mariozechner/pi-tui/dist/utils.js";

export { Editor } from "@mariozechner/pi-tui/dist/components/editor.js";
export { Input } from "@mariozechner/pi-tui/dist/components/input.js";
export { SelectList } from "@mariozechner/pi-tui/dist/components/select-list.js";
export { matchesKey } from "@mariozechner/pi-tui/dist/keys.js";
export { ProcessTerminal } from "@mariozechner/pi-tui/dist/terminal.js";
export { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui/dist/utils.js";

let markdownComponent: typeof Markdown | null = null;

/** Loads the Markdown component; later calls return at once. */
export async function loadMarkdown(): Promise<void> {
  markdownComponent ??= (await import("@mariozechner/pi-tui/dist/components/markdown.js")).Markdown;
}

/**
 * Markdown rendered to lines of `width`. Before `loadMarkdown()` has finished (which the UI
 * never lets happen) the text is wrapped as it is, so nothing is lost.
 */
export function renderMarkdown(text: string, theme: MarkdownTheme, width: number, style?: DefaultTextStyle): string[] {
  if (!markdownComponent) return text.split("\n").flatMap((line) => wrapTextWithAnsi(line, width));
  return new markdownComponent(text, 0, 0, theme, style).render(width);
}
