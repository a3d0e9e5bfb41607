/**
 * `/rename [NAME]`: names the current thread, asking for the name when none is typed. The name
 * goes to `$CODEX_HOME/session_index.jsonl`, where the reference keeps names too, so
 * `codex-ts resume NAME` (and the reference's `codex resume NAME`) find the thread by it.
 */
import type { SlashCommand } from "./slash-commands.js";

export const RENAME_COMMAND: SlashCommand = {
  name: "rename",
  description: "name this conversation (resume it later by that name)",
  duringTask: true,
  argumentHint: "[name]",
  async run(ctx, args) {
    const name = args.trim() !== "" ? args : await ctx.ask("Name this conversation");
    if (name === null) return;
    ctx.renameThread(name);
  },
};
