/**
 * The hooks a thread may run, found once when it opens and again after `/hooks` changes a
 * hook's state (or asks for the list, which reads the files fresh). Only enabled hooks that are
 * trusted at their current definition run, unless trust is bypassed for the session.
 */
import type { HookEventName, HookListEntry, HookStateUpdate } from "../protocol/hook-events.js";
import { hookEventLabel } from "../protocol/hook-events.js";
import type { HookSettings } from "../config/hook-sources.js";
import { discoverHooks, type ConfiguredHook } from "./discovery.js";
import { stateWrites, writeHookStates } from "./trust.js";

/** How hooks are trusted, for front ends that have no way of their own: the interactive UI's. */
export const DEFAULT_TRUST_ADVICE = "review and trust them with /hooks in codex-ts's interactive UI";
const BYPASS_TRUST_WARNING = "`--dangerously-bypass-hook-trust` is enabled: enabled hooks run without review for this invocation.";

export class HookRegistry {
  private hooks: ConfiguredHook[] = [];
  private warnings: string[] = [];

  constructor(readonly settings: HookSettings) {
    this.reload();
  }

  /** A registry with nothing configured (tests, sessions opened without config). */
  static empty(): HookRegistry {
    return new HookRegistry({ enabled: false, sources: [], userConfigFile: "", stateOverrides: [], bypassTrust: false });
  }

  /** Reads the hook files and saved states again. */
  reload(): void {
    const found = discoverHooks(this.settings);
    this.hooks = found.hooks;
    this.warnings = found.warnings;
  }

  /** The hooks of `event` that may run, in display order. */
  runnable(event: HookEventName): ConfiguredHook[] {
    return this.hooks.filter((h) => h.event === event && h.enabled && (this.settings.bypassTrust || h.trust === "trusted"));
  }

  /**
   * What to tell the user when the session starts: problems in the files, hooks held back for
   * review. `trustAdvice` says how to trust them where the session runs (the front end knows).
   */
  startupWarnings(trustAdvice = DEFAULT_TRUST_ADVICE): string[] {
    const warnings = [...this.warnings];
    if (this.settings.bypassTrust) {
      if (this.hooks.length > 0) warnings.push(BYPASS_TRUST_WARNING);
      return warnings;
    }
    const waiting = this.needingReview().length;
    if (waiting > 0) {
      const what = waiting === 1 ? "1 hook is" : `${waiting} hooks are`;
      warnings.push(`${what} new or changed and will not run until trusted: ${trustAdvice.replace(/\bthem\b/g, waiting === 1 ? "it" : "them")}`);
    }
    return warnings;
  }

  /** Enabled hooks that are not trusted at their current definition. */
  needingReview(): ConfiguredHook[] {
    return this.hooks.filter((h) => h.enabled && h.trust !== "trusted");
  }

  list(): { hooks: HookListEntry[]; warnings: string[] } {
    return { hooks: this.hooks.map(listEntry), warnings: [...this.warnings] };
  }

  /** Saves trust / on-off changes in the user's config.toml, then reads everything again. */
  async update(updates: readonly HookStateUpdate[]): Promise<void> {
    const byKey = new Map(this.hooks.map((h) => [h.key, h.hash]));
    const writes = stateWrites(updates, (key) => byKey.get(key));
    if (writes.length > 0) await writeHookStates(this.settings.userConfigFile, writes);
    this.reload();
  }
}

function listEntry(hook: ConfiguredHook): HookListEntry {
  return {
    key: hook.key,
    event_name: hookEventLabel(hook.event),
    matcher: hook.matcher,
    command: hook.handler.command,
    timeout_sec: hook.timeoutSec,
    status_message: hook.handler.statusMessage,
    execution_mode: hook.handler.async ? "async" : "sync",
    source_path: hook.sourcePath,
    source: hook.source,
    display_order: hook.displayOrder,
    enabled: hook.enabled,
    current_hash: hook.hash,
    trust_status: hook.trust,
  };
}
