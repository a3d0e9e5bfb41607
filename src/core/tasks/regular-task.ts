/** A user turn: the model works with tools until it answers without calling any (see ../turn.ts). */
import { runTurn } from "../turn.js";
import type { SessionTask, TaskContext } from "./task.js";

export class RegularTask implements SessionTask {
  readonly kind = "regular";

  run(ctx: TaskContext): Promise<string | null> {
    return runTurn(ctx);
  }
}
