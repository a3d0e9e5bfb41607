/**
 * Where lifecycle hooks meet a turn (the tool router runs the tool events itself):
 *
 *   first turn ─▶ SessionStart (or SubagentStart) ─▶ UserPromptSubmit ─▶ prompt recorded
 *   model done ─▶ Stop (or SubagentStop) ─▶ a block sends the reason back as a <hook_prompt>
 *   compaction ─▶ PreCompact ─▶ compact ─▶ PostCompact ─▶ SessionStart (source "compact")
 *   interrupt ─▶ Interrupt          steered input ─▶ UserPromptSubmit
 *
 * Text the hooks add for the model goes into history as developer messages, where the reference
 * puts it. Without hooks for an event these return at once, without awaiting anything.
 */
import type { EventMsg } from "../protocol/events.js";
import { developerText, type ResponseItem } from "../protocol/items.js";
import type { CompactionTrigger, SessionStartSource, SubagentContext } from "../hooks/payloads.js";
import type { ContinuationFragment, SessionHooks } from "../hooks/session-hooks.js";
import { hookTurn } from "../tools/tool-hooks.js";
import type { TurnContext } from "../tools/turn-context.js";
import type { ConversationHistory } from "./history.js";

/** What a session lends the turn's hooks. */
export interface TurnHookHost {
  readonly hooks: SessionHooks | null;
  /** The start SessionStart hooks have yet to hear about (taken once). */
  takeSessionStart(): SessionStartSource | null;
  readonly subagent: SubagentContext | undefined;
}

/**
 * A user turn's opening: SessionStart hooks at the session's first turn, then UserPromptSubmit;
 * `record` puts the prompt into history unless a hook blocked it (false: the turn ends there).
 */
export async function openUserTurn(
  host: TurnHookHost,
  turn: TurnContext,
  emit: (msg: EventMsg) => void,
  history: ConversationHistory,
  prompt: string,
  record: () => void,
): Promise<boolean> {
  const hooks = host.hooks;
  const source = host.takeSessionStart();
  if (hooks && source !== null && !(await sessionStart(hooks, host.subagent, turn, emit, history, source))) return false;
  if (!hooks?.has("UserPromptSubmit")) {
    record();
    return true;
  }
  const outcome = await hooks.userPromptSubmit(hookTurn(turn, emit), prompt);
  if (outcome.blocked) return false;
  record();
  appendContexts(history, outcome.contexts);
  return true;
}

/** SessionStart (a sub-agent's SubagentStart instead); false when a hook said not to go on. */
async function sessionStart(
  hooks: SessionHooks,
  subagent: SubagentContext | undefined,
  turn: TurnContext,
  emit: (msg: EventMsg) => void,
  history: ConversationHistory,
  source: SessionStartSource,
): Promise<boolean> {
  if (subagent) {
    if (source !== "startup" || !hooks.has("SubagentStart")) return true;
    appendContexts(history, (await hooks.subagentStart(hookTurn(turn, emit), subagent)).contexts);
    return true;
  }
  if (!hooks.has("SessionStart")) return true;
  const outcome = await hooks.sessionStart(hookTurn(turn, emit), source);
  appendContexts(history, outcome.contexts);
  return !outcome.stop;
}

/** Input steered into the running turn, after UserPromptSubmit hooks: blocked prompts are dropped. */
export async function admitSteeredInput(turn: TurnContext, emit: (msg: EventMsg) => void, items: ResponseItem[]): Promise<ResponseItem[]> {
  const hooks = turn.services.hooks;
  if (!hooks?.has("UserPromptSubmit") || items.length === 0) return items;
  const admitted: ResponseItem[] = [];
  for (const item of items) {
    const prompt = userPromptText(item);
    if (prompt === null) {
      admitted.push(item);
      continue;
    }
    const outcome = await hooks.userPromptSubmit(hookTurn(turn, emit), prompt);
    if (outcome.blocked) continue;
    admitted.push(item, ...outcome.contexts.map(developerText));
  }
  return admitted;
}

export interface StopCheck {
  /** A hook said the turn is over (`continue: false`). */
  stop: boolean;
  /** The message that sends the agent back to work; null: the turn may end. */
  continuation: ResponseItem | null;
}

/** Stop hooks (SubagentStop in a sub-agent) when the model is done; `active`: a Stop hook already sent it back this turn. */
export async function checkStop(turn: TurnContext, emit: (msg: EventMsg) => void, lastAgentMessage: string | null, active: boolean): Promise<StopCheck> {
  const hooks = turn.services.hooks;
  const event = turn.subagent ? "SubagentStop" : "Stop";
  if (!hooks?.has(event)) return { stop: false, continuation: null };
  const facts = { stopHookActive: active, lastAssistantMessage: lastAgentMessage };
  const outcome = turn.subagent
    ? await hooks.subagentStop(hookTurn(turn, emit), { ...facts, agent: turn.subagent })
    : await hooks.stop(hookTurn(turn, emit), facts);
  if (outcome.stop || outcome.continuation.length === 0) return { stop: outcome.stop, continuation: null };
  return { stop: false, continuation: hookPromptMessage(outcome.continuation) };
}

/**
 * A compaction with its hooks: PreCompact (false when a hook stops it: nothing is compacted),
 * then PostCompact, then SessionStart with source "compact", whose context follows the new history.
 */
export async function compactWithHooks(
  hooks: SessionHooks | null,
  turn: TurnContext,
  emit: (msg: EventMsg) => void,
  history: ConversationHistory,
  trigger: CompactionTrigger,
  compact: () => Promise<void>,
): Promise<boolean> {
  if (!hooks) {
    await compact();
    return true;
  }
  const at = hookTurn(turn, emit);
  if (hooks.has("PreCompact") && (await hooks.preCompact(at, trigger)).stop) return false;
  await compact();
  if (hooks.has("PostCompact")) await hooks.postCompact(at, trigger);
  if (hooks.has("SessionStart") && !turn.subagent) appendContexts(history, (await hooks.sessionStart(at, "compact")).contexts);
  return true;
}

/** Interrupt hooks; the abort does not wait for them (their results are reported when they come). */
export function interruptHooks(hooks: SessionHooks | null, turn: TurnContext, emit: (msg: EventMsg) => void): void {
  if (hooks?.has("Interrupt")) void hooks.interrupt(hookTurn(turn, emit));
}

function appendContexts(history: ConversationHistory, contexts: readonly string[]): void {
  if (contexts.length > 0) history.append(...contexts.map(developerText));
}

/** A steered item's prompt text (null for anything but a user message). */
function userPromptText(item: ResponseItem): string | null {
  if (item.type !== "message" || item.role !== "user") return null;
  return item.content.map((c) => (c.type === "input_text" ? c.text : "")).join("");
}

/** The reference's continuation: one user message, one `<hook_prompt>` part per blocking hook. */
export function hookPromptMessage(fragments: readonly ContinuationFragment[]): ResponseItem {
  return {
    type: "message",
    role: "user",
    content: fragments.map((f) => ({ type: "input_text", text: `<hook_prompt hook_run_id="${escapeXml(f.runId, true)}">${escapeXml(f.text, false)}</hook_prompt>` })),
  };
}

function escapeXml(text: string, attribute: boolean): string {
  const escaped = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return attribute ? escaped.replaceAll('"', "&quot;") : escaped;
}
