/**
 * The `[tui]` table of config.toml, with the command line's say over it:
 * `alternate_screen` (full-screen view instead of inline; `--alt-screen` / `--no-alt-screen`)
 * `notifications` (true, false, or the events to notify about) and `notification_method` (`auto`,
 * `osc9` or `bel`: how a notification reaches the terminal; see parts/notifications.ts).
 */
import type { TomlTable } from "../config/overrides.js";
import { notificationEvents, notificationMethod, type NotificationEvent, type NotificationMethod } from "./parts/notifications.js";

export interface TuiSettings {
  alternateScreen: boolean;
  notifications: Set<NotificationEvent>;
  notificationMethod: NotificationMethod;
  /** Problems with the table, shown once as warnings. */
  warnings: string[];
}

export function tuiSettings(toml: TomlTable, flags: { altScreen?: boolean }): TuiSettings {
  const tui = typeof toml.tui === "object" && toml.tui !== null && !Array.isArray(toml.tui) ? (toml.tui as TomlTable) : {};
  const warnings: string[] = [];
  if (tui.alternate_screen !== undefined && typeof tui.alternate_screen !== "boolean") warnings.push("tui.alternate_screen must be true or false; using false");
  // `--alt-screen` / `--no-alt-screen` set altScreen to true / false; absent, the config decides.
  const alternateScreen = flags.altScreen ?? tui.alternate_screen === true;
  const { events, warning } = notificationEvents(tui.notifications);
  if (warning) warnings.push(warning);
  const method = notificationMethod(tui.notification_method);
  if (method.warning) warnings.push(method.warning);
  return { alternateScreen, notifications: events, notificationMethod: method.method, warnings };
}
