/**
 * What an editor can switch in a session: the mode (the permission presets, read-only, auto and
 * full access, plus plan mode, where the agent plans and changes nothing) and, as session config
 * options, the mode again, the model and its reasoning effort. Each choice becomes an
 * `override_turn_context` for the next turn; the core's `settings_changed` answer is what the
 * editor is then told.
 */
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { REASONING_EFFORTS, sandboxPolicyFor, type AskForApproval, type ReasoningEffort, type SandboxPolicy } from "../protocol/policy.js";
import type { Op } from "../protocol/ops.js";
import { PERMISSION_PRESETS, presetOf } from "../presentation/permission-presets.js";

export const PLAN_MODE = "plan";

/** What the next turn runs with, as far as the editor's choices go. */
export interface SessionChoices {
  model: string;
  effort: ReasoningEffort | null;
  approval: AskForApproval;
  sandbox: SandboxPolicy;
  planning: boolean;
}

const MODES = [
  ...PERMISSION_PRESETS.map((p) => ({ id: p.id, name: p.label, description: p.description })),
  { id: PLAN_MODE, name: "Plan", description: "reads, asks and writes a plan; changes nothing until you switch back" },
];

export function currentMode(c: SessionChoices): string {
  return c.planning ? PLAN_MODE : presetOf(c.approval, c.sandbox).id;
}

export function modeState(c: SessionChoices): SessionModeState {
  return { currentModeId: currentMode(c), availableModes: MODES };
}

/**
 * The op that switches to `modeId`; null for a mode that does not exist. A preset keeps the
 * session's own workspace-write policy (its extra writable folders) when it asks for that sandbox.
 */
export function modeOp(modeId: string, workspacePolicy: SandboxPolicy | null): Op | null {
  if (modeId === PLAN_MODE) return { type: "override_turn_context", collaboration_mode: "plan" };
  const preset = PERMISSION_PRESETS.find((p) => p.id === modeId);
  if (!preset) return null;
  const sandbox = preset.sandbox === "workspace-write" && workspacePolicy?.type === "workspace-write" ? workspacePolicy : sandboxPolicyFor(preset.sandbox);
  return { type: "override_turn_context", collaboration_mode: "default", approval_policy: preset.approval, sandbox_policy: sandbox };
}

export const MODE_OPTION = "mode";
export const MODEL_OPTION = "model";
export const EFFORT_OPTION = "reasoning_effort";
/** The effort value that leaves it to the model. */
const DEFAULT_EFFORT = "default";

export function configOptions(c: SessionChoices, models: readonly string[]): SessionConfigOption[] {
  const slugs = [...new Set([c.model, ...models])];
  return [
    { type: "select", id: MODE_OPTION, name: "Mode", category: "mode", currentValue: currentMode(c), options: MODES.map((m) => ({ value: m.id, name: m.name, description: m.description })) },
    { type: "select", id: MODEL_OPTION, name: "Model", category: "model", currentValue: c.model, options: slugs.map((s) => ({ value: s, name: s })) },
    {
      type: "select",
      id: EFFORT_OPTION,
      name: "Reasoning effort",
      category: "thought_level",
      currentValue: c.effort ?? DEFAULT_EFFORT,
      options: [{ value: DEFAULT_EFFORT, name: "Default", description: "the model's own default" }, ...REASONING_EFFORTS.map((e) => ({ value: e, name: e }))],
    },
  ];
}

/** The op a config option's new value means, or why it cannot be set. */
export function configOptionOp(configId: string, value: string, workspacePolicy: SandboxPolicy | null): Op | string {
  switch (configId) {
    case MODE_OPTION:
      return modeOp(value, workspacePolicy) ?? `unknown mode '${value}' (one of ${MODES.map((m) => m.id).join(", ")})`;
    case MODEL_OPTION:
      return value.trim() === "" ? "the model must be named" : { type: "override_turn_context", model: value };
    case EFFORT_OPTION: {
      if (value === DEFAULT_EFFORT) return { type: "override_turn_context", effort: null };
      const effort = REASONING_EFFORTS.find((e) => e === value);
      return effort ? { type: "override_turn_context", effort } : `unknown reasoning effort '${value}' (one of ${DEFAULT_EFFORT}, ${REASONING_EFFORTS.join(", ")})`;
    }
    default:
      return `unknown config option '${configId}' (one of ${MODE_OPTION}, ${MODEL_OPTION}, ${EFFORT_OPTION})`;
  }
}
