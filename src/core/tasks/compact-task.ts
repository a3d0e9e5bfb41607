/**
 * The `compact` op as a task of its own: the history is summarised now (with the user's note of
 * what to keep), whatever its size. It runs like any task (task_started … task_complete) and
 * emits context_compacted when the new history is in place.
 */
import { approxTokenCount } from "../../exec/truncate.js";
import type { SessionTask, TaskContext } from "./task.js";

export class CompactTask implements SessionTask {
  readonly kind = "compact";

  constructor(private readonly instructions: string | undefined) {}

  async run(ctx: TaskContext): Promise<string | null> {
    const { specs } = await ctx.tools();
    const overheadTokens = approxTokenCount(ctx.baseInstructions) + approxTokenCount(JSON.stringify(specs));
    await ctx.compaction?.run({ overheadTokens, ...(this.instructions !== undefined ? { instructions: this.instructions } : {}) }, "manual");
    return null;
  }
}
