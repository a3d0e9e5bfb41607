/**
 * The session picker of `/resume`, `/fork`, `codex-ts resume` and `codex-ts fork` without an id:
 * recorded sessions newest first (those of the working directory, or all with `all`), one row
 * each: relative age, git branch, first prompt (and the folder, when showing all).
 *
 * API:
 * - `new SessionPicker({ threads, cwd, all, title, onPick, onCancel, requestRender, now })`:
 *   a Component; typing filters (by prompt, branch, folder or id; words in any order),
 *   Backspace edits the filter, Up/Down/PageUp/PageDown move, Enter picks (`onPick(summary)`),
 *   Esc cancels (`onCancel()`).
 * - `relativeAge(iso, now)`: "just now", "5m ago", "3h ago", "2d ago", "4mo ago", "1y ago".
 *
 * Sessions are read lazily (`threads()`, the host's thread reader: one file head at a time, newest
 * first): only as many as the screen (or a filter) needs, at most a few milliseconds' worth per
 * render; the rest follows in the background, each batch asking for a re-render, so thousands of
 * sessions open as fast as ten.
 */
import type { Component } from "@mariozechner/pi-tui";
import { matchesKey, truncateToWidth, visibleWidth } from "../pi-tui.js";
import { homedir } from "node:os";
import type { ThreadSummary } from "../../protocol/threads.js";
import { theme } from "./theme.js";
import { errorMessage } from "../../util/errors.js";

export interface SessionPickerOptions {
  /** Recorded threads newest first (those of `cwd` unless `all`), read as the picker asks for more. */
  threads: () => Iterator<ThreadSummary, void, undefined>;
  cwd: string;
  /** Every folder's sessions, not only the working directory's. */
  all: boolean;
  /** The header, e.g. "Resume a session". */
  title: string;
  onPick: (session: ThreadSummary) => void;
  onCancel: () => void;
  /** Called when sessions loaded in the background change what the picker shows. */
  requestRender?: () => void;
  /** Rows of sessions shown at once (default 10). */
  maxVisible?: number;
  /** The clock, for ages (tests pin it). */
  now?: () => number;
}

/**
 * Time spent reading session heads in one go before yielding back to the event loop: more while
 * the visible rows are not filled yet (so the first screen comes whole), little after that.
 */
const SCREEN_BUDGET_MS = 100;
const LOAD_BUDGET_MS = 12;

