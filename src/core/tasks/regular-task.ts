/**
 * A user turn: the model works with tools until it answers without calling any (see ../turn.ts).
 * Undo's snapshots bracket it: the first starts with the turn (tools wait for it), the second
 * is taken before the turn ends, whatever the end was (an interrupted turn's changes can be
 * undone too).
 */
import { runTurn } from "../turn.js";
import type { SessionTask, TaskContext } from "./task.js";

export class RegularTask implements SessionTask {
  readonly kind = "regular";

  /** `begin` records the prompt before the model is asked; false (a hook blocked it) ends the turn there. */
  constructor(private readonly begin?: (ctx: TaskContext) => Promise<boolean>) {}

  async run(ctx: TaskContext): Promise<string | null> {
    if (this.begin && !(await this.begin(ctx))) return null;
    // Undo's snapshots start once the prompt is recorded (what its hooks did is the user's).
    const files = ctx.trackFiles?.() ?? null;
    if (files === null) return runTurn(ctx);
    const turn = { ...ctx.turn, services: { ...ctx.turn.services, fileHistory: files } };
    try {
      return await runTurn({ ...ctx, turn });
    } finally {
      await files.finish();
    }
  }
}
