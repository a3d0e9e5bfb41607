/**
 * Desktop notifications through the terminal: OSC 9 (`ESC ] 9 ; text BEL`, shown by iTerm2,
 * Ghostty, WezTerm, kitty, …) when a turn completes or an approval is needed while the terminal
 * does not have focus. Focus comes from the terminal's focus reports (`CSI ?1004h` turns them
 * on; `ESC [ I` is focus-in, `ESC [ O` focus-out), which must never reach the composer as keys.
 *
 * API:
 * - `notificationEvents(value)`: reads `tui.notifications` as the reference takes it: `true`
 *   (both events, the default), `false`, or a list of event names (`"agent-turn-complete"`,
 *   `"approval-requested"`); a bad value gives the default and a `warning`.
 * - `stripFocusReports(data)`: `{ data, focused }`: the input without focus reports, and the
 *   focus state the last report gave (null when there was none).
 * - `osc9(text, env)`: the escape sequence for one notification (control characters removed,
 *   length capped, wrapped for tmux's passthrough when `TMUX` is set).
 * - `notificationMethod(value)`: reads `tui.notification_method`: `"auto"` (the reference's
 *   default), `"osc9"` or `"bel"`; `resolveMethod(method, env)`: what `auto` means here: OSC 9
 *   in terminals known to show it (Ghostty, iTerm2, kitty, Warp, WezTerm, by `TERM_PROGRAM` or
 *   `TERM`), else a plain BEL, which most terminals turn into a bounce or a badge.
 * - `FocusNotifier(events, env, method = "osc9")`: `start(write)` enables focus reports, `stop()` disables them (call it on
 *   every exit path), `filterInput(data)` strips reports and updates focus, `handleInput(data)`
 *   tells whether `data` was only reports, `inputListener` does both as pi-tui's
 *   `TUI.addInputListener` expects (consumes a chunk of reports, passes on what is left),
 *   `notify(event, text)` writes the notification when
 *   that event is enabled and the terminal is unfocused (and says whether it did);
 *   `turnComplete(lastMessage)` and `approvalRequested(what)` word the two events.
 * A terminal that never reports focus counts as focused, so it is never notified: better silent
 * than a notification for every turn the user is watching.
 */

export type NotificationEvent = "agent-turn-complete" | "approval-requested";

export const NOTIFICATION_EVENTS: readonly NotificationEvent[] = ["agent-turn-complete", "approval-requested"];

export const FOCUS_TRACKING_ON = "\u001b[?1004h";
export const FOCUS_TRACKING_OFF = "\u001b[?1004l";
const FOCUS_IN = "\u001b[I";
const FOCUS_OUT = "\u001b[O";

export type NotificationMethod = "auto" | "osc9" | "bel";

const METHODS: readonly NotificationMethod[] = ["auto", "osc9", "bel"];

/** Terminals that show OSC 9 as a desktop notification, as TERM_PROGRAM or TERM name them. */
const OSC9_TERMINALS = ["ghostty", "iterm", "kitty", "warp", "wezterm"];

export function notificationMethod(value: unknown): { method: NotificationMethod; warning: string | null } {
  if (value === undefined) return { method: "auto", warning: null };
  if (typeof value === "string" && (METHODS as readonly string[]).includes(value)) return { method: value as NotificationMethod, warning: null };
  return { method: "auto", warning: `tui.notification_method must be one of ${METHODS.join(", ")}; got ${JSON.stringify(value)}` };
}

export function resolveMethod(method: NotificationMethod, env: NodeJS.ProcessEnv = process.env): "osc9" | "bel" {
  if (method !== "auto") return method;
  const names = `${env.TERM_PROGRAM ?? ""} ${env.TERM ?? ""}`.toLowerCase();
  return OSC9_TERMINALS.some((t) => names.includes(t)) ? "osc9" : "bel";
}

/** Longest notification body: desktop notifiers cut far shorter anyway. */
const MAX_TEXT = 180;

