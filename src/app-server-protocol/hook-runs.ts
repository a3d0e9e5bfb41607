/**
 * Hooks between the core and the app-server protocol. Runs:  the core's events (`hook_started` / `hook_completed`, snake_case, event
 * labels like `pre_tool_use`) and the app-server's `hook/started` / `hook/completed`
 * notifications (camelCase, `preToolUse`), both ways, so a remote UI shows a hook's run as a
 * local one does. The configured hooks: `list_hooks_response` entries as `hooks/list` lists them,
 * and back.
 */
import { HOOK_EVENTS, type HookEventLabel, type HookListEntry, type HookRunSummary, type HookSource } from "../protocol/hook-events.js";
import type { V2HookEventName, V2HookMetadata, V2HookRunSummary, V2HookSource } from "./v2.js";

const camel = (label: string): string => label.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function hookRunToV2(run: HookRunSummary): V2HookRunSummary {
  return {
    id: run.id,
    eventName: camel(run.event_name) as V2HookEventName,
    handlerType: run.handler_type,
    executionMode: run.execution_mode,
    scope: run.scope,
    sourcePath: run.source_path,
    source: camel(run.source) as V2HookSource,
    displayOrder: run.display_order,
    status: run.status,
    statusMessage: run.status_message,
    startedAt: run.started_at,
    completedAt: run.completed_at,
    durationMs: run.duration_ms,
    entries: run.entries.map((e) => ({ kind: e.kind, text: e.text })),
  };
}

/**
 * A run a server reported; null for events codex-ts has no hooks for (the reference's model
 * request events). Sources codex-ts has no name for count as the user's.
 */
export function hookRunFromV2(run: V2HookRunSummary): HookRunSummary | null {
  const event = eventFromV2(run.eventName);
  if (event === null) return null;
  return {
    id: run.id,
    event_name: event,
    handler_type: "command",
    execution_mode: run.executionMode,
    scope: run.scope,
    source_path: run.sourcePath,
    source: sourceFromV2(run.source),
    display_order: run.displayOrder,
    status: run.status,
    status_message: run.statusMessage ?? null,
    started_at: run.startedAt,
    completed_at: run.completedAt ?? null,
    duration_ms: run.durationMs ?? null,
    entries: (run.entries ?? []).map((e) => ({ kind: e.kind, text: e.text })),
  };
}

export function hookToV2(hook: HookListEntry): V2HookMetadata {
  return {
    key: hook.key,
    eventName: camel(hook.event_name) as V2HookEventName,
    handlerType: "command",
    command: hook.command,
    async: hook.execution_mode === "async",
    matcher: hook.matcher,
    timeoutSec: hook.timeout_sec,
    statusMessage: hook.status_message,
    sourcePath: hook.source_path,
    source: camel(hook.source) as V2HookSource,
    displayOrder: hook.display_order,
    enabled: hook.enabled,
    isManaged: false,
    currentHash: hook.current_hash,
    trustStatus: hook.trust_status,
  };
}

/**
 * A hook a server listed; null for what codex-ts cannot show (another handler type, an event it
 * does not run). A managed hook needs no trust: it shows as trusted.
 */
export function hookFromV2(hook: V2HookMetadata): HookListEntry | null {
  const event = eventFromV2(hook.eventName);
  if (event === null || hook.handlerType !== "command") return null;
  return {
    key: hook.key,
    event_name: event,
    matcher: hook.matcher ?? null,
    command: hook.command,
    timeout_sec: hook.timeoutSec,
    status_message: hook.statusMessage ?? null,
    execution_mode: hook.async === true ? "async" : "sync",
    source_path: hook.sourcePath,
    source: sourceFromV2(hook.source),
    display_order: hook.displayOrder,
    enabled: hook.enabled,
    current_hash: hook.currentHash,
    trust_status: hook.trustStatus === "managed" ? "trusted" : hook.trustStatus,
  };
}

function eventFromV2(name: string): HookEventLabel | null {
  return HOOK_EVENTS.find((e) => e.label === snake(name))?.label ?? null;
}

function sourceFromV2(source: string): HookSource {
  const name = snake(source);
  return name === "project" || name === "session_flags" ? name : "user";
}
