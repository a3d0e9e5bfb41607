/**
 * Hooks in the interactive UI: a cell for a hook run worth telling (a block, a stop, a failure,
 * a message), and `/hooks`, a full list by event where hooks are reviewed and trusted (`t`),
 * and turned on or off (Space). Everything it knows comes from `list_hooks_response`; every
 * change is an `update_hook_state` op, answered by the new list.
 */
import { HOOK_EVENTS, type HookListEntry, type HookStateUpdate } from "../protocol/hook-events.js";
import type { HookReport } from "../presentation/hook-runs.js";
import type { CellStyle } from "./cells.js";
import { prefixed } from "./cells.js";
import type { Overlay } from "./overlays.js";
import type { Theme } from "./parts/theme.js";
import { matchesKey, truncateToWidth } from "./pi-tui.js";

/** The answer to list_hooks. */
export interface HooksList {
  hooks: HookListEntry[];
  warnings: string[];
  bypassTrust: boolean;
}

/** `• Blocked by PreToolUse hook` with the reason under it; failures in the warning colour. */
export function hookCell(report: HookReport, s: CellStyle, width: number): string[] {
  const t = s.theme;
  const title =
    report.status === "Blocked" ? `Blocked by ${report.event} hook` : report.status === "Failed" ? `${report.event} hook failed` : report.status === "Stopped" ? `${report.event} hook stopped the turn` : `${report.event} hook`;
  const mark = report.failed ? t.fg("warning", "⚠ ") : t.fg("accent", "• ");
  const lines = prefixed(mark, "  ", report.failed ? t.fg("warning", title) : t.bold(title), width);
  for (const line of report.lines) lines.push(...prefixed(t.dim("  └ "), "    ", line, width));
  lines.push("");
  return lines;
}

const needsReview = (h: HookListEntry): boolean => h.enabled && h.trust_status !== "trusted";

/** `/hooks`: events (installed, active, awaiting review), then one event's hooks with their details. */
export class HooksBrowser implements Overlay {
  private event: number | null = null;
  private selectedEvent = 0;
  private selectedHook = 0;
  private busy = false;
  private problem: string | null = null;

  constructor(
    private readonly theme: Theme,
    private list: HooksList,
    private readonly update: (updates: HookStateUpdate[]) => Promise<HooksList>,
    private readonly requestRender: () => void,
    private readonly close: () => void,
  ) {}

  render(width: number, maxHeight = Number.POSITIVE_INFINITY): string[] {
    const t = this.theme;
    const rule = t.dim("─".repeat(width));
    const body = this.event === null ? this.eventRows(width) : this.hookRows(this.event, width);
    const notes = [...(this.problem ? [t.fg("error", `  ${this.problem}`)] : []), ...this.list.warnings.map((w) => t.fg("warning", truncateToWidth(`  ⚠ ${w}`, width, "…")))];
    const lines = [rule, ...body, ...notes];
    return lines.length > maxHeight ? [...lines.slice(0, Math.max(1, maxHeight - 1)), lines.at(-1) ?? ""] : lines;
  }

  private active(h: HookListEntry): boolean {
    return h.enabled && (this.list.bypassTrust || h.trust_status === "trusted");
  }

  private eventRows(width: number): string[] {
    const t = this.theme;
    const waiting = this.list.hooks.filter(needsReview).length;
    const head = [
      `${t.fg("accent", "▌ ")}${t.bold("Hooks")}`,
      t.dim("  Lifecycle hooks from hooks.json and [hooks] in config.toml (docs/hooks.md)."),
      ...(this.list.bypassTrust ? [t.fg("warning", "  --dangerously-bypass-hook-trust: enabled hooks run without review in this session.")] : []),
      ...(waiting > 0 ? [t.fg("warning", `  ⚠ ${waiting === 1 ? "1 hook needs" : `${waiting} hooks need`} review before ${waiting === 1 ? "it" : "they"} can run.`)] : []),
      "",
      t.dim(`  ${"Event".padEnd(20)}${"Installed".padEnd(11)}${"Active".padEnd(8)}${"Review".padEnd(8)}Description`),
    ];
    const rows = HOOK_EVENTS.map((e, i) => {
      const hooks = this.list.hooks.filter((h) => h.event_name === e.label);
      const cells = `${e.name.padEnd(20)}${String(hooks.length).padEnd(11)}${String(hooks.filter((h) => this.active(h)).length).padEnd(8)}${String(hooks.filter(needsReview).length).padEnd(8)}${e.description}`;
      const row = i === this.selectedEvent ? t.fg("accent", "› ") + t.bold(cells) : `  ${hooks.length > 0 ? cells : t.dim(cells)}`;
      return truncateToWidth(row, width, "…");
    });
    const keys = `${waiting > 0 ? "t trust all · " : ""}Enter details · Esc close`;
    return [...head, ...rows, "", t.dim(`  ${this.busy ? "saving…" : keys}`)];
  }

