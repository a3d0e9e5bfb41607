/** A user turn: the model works with tools until it answers without calling any (see ../turn.ts). */
import { runTurn } from "../turn.js";
import type { SessionTask, TaskContext } from "./task.js";

export class RegularTask implements SessionTask {
  readonly kind = "regular";

  /** `begin` records the prompt before the model is asked; false (a hook blocked it) ends the turn there. */
  constructor(private readonly begin?: (ctx: TaskContext) => Promise<boolean>) {}

  async run(ctx: TaskContext): Promise<string | null> {
    if (this.begin && !(await this.begin(ctx))) return null;
    return runTurn(ctx);
  }
}
