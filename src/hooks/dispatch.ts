/**
 * Running the hooks one event selects: all of them at once (concurrently), each with the same
 * JSON on stdin; `hook_started` for each before, `hook_completed` for each after, in display
 * order. `async` hooks are started the same way but not waited for: their result is reported
 * when it comes and decides nothing.
 */
import type { EventMsg } from "../protocol/events.js";
import { hookEventLabel, type HookEventName, type HookRunSummary } from "../protocol/hook-events.js";
import type { ConfiguredHook } from "./discovery.js";
import { parseRun, type ParsedRun, type ParseOptions } from "./output.js";
import { runHookProcess, type HookProcessResult } from "./runner.js";

/** Where and for whom a set of hooks runs. */
export interface DispatchScope {
  /** null outside a turn (SessionEnd). */
  turnId: string | null;
  cwd: string;
  emit(msg: EventMsg): void;
  /** Tool events add the call id to each run's id. */
  runSuffix?: string;
}

/** How hook processes are started (the same for every hook of a session). */
export interface HookProcessSettings {
  env: Record<string, string>;
  shell: string;
}

export interface CompletedRun {
  hook: ConfiguredHook;
  runId: string;
  parsed: ParsedRun;
}

export async function dispatchHooks(
  event: HookEventName,
  hooks: readonly ConfiguredHook[],
  payload: Record<string, unknown>,
  scope: DispatchScope,
  settings: HookProcessSettings,
  options: ParseOptions = {},
): Promise<CompletedRun[]> {
  if (hooks.length === 0) return [];
  const input = JSON.stringify(payload);
  const started = hooks.map((hook) => {
    const summary = runningSummary(event, hook, scope);
    scope.emit({ type: "hook_started", turn_id: scope.turnId, run: summary });
    const result = runHookProcess({ command: hook.handler.command, timeoutSec: hook.timeoutSec, cwd: scope.cwd, env: settings.env, shell: settings.shell, input });
    return { hook, summary, result };
  });
  for (const background of started.filter((s) => s.hook.handler.async)) {
    void background.result.then((result) => complete(event, background.summary, result, scope, options));
  }
  const waited = started.filter((s) => !s.hook.handler.async);
  const results = await Promise.all(waited.map((s) => s.result));
  return waited.map((s, i) => ({ hook: s.hook, runId: s.summary.id, parsed: complete(event, s.summary, results[i] as HookProcessResult, scope, options) }));
}

function complete(event: HookEventName, running: HookRunSummary, result: HookProcessResult, scope: DispatchScope, options: ParseOptions): ParsedRun {
  const parsed = parseRun(event, result, options);
  const run: HookRunSummary = {
    ...running,
    status: parsed.status,
    completed_at: result.completedAt,
    duration_ms: result.durationMs,
    entries: parsed.entries,
  };
  scope.emit({ type: "hook_completed", turn_id: scope.turnId, run });
  return parsed;
}

function runningSummary(event: HookEventName, hook: ConfiguredHook, scope: DispatchScope): HookRunSummary {
  const label = hookEventLabel(event);
  const id = `${label}:${hook.displayOrder}:${hook.sourcePath}${scope.runSuffix !== undefined ? `:${scope.runSuffix}` : ""}`;
  return {
    id,
    event_name: label,
    handler_type: "command",
    execution_mode: hook.handler.async ? "async" : "sync",
    scope: event === "SessionStart" || event === "SessionEnd" ? "thread" : "turn",
    source_path: hook.sourcePath,
    source: hook.source,
    display_order: hook.displayOrder,
    status: "running",
    status_message: hook.handler.statusMessage,
    started_at: Math.floor(Date.now() / 1000),
    completed_at: null,
    duration_ms: null,
    entries: [],
  };
}
