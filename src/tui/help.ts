/**
 * What `?` shows on an empty composer: the keys of the composer and of a running turn, and
 * where the rest is (the `/` list). Any key closes it.
 */
import { truncateToWidth, visibleWidth } from "./pi-tui.js";
import type { Theme } from "./parts/theme.js";

const KEYS: Array<[string, string]> = [
  ["Enter", "send; while a turn runs, add the message to it"],
  ["Shift+Enter, Ctrl+J", "new line"],
  ["/", "commands (/model, /permissions, /review, /status, …)"],
  ["@", "mention a file"],
  ["!cmd", "run cmd in your shell"],
  ["Up / Down", "earlier prompts"],
  ["Esc", "interrupt the turn; Esc Esc edits an earlier message"],
  ["Ctrl+T", "transcript: the whole conversation, every output"],
  ["Ctrl+G", "edit the message in $VISUAL / $EDITOR"],
  ["Ctrl+C", "clear; interrupt; twice to quit"],
  ["Ctrl+D", "quit"],
];

export function helpLines(theme: Theme, width: number): string[] {
  const keyWidth = Math.max(...KEYS.map(([key]) => visibleWidth(key)));
  const rows = KEYS.map(([key, what]) => truncateToWidth(`  ${theme.fg("accent", key.padEnd(keyWidth))}  ${what}`, width, "…"));
  return [theme.dim("─".repeat(width)), theme.bold("Keys"), ...rows, theme.dim("  press any key to close")];
}
