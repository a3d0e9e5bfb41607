/**
 * Undo in the interactive UI: `/undo`, `/redo`, and the files side of Esc Esc. Each is an op
 * (`undo`, `redo`, `thread_rollback` with `restore`); its `undo_completed` is shown as a cell
 * naming the paths put back. When the session names files changed by hand since the turn, the
 * user is asked before they are overwritten, and the same op goes again with those files in
 * `overwrite`. A rollback that also drops the conversation brings its message back to the
 * composer only once it happened.
 */
import type { Event, EventMsg } from "../protocol/events.js";
import type { Op, RollbackRestore } from "../protocol/ops.js";
import type { Choice } from "./overlays.js";

export interface UndoSurface {
  submit(op: Op): string;
  choose<T>(title: string, choices: Choice<T>[], escape: T): Promise<T>;
  /** Prints a titled block into the transcript. */
  print(title: string, body: string[]): void;
  notice(kind: "info" | "error" | "warning", message: string): void;
}

type Completed = Extract<EventMsg, { type: "undo_completed" }>;

/** At most this many paths are listed; the rest are counted. */
const LISTED = 12;

export class UndoFlow {
  /** Ops sent, by submission id, with the text to put back in the composer once rolled back. */
  private readonly sent = new Map<string, { op: Op; composerText: string | null; failed: boolean }>();
  /** A rollback's files, shown once the conversation is redrawn without the turns it dropped. */
  private pendingCell: Completed | null = null;

  constructor(
    private readonly ui: UndoSurface,
    /** Puts a message back in the composer, to be edited and sent again. */
    private readonly putInComposer: (text: string) => void,
  ) {}

  /** Takes the events that answer its ops (and the error ending a rollback that restored no file); false for those the app shows as usual. */
  takes(event: Event): boolean {
    const { id, msg } = event;
    if (msg.type === "undo_started") return true;
    if (msg.type === "undo_completed") return void this.completed(id, msg), true;
    if (msg.type === "error") return this.explains(id, msg);
    if (msg.type === "thread_rolled_back") this.rolledBack(id);
    return false;
  }

  undo(): void {
    this.send({ type: "undo" }, null);
  }

  redo(): void {
    this.send({ type: "redo" }, null);
  }

  /** Esc Esc: the user picked a message `numTurns` back and what to put back. */
  rollback(numTurns: number, restore: RollbackRestore, text: string): void {
    if (restore === "conversation") {
      // As before undo existed: the conversation goes at once and the message comes back to edit.
      this.ui.submit({ type: "thread_rollback", num_turns: numTurns });
      this.putInComposer(text);
      return;
    }
    this.send({ type: "thread_rollback", num_turns: numTurns, restore }, restore === "both" ? text : null);
  }

  private send(op: Op, composerText: string | null): void {
    this.sent.set(this.ui.submit(op), { op, composerText, failed: false });
  }

  /** An undo_completed: the paths put back, or a question about files changed by hand. */
  private completed(id: string, msg: Completed): void {
    const sent = this.sent.get(id);
    if (!msg.success) {
      // A failed rollback ends with an error next, which `explains` takes; other ops end here.
      if (sent?.op.type === "thread_rollback") sent.failed = true;
      else this.sent.delete(id);
      const conflicts = msg.conflicts ?? [];
      if (sent && conflicts.length > 0) return void this.confirmOverwrite(sent.op, sent.composerText, conflicts);
      // A rollback with nothing to restore still goes on with the conversation.
      this.ui.notice("error", msg.message ?? "Undo failed.");
      return;
    }
    if (sent?.op.type === "thread_rollback" && sent.op.restore === "both") {
      // The conversation is redrawn without the dropped turns next: this goes under it.
      this.pendingCell = msg;
      return;
    }
    this.sent.delete(id);
    this.show(msg);
  }

  /** An undo_completed as a cell (the paths put back), or a notice; also when a resume redraws it. */
  show(msg: Completed): void {
    // Files changed by hand were asked about live; what the user answered comes next.
    if (!msg.success && (msg.conflicts ?? []).length > 0) return;
    if (!msg.success) return this.ui.notice("error", msg.message ?? "Undo failed.");
    const restored = msg.restored ?? [];
    const title = msg.action === "redo" ? "Redo" : msg.action === "rollback" ? "Files restored" : "Undo";
    if (restored.length === 0) return this.ui.notice("info", msg.message ?? "Nothing to restore.");
    const listed = restored.slice(0, LISTED).map((path) => `  ${path}`);
    if (restored.length > LISTED) listed.push(`  … and ${restored.length - LISTED} more`);
    this.ui.print(title, [msg.message ?? "", ...listed]);
  }

  /** The conversation was redrawn after a rollback: the files it restored are shown now. */
  afterRollback(): void {
    const cell = this.pendingCell;
    this.pendingCell = null;
    if (cell) this.show(cell);
  }

  /** The thread rolled back: a rollback of both brings its message back to edit. */
  private rolledBack(id: string): void {
    const sent = this.sent.get(id);
    this.sent.delete(id);
    if (sent?.composerText) this.putInComposer(sent.composerText);
  }

  /** Whether an error is the end of a rollback whose files could not be restored (already said). */
  private explains(id: string, msg: Extract<EventMsg, { type: "error" }>): boolean {
    const sent = this.sent.get(id);
    if (!sent?.failed || msg.codex_error_info !== "thread_rollback_failed") return false;
    this.sent.delete(id);
    return true;
  }

  private async confirmOverwrite(op: Op, composerText: string | null, conflicts: string[]): Promise<void> {
    const shown = conflicts.slice(0, LISTED).join(", ") + (conflicts.length > LISTED ? ` and ${conflicts.length - LISTED} more` : "");
    const answer = await this.ui.choose(
      `Changed since the turn: ${shown}. Overwrite ${conflicts.length === 1 ? "it" : "them"} with the earlier version?`,
      [
        { key: "y", label: "Yes, overwrite", value: true },
        { key: "n", label: "No, leave everything as it is", value: false },
      ],
      false,
    );
    if (!answer) return this.ui.notice("info", "Nothing was restored.");
    if (op.type === "undo" || op.type === "redo" || op.type === "thread_rollback") this.send({ ...op, overwrite: conflicts }, composerText);
  }
}
