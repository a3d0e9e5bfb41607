/**
 * Finding the configured hooks: every source the config names (hooks.json beside the layer, then
 * its `[hooks]` table), events in the reference's order, each handler given its state key, its
 * place in the display order (which also names its runs), its hash and whether it may run.
 * Files are read fresh each time, so `/hooks` shows what is on disk now.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { HOOK_EVENTS, type HookEventName, type HookSource, type HookTrustStatus } from "../protocol/hook-events.js";
import { readTextFile } from "../util/bounded-read.js";
import type { HookConfigSource, HookSettings } from "../config/hook-sources.js";
import { definesHandlers, parseHooksJson, parseHooksTable, type HookEventsSpec, type HookHandlerSpec } from "./hooks-file.js";
import { matcherProblem } from "./matcher.js";
import { effectiveTimeout, hookHash, hookKey, hookStates, readStateTable, type HookState } from "./trust.js";

/** Events whose `matcher` is read (against the tool name, compaction trigger, start source or agent type). */
const MATCHER_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PreCompact",
  "PostCompact",
  "SessionStart",
  "SubagentStart",
  "SubagentStop",
]);

/** SessionEnd hooks run while the session closes: never longer than this. */
export const SESSION_END_MAX_TIMEOUT_SEC = 3;

export interface ConfiguredHook {
  key: string;
  event: HookEventName;
  /** null: matches everything (or the event has no matcher). */
  matcher: string | null;
  handler: HookHandlerSpec;
  /** What it runs with (SessionEnd's capped). */
  timeoutSec: number;
  sourcePath: string;
  source: HookSource;
  displayOrder: number;
  hash: string;
  enabled: boolean;
  trust: HookTrustStatus;
}

export interface Discovery {
  hooks: ConfiguredHook[];
  warnings: string[];
}

export function discoverHooks(settings: HookSettings): Discovery {
  const warnings: string[] = [];
  const hooks: ConfiguredHook[] = [];
  if (!settings.enabled) return { hooks, warnings };
  const states = hookStates([readStateTable(settings.userConfigFile), ...settings.stateOverrides]);
  for (const source of settings.sources) {
    const json = readHooksJson(source, warnings);
    const toml = parseHooksTable(source.configFile, source.table, warnings);
    if (json && definesHandlers(json.events) && definesHandlers(toml)) {
      warnings.push(`loading hooks from both ${json.path} and ${source.configFile}; prefer a single representation for this layer`);
    }
    if (json) collect(json.events, json.path, source.kind, states, hooks, warnings);
    collect(toml, source.configFile, source.kind, states, hooks, warnings);
  }
  return { hooks, warnings };
}

function readHooksJson(source: HookConfigSource, warnings: string[]): { path: string; events: HookEventsSpec } | null {
  if (source.folder === null) return null;
  const path = join(source.folder, "hooks.json");
  if (!existsSync(path)) return null;
  let text: string;
  try {
    // Regular files of a sane size only: a repository's .codex/hooks.json may be anything.
    text = readTextFile(path);
  } catch (err) {
    warnings.push(`failed to read hooks config ${path}: ${(err as Error).message}`);
    return null;
  }
  return { path, events: parseHooksJson(path, text, warnings) };
}

function collect(
  events: HookEventsSpec,
  sourcePath: string,
  source: HookSource,
  states: ReadonlyMap<string, HookState>,
  into: ConfiguredHook[],
  warnings: string[],
): void {
  for (const { name: event } of HOOK_EVENTS) {
    const groups = events.get(event) ?? [];
    groups.forEach((group, groupIndex) => {
      const matcher = MATCHER_EVENTS.has(event) ? group.matcher : null;
      const problem = matcher === null ? null : matcherProblem(matcher);
      if (problem !== null) {
        warnings.push(`invalid matcher ${JSON.stringify(matcher)} in ${sourcePath}: ${problem}`);
        return;
      }
      group.handlers.forEach((handler, handlerIndex) => {
        if (handler === null) return;
        const key = hookKey(sourcePath, event, groupIndex, handlerIndex);
        const state = states.get(key);
        const hash = hookHash(event, matcher, handler);
        into.push({
          key,
          event,
          matcher,
          handler,
          timeoutSec: runTimeout(event, handler, sourcePath, warnings),
          sourcePath,
          source,
          displayOrder: into.length,
          hash,
          enabled: state?.enabled !== false,
          trust: state?.trustedHash === undefined || state.trustedHash === "" ? "untrusted" : state.trustedHash === hash ? "trusted" : "modified",
        });
      });
    });
  }
}

function runTimeout(event: HookEventName, handler: HookHandlerSpec, sourcePath: string, warnings: string[]): number {
  const timeout = effectiveTimeout(handler);
  if (event !== "SessionEnd" || timeout <= SESSION_END_MAX_TIMEOUT_SEC) return timeout;
  if (handler.timeoutSec !== null) warnings.push(`clamping SessionEnd hook timeout to ${SESSION_END_MAX_TIMEOUT_SEC}s in ${sourcePath}`);
  return SESSION_END_MAX_TIMEOUT_SEC;
}