export function relativeAge(iso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days}d ago`;
  if (days < 365) return `${Math.floor(days / 30)}mo ago`;
  return `${Math.floor(days / 365)}y ago`;
}

/** The thread's name (/rename), else the first line of the prompt, whitespace collapsed. */
function promptLine(summary: ThreadSummary): string {
  if (summary.name !== null) return summary.name;
  const text = (summary.firstPrompt ?? "").trim();
  return text === "" ? "(no prompt)" : (text.split("\n")[0] ?? "").replace(/\s+/g, " ");
}

function shortFolder(dir: string | null): string {
  if (dir === null) return "?";
  const home = homedir();
  return dir === home ? "~" : dir.startsWith(`${home}/`) ? `~${dir.slice(home.length)}` : dir;
}

export class SessionPicker implements Component {
  private readonly loaded: ThreadSummary[] = [];
  /** Lower-cased text each loaded session is filtered on. */
  private readonly haystacks: string[] = [];
  private source: Iterator<ThreadSummary> | null = null;
  private exhausted = false;
  private failure: string | null = null;
  private loadScheduled = false;
  private filter = "";
  private matches: number[] = [];
  private selected = 0;
  private top = 0;
  private readonly maxVisible: number;
  private readonly now: () => number;

  constructor(private readonly options: SessionPickerOptions) {
    this.maxVisible = options.maxVisible ?? 10;
    this.now = options.now ?? Date.now;
  }

  /** Loaded sessions so far (for tests and the app's "n sessions" hints). */
  get loadedCount(): number {
    return this.loaded.length;
  }

  get done(): boolean {
    return this.exhausted;
  }

  private matchesFilter(index: number): boolean {
    if (this.filter.trim() === "") return true;
    const hay = this.haystacks[index] as string;
    return this.filter
      .toLowerCase()
      .split(/\s+/)
      .every((word) => hay.includes(word));
  }

  /** Reads session heads until `wanted` rows match, the budget is spent, or none are left. */
  private load(wanted: number): void {
    if (this.exhausted) return;
    let start = performance.now();
    try {
      const first = this.source === null;
      this.source ??= this.options.threads();
      while (this.matches.length < wanted) {
        const next = this.source.next();
        // The first step lists (and stats) every session file; the budget is for reading heads.
        if (first && this.loaded.length === 0) start = performance.now();
        if (next.done === true) {
          this.exhausted = true;
          break;
        }
        const s = next.value;
        this.loaded.push(s);
        this.haystacks.push([promptLine(s), s.firstPrompt ?? "", s.gitBranch ?? "", s.cwd ?? "", s.id].join("\n").toLowerCase());
        if (this.matchesFilter(this.loaded.length - 1)) this.matches.push(this.loaded.length - 1);
        const budget = this.matches.length < this.top + this.maxVisible ? SCREEN_BUDGET_MS : LOAD_BUDGET_MS;
        if (performance.now() - start > budget) break;
      }
    } catch (err) {
      this.exhausted = true;
      this.failure = `could not list sessions: ${errorMessage(err)}`;
    }
    if (!this.exhausted && this.matches.length < wanted) this.scheduleLoad();
  }

  /** Continues loading after the event loop has had its turn, then asks for a repaint. */
  private scheduleLoad(): void {
    if (this.loadScheduled) return;
    this.loadScheduled = true;
    setImmediate(() => {
      this.loadScheduled = false;
      const before = this.matches.length;
      this.load(this.wantedRows());
      if (this.matches.length !== before || this.exhausted) this.options.requestRender?.();
    });
  }

  /** Rows needed: the visible window below the selection, and one more to know there is more. */
  private wantedRows(): number {
    return Math.max(this.top, this.selected) + this.maxVisible + 1;
  }

  private refilter(): void {
    this.matches = [];
    for (let i = 0; i < this.loaded.length; i++) if (this.matchesFilter(i)) this.matches.push(i);
    this.selected = 0;
    this.top = 0;
  }

  private move(delta: number): void {
    this.load(this.selected + delta + this.maxVisible + 1);
    const n = this.matches.length;
    if (n === 0) return;
    this.selected = Math.max(0, Math.min(n - 1, this.selected + delta));
    if (this.selected < this.top) this.top = this.selected;
    if (this.selected >= this.top + this.maxVisible) this.top = this.selected - this.maxVisible + 1;
  }

  handleInput(data: string): void {
    if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) this.options.onCancel();
    else if (matchesKey(data, "enter")) {
      this.load(1);
      const index = this.matches[this.selected];
      if (index !== undefined) this.options.onPick(this.loaded[index] as ThreadSummary);
    } else if (matchesKey(data, "up") || matchesKey(data, "ctrl+p")) this.move(-1);
    else if (matchesKey(data, "down") || matchesKey(data, "ctrl+n")) this.move(1);
    else if (matchesKey(data, "pageUp")) this.move(-this.maxVisible);
    else if (matchesKey(data, "pageDown")) this.move(this.maxVisible);
    else if (matchesKey(data, "backspace")) {
      if (this.filter !== "") {
        this.filter = Array.from(this.filter).slice(0, -1).join("");
        this.refilter();
      }
      // eslint-disable-next-line no-control-regex
    } else if (!/[\u0000-\u001f\u007f]/.test(data)) {
      this.filter += data;
      this.refilter();
    }
  }

  invalidate(): void {}

  render(width: number): string[] {
    const t = theme();
    this.load(this.wantedRows());
    const scope = this.options.all ? "all folders" : shortFolder(this.options.cwd);
    const lines = [truncateToWidth(`${t.bold(this.options.title)} ${t.fg("muted", `(${scope})`)}`, width)];
    const filterLine = this.filter === "" ? t.fg("muted", "Type to filter") : `Filter: ${this.filter}`;
    lines.push(truncateToWidth(filterLine, width), "");
    if (this.failure !== null) lines.push(t.fg("error", truncateToWidth(this.failure, width)));
    else if (this.matches.length === 0) {
      const empty = !this.exhausted ? "Loading sessions…" : this.loaded.length === 0 ? "No recorded sessions here yet." : "No session matches the filter.";
      lines.push(t.fg("muted", `  ${empty}`));
    } else {
      const end = Math.min(this.matches.length, this.top + this.maxVisible);
      const now = this.now();
      for (let i = this.top; i < end; i++) {
        lines.push(this.row(this.loaded[this.matches[i] as number] as ThreadSummary, i === this.selected, width, now));
      }
    }
    const more = this.exhausted ? `${this.matches.length} session${this.matches.length === 1 ? "" : "s"}` : "loading more…";
    lines.push("", t.fg("muted", truncateToWidth(`${more} · ↑/↓ to move · Enter to pick · Esc to cancel`, width)));
    return lines;
  }

  private row(s: ThreadSummary, chosen: boolean, width: number, now: number): string {
    const t = theme();
    const age = relativeAge(s.updatedAt, now).padStart(8);
    const branch = truncateToWidth(s.gitBranch ?? "-", 16, "…").padEnd(16);
    const folder = this.options.all ? `${truncateToWidth(shortFolder(s.cwd), 24, "…")}  ` : "";
    const fixed = `${chosen ? "›" : " "} ${age}  ${branch}  ${folder}`;
    const prompt = truncateToWidth(promptLine(s), Math.max(0, width - visibleWidth(fixed)), "…");
    const text = truncateToWidth(fixed + prompt, width);
    if (chosen || visibleWidth(fixed) >= width) return chosen ? t.fg("accent", text) : text;
    return `${text.slice(0, 2)}${t.fg("muted", age)}  ${t.fg("success", branch)}  ${t.fg("muted", folder)}${prompt}`;
  }
}
