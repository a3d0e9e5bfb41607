/**
 * What front ends show of hook runs: nothing for a hook that simply ran, one line for one that
 * blocked, stopped, failed or had something to say (`hook: PreToolUse Blocked` and its reason,
 * as the reference's exec prints it). A hook that keeps failing the same way is reported once.
 */
import { hookEventName, type HookOutputEntry, type HookRunSummary } from "../protocol/hook-events.js";

export interface HookReport {
  /** `PreToolUse` */
  event: string;
  /** `Blocked`, `Failed`, `Stopped`, or `Completed` for a run with a message. */
  status: string;
  /** The run's messages, each as one line's text with what it is (`warning:`, `error:`…). */
  lines: string[];
  /** A failure (shown as a warning), rather than a decision. */
  failed: boolean;
}

/** How a completed run reads, or null when there is nothing to tell (it ran, said nothing for the user). */
export function hookRunReport(run: HookRunSummary): HookReport | null {
  const shown = run.entries.filter((e) => e.kind !== "context");
  if (run.status === "completed" && shown.length === 0) return null;
  return {
    event: hookEventName(run.event_name),
    status: run.status.charAt(0).toUpperCase() + run.status.slice(1),
    lines: shown.map(entryLine),
    failed: run.status === "failed",
  };
}

function entryLine(entry: HookOutputEntry): string {
  switch (entry.kind) {
    case "feedback":
      return entry.text;
    case "stop":
      return `stopped: ${entry.text}`;
    case "warning":
      return `warning: ${entry.text}`;
    case "error":
      return `error: ${entry.text}`;
    case "context":
      return `context: ${entry.text}`;
  }
}

/**
 * Keeps one report per way a hook fails: the same hook failing with the same error again (on
 * every tool call, say) is not shown again. Decisions (blocks, stops) are always shown.
 */
export class HookReportFilter {
  private readonly seen = new Set<string>();

  report(run: HookRunSummary): HookReport | null {
    const report = hookRunReport(run);
    if (report === null || !report.failed) return report;
    const key = `${run.event_name}:${run.display_order}:${run.source_path}\n${report.lines.join("\n")}`;
    if (this.seen.has(key)) return null;
    this.seen.add(key);
    return report;
  }
}