export function notificationEvents(value: unknown): { events: Set<NotificationEvent>; warning: string | null } {
  const all = (): Set<NotificationEvent> => new Set(NOTIFICATION_EVENTS);
  if (value === undefined || value === true) return { events: all(), warning: null };
  if (value === false) return { events: new Set(), warning: null };
  if (Array.isArray(value)) {
    const events = new Set<NotificationEvent>();
    const unknown: string[] = [];
    for (const item of value) {
      if (typeof item === "string" && (NOTIFICATION_EVENTS as readonly string[]).includes(item)) events.add(item as NotificationEvent);
      else unknown.push(JSON.stringify(item));
    }
    const warning =
      unknown.length === 0 ? null : `tui.notifications: unknown event ${unknown.join(", ")} ignored (known: ${NOTIFICATION_EVENTS.join(", ")})`;
    return { events, warning };
  }
  return { events: all(), warning: `tui.notifications must be true, false or a list of event names; got ${JSON.stringify(value)}` };
}

export function stripFocusReports(data: string): { data: string; focused: boolean | null } {
  if (!data.includes("\u001b[")) return { data, focused: null };
  let focused: boolean | null = null;
  let out = "";
  let i = 0;
  for (;;) {
    const inAt = data.indexOf(FOCUS_IN, i);
    const outAt = data.indexOf(FOCUS_OUT, i);
    const at = inAt < 0 ? outAt : outAt < 0 ? inAt : Math.min(inAt, outAt);
    if (at < 0) break;
    out += data.slice(i, at);
    focused = at === inAt;
    i = at + 3;
  }
  return { data: out + data.slice(i), focused };
}

export function osc9(text: string, env: NodeJS.ProcessEnv = process.env): string {
  // eslint-disable-next-line no-control-regex
  let body = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  if (body.length > MAX_TEXT) body = `${body.slice(0, MAX_TEXT - 1)}…`;
  const sequence = `\u001b]9;${body}\u0007`;
  // tmux swallows OSC 9 unless it is passed through (and `allow-passthrough` is on).
  return env.TMUX ? `\u001bPtmux;${sequence.split("\u001b").join("\u001b\u001b")}\u001b\\` : sequence;
}

export class FocusNotifier {
  private focused = true;
  private write: ((data: string) => void) | null = null;
  private readonly method: "osc9" | "bel";

  constructor(
    private readonly events: ReadonlySet<NotificationEvent>,
    private readonly env: NodeJS.ProcessEnv = process.env,
    method: NotificationMethod = "osc9",
  ) {
    this.method = resolveMethod(method, env);
  }

  get hasFocus(): boolean {
    return this.focused;
  }

  start(write: (data: string) => void): void {
    this.write = write;
    if (this.events.size > 0) write(FOCUS_TRACKING_ON);
  }

  stop(): void {
    if (this.write !== null && this.events.size > 0) this.write(FOCUS_TRACKING_OFF);
    this.write = null;
  }

  /** `data` without focus reports (the focus state is updated from them). */
  filterInput(data: string): string {
    const { data: rest, focused } = stripFocusReports(data);
    if (focused !== null) this.focused = focused;
    return rest;
  }

  /** For `tui.addInputListener`: focus reports never reach the focused component. */
  readonly inputListener = (data: string): { consume?: boolean; data?: string } | undefined => {
    const rest = this.filterInput(data);
    if (rest === data) return undefined;
    return rest === "" ? { consume: true } : { data: rest };
  };

  /** True when `data` held only focus reports (nothing left for the composer). */
  handleInput(data: string): boolean {
    return this.filterInput(data) === "" && data !== "";
  }

  notify(event: NotificationEvent, text: string): boolean {
    if (this.write === null || this.focused || !this.events.has(event)) return false;
    this.write(this.method === "bel" ? "\u0007" : osc9(text, this.env));
    return true;
  }

  turnComplete(lastMessage: string | null): boolean {
    const first = (lastMessage ?? "").split("\n").find((l) => l.trim() !== "")?.trim();
    return this.notify("agent-turn-complete", first ? `Turn complete: ${first}` : "Turn complete");
  }

  /** `what`: the command, the files to edit, or the tool, in a few words. */
  approvalRequested(what: string): boolean {
    return this.notify("approval-requested", `Approval needed: ${what}`);
  }
}
