/**
 * Plan mode from the UI: `/plan` (or Shift+Tab) switches it on and off. While it is on the
 * agent plans without changing anything (the core keeps commands read-only and offers no patch
 * tool, core/collaboration-mode.ts says so to the model); the next message goes out in the new
 * mode.
 */
import type { SlashCommand, SlashContext } from "./slash-commands.js";

export const PLAN_ON = "Plan mode: the agent reads, asks and writes a plan, and changes nothing. Shift+Tab or /plan goes back to working.";
export const PLAN_OFF = "Plan mode off: the agent works on the task again.";

/** Turns plan mode on or off (toggles when `on` is absent) and says so. */
export function switchPlanMode(ctx: SlashContext, on?: boolean): void {
  const next = on ?? !ctx.planMode();
  if (next === ctx.planMode()) return ctx.print(next ? "Plan mode is already on" : "Plan mode is already off", []);
  ctx.submit({ type: "override_turn_context", collaboration_mode: next ? "plan" : "default" });
  ctx.setPlanMode(next);
}

export const PLAN_COMMAND: SlashCommand = {
  name: "plan",
  description: "plan mode: the agent plans and changes nothing (Shift+Tab toggles)",
  duringTask: false,
  argumentHint: "[on | off]",
  run(ctx, args) {
    const word = args.trim();
    switchPlanMode(ctx, word === "on" ? true : word === "off" ? false : undefined);
  },
};
