/**
 * The `[tui]` table of config.toml, with the command line's say over it:
 * `alternate_screen` (full-screen view instead of inline; `--alt-screen` / `--no-alt-screen`)
 * and `notifications` (true, false, or the kinds to notify about).
 */
import type { TomlTable } from "../config/overrides.js";

export type NotificationKind = "turn-complete" | "approval-requested";
const ALL_KINDS: NotificationKind[] = ["turn-complete", "approval-requested"];

export interface TuiSettings {
  alternateScreen: boolean;
  notifications: NotificationKind[];
}

export function tuiSettings(toml: TomlTable, flags: { altScreen?: boolean }): TuiSettings {
  const tui = typeof toml.tui === "object" && toml.tui !== null && !Array.isArray(toml.tui) ? (toml.tui as TomlTable) : {};
  // `--alt-screen` / `--no-alt-screen` set altScreen to true / false; absent, the config decides.
  const alternateScreen = flags.altScreen ?? tui.alternate_screen === true;
  const n = tui.notifications;
  const notifications = n === false ? [] : Array.isArray(n) ? ALL_KINDS.filter((k) => n.includes(k)) : ALL_KINDS;
  return { alternateScreen, notifications };
}
