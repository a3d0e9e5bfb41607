/**
 * The interactive UI's side of lifecycle hooks, kept out of app.ts: `/hooks` (asks the session
 * for the list, shows the browser, sends each change), a hook's statusMessage on the status line
 * while it runs, and a cell for each run worth telling.
 */
import type { EventMsg } from "../protocol/events.js";
import type { HookEventMsg, HookOp } from "../protocol/hook-events.js";
import type { Op } from "../protocol/ops.js";
import { HookReportFilter } from "../presentation/hook-runs.js";
import type { CellStyle } from "./cells.js";
import { HooksBrowser, hookCell, type HooksList } from "./hooks-view.js";
import type { Overlay } from "./overlays.js";
import type { StatusLine } from "./status-line.js";

/** What the panel uses of the app. */
export interface HooksPanelHost {
  readonly style: CellStyle;
  readonly status: StatusLine;
  submit(op: Op): string;
  present<T>(make: (done: (value: T) => void) => Overlay): Promise<T>;
  commit(render: (width: number) => string[]): void;
  requestRender(): void;
}

const HOOK_EVENT_TYPES: ReadonlySet<string> = new Set<HookEventMsg["type"]>(["hook_started", "hook_completed", "list_hooks_response"]);

export function isHookEvent(msg: EventMsg): msg is HookEventMsg {
  return HOOK_EVENT_TYPES.has(msg.type);
}

export class HooksPanel {
  /** `/hooks` waiting for the session's list_hooks_response. */
  private listWaiters: Array<(list: HooksList) => void> = [];
  private readonly reports = new HookReportFilter();

  constructor(private readonly host: HooksPanelHost) {}

  /** `/hooks`: the configured hooks, to review, trust and turn on or off. */
  async open(): Promise<void> {
    const list = await this.ask({ type: "list_hooks" });
    await this.host.present<null>(
      (done) => new HooksBrowser(this.host.style.theme, list, (updates) => this.ask({ type: "update_hook_state", updates }), () => this.host.requestRender(), () => done(null)),
    );
  }

  /** A replayed event (a resumed thread) draws no cell: its runs are history. */
  handle(msg: HookEventMsg, replay: boolean): void {
    const status = this.host.status;
    switch (msg.type) {
      case "hook_started":
        // A hook's statusMessage says what it is doing while the turn waits for it.
        if (msg.run.status_message) status.label = msg.run.status_message;
        return;
      case "hook_completed": {
        if (msg.run.status_message && status.label === msg.run.status_message) status.label = "Working";
        const report = this.reports.report(msg.run);
        if (report && !replay) this.host.commit((width) => hookCell(report, this.host.style, width));
        return;
      }
      case "list_hooks_response":
        for (const resolve of this.listWaiters.splice(0)) resolve({ hooks: msg.hooks, warnings: msg.warnings, bypassTrust: msg.bypass_trust });
        return;
    }
  }

  private ask(op: HookOp): Promise<HooksList> {
    return new Promise((resolve) => {
      this.listWaiters.push(resolve);
      this.host.submit(op);
    });
  }
}
