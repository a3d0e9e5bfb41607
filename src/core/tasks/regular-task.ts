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

  async run(ctx: TaskContext): Promise<string | null> {
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