  private hookRows(index: number, width: number): string[] {
    const t = this.theme;
    const event = HOOK_EVENTS[index] ?? HOOK_EVENTS[0];
    const hooks = this.hooksOf(index);
    const head = [`${t.fg("accent", "▌ ")}${t.bold(`${event.name} hooks`)}`, t.dim(`  ${event.description}.`), ""];
    if (hooks.length === 0) return [...head, t.dim("  None configured."), "", t.dim("  Esc back")];
    const rows = hooks.map((h, i) => {
      const mark = needsReview(h) ? t.fg("warning", "[!]") : h.enabled ? "[x]" : "[ ]";
      const state = !h.enabled ? "off" : h.trust_status === "trusted" ? "trusted" : h.trust_status === "modified" ? "changed since it was trusted" : "new";
      const row = `${mark} ${i + 1}  ${h.matcher ?? "any"} · ${state}`;
      return truncateToWidth(i === this.selectedHook ? t.fg("accent", "› ") + t.bold(row) : `  ${row}`, width, "…");
    });
    const h = hooks[Math.min(this.selectedHook, hooks.length - 1)];
    const detail = h ? this.details(h, width) : [];
    const keys = h && h.trust_status !== "trusted" ? "t trust · Space on/off · Esc back" : "Space on/off · Esc back";
    return [...head, ...rows, "", ...detail, "", t.dim(`  ${this.busy ? "saving…" : keys}`)];
  }

  private details(h: HookListEntry, width: number): string[] {
    const t = this.theme;
    const trust = h.trust_status === "trusted" ? "Trusted" : h.trust_status === "modified" ? "Changed since it was trusted - review required" : "New hook - review required";
    const facts: Array<[string, string]> = [
      ["Matcher", h.matcher ?? "any"],
      ["Source", `${h.source === "project" ? "Project" : h.source === "session_flags" ? "-c override" : "User config"} - ${h.source_path}`],
      ["Command", h.command],
      ["Mode", h.execution_mode === "async" ? "Async" : "Sync"],
      ["Timeout", `${h.timeout_sec}s`],
      ...(h.status_message ? [["Status", h.status_message] as [string, string]] : []),
      ["Trust", trust],
      ["State", h.enabled ? "On" : "Off"],
    ];
    return facts.flatMap(([k, v]) => prefixed(`  ${t.dim(k.padEnd(10))}`, " ".repeat(12), v, width));
  }

  private hooksOf(index: number): HookListEntry[] {
    const label = HOOK_EVENTS[index]?.label;
    return this.list.hooks.filter((h) => h.event_name === label);
  }

  handleInput(data: string): void {
    if (this.busy) return;
    if (this.event === null) return this.eventKeys(data);
    const hooks = this.hooksOf(this.event);
    const hook = hooks[this.selectedHook];
    if (matchesKey(data, "escape")) {
      this.event = null;
    } else if (matchesKey(data, "up")) {
      this.selectedHook = Math.max(0, this.selectedHook - 1);
    } else if (matchesKey(data, "down")) {
      this.selectedHook = Math.min(Math.max(0, hooks.length - 1), this.selectedHook + 1);
    } else if (hook && data === "t" && hook.trust_status !== "trusted") {
      this.save([{ key: hook.key, trust: true }]);
    } else if (hook && (data === " " || matchesKey(data, "enter"))) {
      this.save([{ key: hook.key, enabled: !hook.enabled }]);
    }
  }

  private eventKeys(data: string): void {
    if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) return this.close();
    if (matchesKey(data, "up")) this.selectedEvent = (this.selectedEvent + HOOK_EVENTS.length - 1) % HOOK_EVENTS.length;
    else if (matchesKey(data, "down")) this.selectedEvent = (this.selectedEvent + 1) % HOOK_EVENTS.length;
    else if (matchesKey(data, "enter")) {
      this.event = this.selectedEvent;
      this.selectedHook = 0;
    } else if (data === "t") {
      const waiting = this.list.hooks.filter(needsReview);
      if (waiting.length > 0) this.save(waiting.map((h) => ({ key: h.key, trust: true })));
    }
  }

  private save(updates: HookStateUpdate[]): void {
    this.busy = true;
    this.problem = null;
    this.update(updates)
      .then((list) => {
        this.list = list;
      })
      .catch((err: unknown) => {
        this.problem = `Could not save: ${(err as Error).message}`;
      })
      .finally(() => {
        this.busy = false;
        this.requestRender();
      });
  }

  invalidate(): void {}
}
