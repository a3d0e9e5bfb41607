/**
 * Turns and steering: a user turn (or input steered into the running one), changed settings,
 * interrupts, and the user's own shell command (`!cmd`).
 */
import type { TurnOverrides, UserInput } from "../../protocol/ops.js";
import type { EventMsg } from "../../protocol/events.js";
import { userText } from "../../protocol/items.js";
import type { TurnContextPayload } from "../../rollout/format.js";
import { mentionedSkills, readSkillFile, skillInjection } from "../../config/skills.js";
import { parseFrontMatter } from "../../config/front-matter.js";
import { uuidv7 } from "../../util/ids.js";
import { settingsUpdateItems } from "../initial-context.js";
import { inputText, userMessageFrom } from "../user-input.js";
import { RegularTask } from "../tasks/regular-task.js";
import type { TaskContext } from "../tasks/task.js";
import { interruptHooks, openUserTurn } from "../turn-hooks.js";
import { UserShellTask } from "../tasks/user-shell-task.js";
import type { SessionSettings } from "../session-options.js";
import type { SessionState } from "../session-state.js";
import type { OpFamily } from "./types.js";
import { errorMessage } from "../../util/errors.js";

export const turnOps: OpFamily<"user_input" | "user_turn" | "override_turn_context" | "interrupt" | "run_user_shell_command"> = {
  user_input: (s, id, op) => userTurn(s, id, op.items, {}, op.final_output_json_schema),
  user_turn: (s, id, op) => {
    const { type: _, items, final_output_json_schema, ...overrides } = op;
    return userTurn(s, id, items, overrides, final_output_json_schema);
  },
  override_turn_context: (s, id, op) => {
    const { type: _, ...overrides } = op;
    s.settings = applyOverrides(s.settings, overrides);
    s.agents?.followPolicies();
    s.send(id, settingsChanged(s.settings));
  },
  interrupt: (s) => {
    // Every open question is answered as cancelled, also one asked between turns (an MCP server's).
    s.questions.cancelAll("interrupted");
    // Sub-agents at work stop too (each passes the interrupt on to its own).
    s.agents?.interruptAll();
    const active = s.tasks.running();
    if (active) interruptHooks(s.hooks, active.turn, (msg) => s.send(active.subId, msg));
    return s.tasks.abort("interrupted");
  },
  run_user_shell_command: async (s, id, op) => {
    // As any new task does, it replaces one still running.
    await s.tasks.abort("replaced");
    s.tasks.spawn(s.turnContext(id, null), new UserShellTask(op.command, `user-shell-${id}`));
  },
};

async function userTurn(s: SessionState, id: string, items: UserInput[], overrides: TurnOverrides, outputSchema: unknown): Promise<void> {
  const before = s.settings;
  s.settings = applyOverrides(s.settings, overrides);
  if (JSON.stringify(settingsChanged(before)) !== JSON.stringify(settingsChanged(s.settings))) {
    s.agents?.followPolicies();
    s.send(id, settingsChanged(s.settings));
  }
  // Every prompt is reported, also one steered into a running turn.
  s.telemetry.withModel(s.settings.model).userPrompt(items.flatMap((i) => (i.type === "text" ? [i.text] : [])));
  const message = await userMessageFrom(items, s.settings.cwd);
  const active = s.tasks.running();
  if (active?.kind === "regular" || active?.kind === "review") {
    // Steering: the running turn picks this up at its next request, and the UI shows it now.
    active.pending.push(message);
    s.files.noteUserMessage(active.turnId);
    active.emit({ type: "user_message", message: inputText(items), images: null });
    return;
  }
  if (items.length === 0) {
    s.send(id, { type: "task_complete", turn_id: uuidv7(), last_agent_message: null });
    return;
  }
  // Any other kind of task still running (a user's shell command) gives way to the turn.
  await s.tasks.abort("replaced");
  // A new thread's file appears with its first turn: session_meta, then what waited in memory.
  s.recorder?.persist();
  const turn = s.turnContext(id, outputSchema);
  const settings = s.settings;
  // SessionStart and UserPromptSubmit hooks speak before the prompt is recorded (turn-hooks.ts).
  const begin = (ctx: TaskContext): Promise<boolean> => {
    s.recorder?.recordTurnContext(turnContextLine(turn.turnId, settings, turn.outputSchema));
    return openUserTurn(s, turn, ctx.emit, s.history, inputText(items), () => {
      s.history.append(...settingsUpdateItems(s.lastTurnSettings, settings, s.options.fileSystemRules));
      s.lastTurnSettings = settings;
      s.history.append(message);
      s.files.noteUserMessage(turn.turnId);
      injectMentionedSkills(s, inputText(items), turn.subId);
      ctx.emit({ type: "user_message", message: inputText(items), images: null });
    });
  };
  s.tasks.spawn(turn, new RegularTask(begin), undefined, items);
}

/** The files of the skills the user mentioned (`$name`), each as a message after theirs. */
function injectMentionedSkills(s: SessionState, text: string, subId: string): void {
  for (const skill of mentionedSkills(text, s.options.skills ?? [])) {
    try {
      const { body } = parseFrontMatter(readSkillFile(skill.path));
      s.history.append(userText(skillInjection(skill, body)));
    } catch (err) {
      s.send(subId, { type: "warning", message: `skill ${skill.name} could not be read: ${errorMessage(err)}` });
    }
  }
}

function turnContextLine(turnId: string, settings: SessionSettings, outputSchema: unknown): TurnContextPayload {
  return {
    turn_id: turnId,
    cwd: settings.cwd,
    approval_policy: settings.approvalPolicy,
    sandbox_policy: settings.sandboxPolicy,
    model: settings.model,
    ...(settings.reasoningEffort !== null ? { effort: settings.reasoningEffort } : {}),
    // The reference requires a summary setting; "auto" is what an unset one means.
    summary: settings.reasoningSummary ?? "auto",
    ...(outputSchema !== null && outputSchema !== undefined ? { final_output_json_schema: outputSchema } : {}),
  };
}

/** What the next turn runs with, as front ends show it. */
function settingsChanged(settings: SessionSettings): EventMsg {
  return {
    type: "settings_changed",
    model: settings.model,
    reasoning_effort: settings.reasoningEffort,
    approval_policy: settings.approvalPolicy,
    sandbox_policy: settings.sandboxPolicy,
    cwd: settings.cwd,
  };
}

function applyOverrides(settings: SessionSettings, o: TurnOverrides): SessionSettings {
  return {
    ...settings,
    ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
    ...(o.model !== undefined ? { model: o.model } : {}),
    ...(o.approval_policy !== undefined ? { approvalPolicy: o.approval_policy } : {}),
    ...(o.sandbox_policy !== undefined ? { sandboxPolicy: o.sandbox_policy } : {}),
    ...(o.effort !== undefined ? { reasoningEffort: o.effort } : {}),
    ...(o.summary !== undefined ? { reasoningSummary: o.summary } : {}),
    ...(o.collaboration_mode !== undefined ? { collaborationMode: o.collaboration_mode } : {}),
  };
}
