/**
 * One hooks definition as written: a `hooks.json` file (`{"hooks": {"<Event>": [groups]}}`) or
 * the `[hooks]` table of a config.toml (`[[hooks.PreToolUse]]`, its `state` sub-table aside).
 * Each event holds matcher groups, each group a list of handlers; positions are kept (a skipped
 * handler still takes its index) because a hook's saved state is keyed by them.
 *
 * A part that does not fit is skipped with a warning naming the file and the part; the rest of
 * the file still loads.
 */
import { HOOK_EVENTS, type HookEventName } from "../protocol/hook-events.js";
import { didYouMean } from "../util/nearest.js";

/** A command handler as written; `timeoutSec` null when the file gives none. */
export interface HookHandlerSpec {
  command: string;
  timeoutSec: number | null;
  async: boolean;
  statusMessage: string | null;
  /** Optional fields the reference also hashes when present (`additionalContextLimit`). */
  extra: Record<string, number>;
}

export interface MatcherGroupSpec {
  matcher: string | null;
  /** By position; null where a handler was skipped. */
  handlers: Array<HookHandlerSpec | null>;
}

export type HookEventsSpec = Map<HookEventName, MatcherGroupSpec[]>;

const EVENT_NAMES: readonly string[] = HOOK_EVENTS.map((e) => e.name);
/** Keys a hooks.json may have at its top level (the reference refuses any other). */
const FILE_KEYS = ["hooks", "description"];
/** Keys of `[hooks]` in config.toml that are not events. */
const TABLE_KEYS = ["state"];
/** Handler kinds the reference knows but does not run. */
const UNSUPPORTED_KINDS = ["prompt", "agent", "mcp_tool"];

/** Parses a hooks.json file's text; `warnings` gets what was skipped. */
export function parseHooksJson(path: string, text: string, warnings: string[]): HookEventsSpec {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    warnings.push(`failed to parse hooks config ${path}: ${(err as Error).message}`);
    return new Map();
  }
  if (!isObject(parsed)) {
    warnings.push(`failed to parse hooks config ${path}: expected an object with a "hooks" key`);
    return new Map();
  }
  const unknown = Object.keys(parsed).filter((k) => !FILE_KEYS.includes(k));
  if (unknown.length > 0) {
    warnings.push(`failed to parse hooks config ${path}: unknown field \`${unknown[0]}\`, expected \`hooks\` or \`description\``);
    return new Map();
  }
  if (parsed.hooks === undefined) return new Map();
  return parseEvents(path, parsed.hooks, [], warnings);
}

/** Parses the `[hooks]` table of a config file (its `state` table is not an event). */
export function parseHooksTable(path: string, table: unknown, warnings: string[]): HookEventsSpec {
  if (table === undefined) return new Map();
  return parseEvents(path, table, TABLE_KEYS, warnings);
}

function parseEvents(path: string, value: unknown, ignoredKeys: readonly string[], warnings: string[]): HookEventsSpec {
  const events: HookEventsSpec = new Map();
  if (!isObject(value)) {
    warnings.push(`failed to parse hooks in ${path}: \`hooks\` must be a table of events, found ${describe(value)}`);
    return events;
  }
  for (const [name, groups] of Object.entries(value)) {
    if (ignoredKeys.includes(name)) continue;
    if (!isEventName(name)) {
      warnings.push(`unknown hook event \`${name}\` in ${path}${didYouMean(name, EVENT_NAMES)}; known events: ${EVENT_NAMES.join(", ")}`);
      continue;
    }
    if (!Array.isArray(groups)) {
      warnings.push(`hooks.${name} in ${path} must be a list of matcher groups, found ${describe(groups)}`);
      continue;
    }
    events.set(name, groups.map((group, index) => parseGroup(`${path}: hooks.${name}[${index}]`, group, warnings)));
  }
  return events;
}

function parseGroup(where: string, group: unknown, warnings: string[]): MatcherGroupSpec {
  if (!isObject(group)) {
    warnings.push(`${where} must be a table with \`hooks\` (and an optional \`matcher\`), found ${describe(group)}`);
    return { matcher: null, handlers: [] };
  }
  let matcher: string | null = null;
  if (group.matcher !== undefined && group.matcher !== null) {
    if (typeof group.matcher === "string") matcher = group.matcher;
    else warnings.push(`${where}.matcher must be a string, found ${describe(group.matcher)}; the group matches everything`);
  }
  const list = group.hooks ?? [];
  if (!Array.isArray(list)) {
    warnings.push(`${where}.hooks must be a list of handlers, found ${describe(list)}`);
    return { matcher, handlers: [] };
  }
  return { matcher, handlers: list.map((handler, index) => parseHandler(`${where}.hooks[${index}]`, handler, warnings)) };
}

function parseHandler(where: string, handler: unknown, warnings: string[]): HookHandlerSpec | null {
  if (!isObject(handler)) {
    warnings.push(`skipping ${where}: expected a table with \`type\` and \`command\`, found ${describe(handler)}`);
    return null;
  }
  const kind = handler.type;
  if (typeof kind === "string" && UNSUPPORTED_KINDS.includes(kind)) {
    warnings.push(`skipping ${kind} hook ${where}: ${kind} hooks are not supported yet`);
    return null;
  }
  if (kind !== "command") {
    warnings.push(`skipping ${where}: \`type\` must be "command", found ${describe(kind)}`);
    return null;
  }
  const command = handler.command;
  if (typeof command !== "string" || command.trim() === "") {
    warnings.push(`skipping empty hook command ${where}`);
    return null;
  }
  const timeout = handler.timeout ?? handler.timeoutSec;
  if (timeout !== undefined && !(typeof timeout === "number" && Number.isInteger(timeout) && timeout >= 0)) {
    warnings.push(`skipping ${where}: \`timeout\` must be a whole number of seconds, found ${describe(timeout)}`);
    return null;
  }
  if (handler.async !== undefined && typeof handler.async !== "boolean") {
    warnings.push(`skipping ${where}: \`async\` must be true or false, found ${describe(handler.async)}`);
    return null;
  }
  if (handler.statusMessage !== undefined && typeof handler.statusMessage !== "string") {
    warnings.push(`skipping ${where}: \`statusMessage\` must be a string, found ${describe(handler.statusMessage)}`);
    return null;
  }
  const extra: Record<string, number> = {};
  const limit = handler.additionalContextLimit;
  if (typeof limit === "number" && Number.isInteger(limit) && limit >= 0) extra.additionalContextLimit = limit;
  return {
    command,
    timeoutSec: typeof timeout === "number" ? timeout : null,
    async: handler.async === true,
    statusMessage: typeof handler.statusMessage === "string" ? handler.statusMessage : null,
    extra,
  };
}

/** Whether a file or table defines at least one handler (for the "both representations" warning). */
export function definesHandlers(events: HookEventsSpec): boolean {
  for (const groups of events.values()) if (groups.some((g) => g.handlers.some((h) => h !== null))) return true;
  return false;
}

function isEventName(name: string): name is HookEventName {
  return EVENT_NAMES.includes(name);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value === "object" ? "a table" : String(value);
}
