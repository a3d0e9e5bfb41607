/** A user turn: the model works with tools until it answers without calling any (see ../turn.ts). */
import { runTurn } from "../turn.js";
import type { SessionTask, TaskContext } from "./task.js";

export class RegularTask implements SessionTask {
  readonly kind = "regular";

  async run(ctx: TaskContext): Promise<string | null> {
    const { specs, router } = await ctx.tools();
    return runTurn(
      ctx.turn,
      {
        client: ctx.client,
        history: ctx.history,
        router,
        tools: specs,
        baseInstructions: ctx.baseInstructions,
        threadId: ctx.threadId,
        streamMaxRetries: ctx.streamMaxRetries,
        takePendingInput: () => ctx.takePendingInput(),
        recordUsage: (usage) => ctx.recordUsage(usage),
        recordRateLimits: (snapshot) => ctx.recordRateLimits(snapshot),
        compaction: ctx.compaction,
      },
      ctx.signal,
      (msg) => ctx.emit(msg),
    );
  }
}
