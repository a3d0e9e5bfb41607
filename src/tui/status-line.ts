/**
 * The status line above the composer: a spinner, the elapsed time and "Esc to interrupt" while a
 * turn runs; the context left and the tokens used so far on the right.
 */
import { visibleWidth } from "./pi-tui.js";
import type { Theme } from "./parts/theme.js";
import type { TokenUsageInfo } from "../protocol/events.js";
import { formatTokens } from "./cells.js";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export class StatusLine {
  /** When the running task started (ms since the epoch), null when idle. */
  startedAt: number | null = null;
  /** What the task is doing, e.g. "Working" or "Reviewing". */
  label = "Working";
  usage: TokenUsageInfo | null = null;
  /** A one-off hint shown while idle (e.g. "Press Ctrl+C again to quit"). */
  hint: string | null = null;
  /** The request is being retried ("Reconnecting... 2/5"): shown instead of the label, one line for every retry. */
  retry: string | null = null;

  constructor(
    private readonly theme: Theme,
    private readonly now: () => number = Date.now,
  ) {}

  render(width: number): string[] {
    const t = this.theme;
    let left: string;
    if (this.startedAt !== null) {
      const secs = Math.max(0, Math.floor((this.now() - this.startedAt) / 1000));
      const frame = SPINNER[Math.floor(this.now() / 80) % SPINNER.length] ?? "•";
      const label = this.retry !== null ? t.fg("warning", this.retry) : t.bold(this.label);
      left = `${t.fg("accent", frame)} ${label} ${t.dim(`(${elapsed(secs)} · Esc to interrupt)`)}`;
    } else {
      left = this.hint !== null ? t.dim(this.hint) : "";
    }
    const right = this.usage ? t.dim(contextText(this.usage)) : "";
    const gap = width - visibleWidth(left) - visibleWidth(right);
    if (gap >= 1) return [left + " ".repeat(gap) + right];
    return [left];
  }

  invalidate(): void {}
}

function elapsed(secs: number): string {
  if (secs < 60) return `${secs}s`;
  return `${Math.floor(secs / 60)}m ${String(secs % 60).padStart(2, "0")}s`;
}

/** "83% context left · 12.3K tokens used", or only the tokens when the window is unknown. */
export function contextText(info: TokenUsageInfo): string {
  const used = `${formatTokens(info.total_token_usage.total_tokens)} tokens used`;
  const window = info.model_context_window;
  if (!window) return used;
  // The last request's input is what the next request starts from.
  const inContext = info.last_token_usage.total_tokens;
  const left = Math.max(0, Math.min(100, Math.round(100 - (inContext / window) * 100)));
  return `${left}% context left · ${used}`;
}
