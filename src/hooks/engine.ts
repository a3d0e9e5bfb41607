/**
 * The hooks engine: one call per lifecycle event, each selecting the runnable hooks whose
 * matcher fits, running them (dispatch.ts) and folding their answers into one outcome. Any deny
 * wins; a hook that fails (timeout, crash, bad output) decides nothing and is reported in its
 * `hook_completed`. The kernel and the tool router reach it through SessionHooks
 * (session-hooks.ts), which loads this module only once an event has hooks to run.
 */
import type { EventMsg } from "../protocol/events.js";
import type { HookEventName } from "../protocol/hook-events.js";
import type { ConfiguredHook } from "./discovery.js";
import { dispatchHooks, type CompletedRun, type HookProcessSettings } from "./dispatch.js";
import { matcherSelects } from "./matcher.js";
import type { ParseOptions } from "./output.js";
import {
  compactPayload,
  interruptPayload,
  permissionRequestPayload,
  postToolUsePayload,
  preToolUsePayload,
  sessionEndPayload,
  sessionStartPayload,
  stopPayload,
  subagentStartPayload,
  subagentStopPayload,
  userPromptPayload,
  type CompactionTrigger,
  type HookSession,
  type HookToolCall,
  type HookTurnInfo,
  type SessionStartSource,
  type StopFacts,
  type SubagentIdentity,
  type SubagentStopFacts,
} from "./payloads.js";
import type { HookRegistry } from "./registry.js";

/** A turn as hooks run in it: its facts and the emitter its events go out on. */
export interface HookTurn extends HookTurnInfo {
  emit(msg: EventMsg): void;
}

/** Text hooks gave for the model, and whether one asked to stop (`continue: false`). */
export interface ContextOutcome {
  stop: boolean;
  contexts: string[];
}

export interface PromptOutcome extends ContextOutcome {
  /** A hook blocked the prompt: it is not sent. */
  blocked: boolean;
}

export interface PreToolUseOutcome {
  /** What the model is told instead of running the tool; null: it runs. */
  blockedMessage: string | null;
  /** The input to run the tool with instead (`permissionDecision: "allow"` + `updatedInput`). */
  updatedInput?: unknown;
  contexts: string[];
}

export type PermissionVerdict = { kind: "allow" } | { kind: "deny"; message: string } | null;

export interface PostToolUseOutcome {
  /** What the model reads instead of the tool's output (a block's reason, a stop's reason, or a replacement). */
  replacement?: unknown;
  contexts: string[];
}

/** One blocking Stop hook's reason, with the run that gave it (its `<hook_prompt>` names it). */
export interface ContinuationFragment {
  text: string;
  runId: string;
}

export interface StopOutcome {
  /** `continue: false`: the turn ends now. */
  stop: boolean;
  /** Reasons to keep working; empty: the turn may end. */
  continuation: ContinuationFragment[];
}

export class HookEngine {
  constructor(
    private readonly registry: HookRegistry,
    private readonly session: HookSession,
    private readonly processes: HookProcessSettings,
  ) {}

  async sessionStart(turn: HookTurn, source: SessionStartSource): Promise<ContextOutcome> {
    const runs = await this.run("SessionStart", [source], sessionStartPayload(this.session, turn, source), turn);
    return { stop: runs.some((r) => r.parsed.stop !== null), contexts: contexts(runs) };
  }

  async userPromptSubmit(turn: HookTurn, prompt: string): Promise<PromptOutcome> {
    const runs = await this.run("UserPromptSubmit", [], userPromptPayload(this.session, turn, prompt), turn);
    const stop = runs.some((r) => r.parsed.stop !== null);
    return { stop, blocked: stop || runs.some((r) => r.parsed.block !== null), contexts: contexts(runs) };
  }

  async preToolUse(turn: HookTurn, call: HookToolCall): Promise<PreToolUseOutcome> {
    const runs = await this.run("PreToolUse", matcherInputs(call), preToolUsePayload(this.session, turn, call), turn, call.toolUseId);
    const reason = runs.find((r) => r.parsed.block !== null)?.parsed.block ?? null;
    if (reason !== null) return { blockedMessage: blockedMessage(call, reason), contexts: contexts(runs) };
    const rewrite = runs.filter((r) => r.parsed.updatedInput !== undefined).at(-1);
    return { blockedMessage: null, contexts: contexts(runs), ...(rewrite ? { updatedInput: rewrite.parsed.updatedInput } : {}) };
  }

  async permissionRequest(turn: HookTurn, call: HookToolCall): Promise<PermissionVerdict> {
    const runs = await this.run("PermissionRequest", matcherInputs(call), permissionRequestPayload(this.session, turn, call), turn, call.toolUseId);
    const denied = runs.find((r) => r.parsed.block !== null);
    if (denied) return { kind: "deny", message: denied.parsed.block ?? "" };
    return runs.some((r) => r.parsed.allow === true) ? { kind: "allow" } : null;
  }

  async postToolUse(turn: HookTurn, call: HookToolCall, response: unknown, options: ParseOptions = {}): Promise<PostToolUseOutcome> {
    const runs = await this.run("PostToolUse", matcherInputs(call), postToolUsePayload(this.session, turn, call, response), turn, call.toolUseId, options);
    const stopped = runs.find((r) => r.parsed.stop !== null);
    const blocked = runs.find((r) => r.parsed.block !== null);
    const replaced = runs.filter((r) => r.parsed.replacement !== undefined).at(-1);
    const replacement = stopped ? (stopped.parsed.stop?.reason ?? "") : blocked ? blocked.parsed.block : replaced?.parsed.replacement;
    return { contexts: contexts(runs), ...(replacement !== undefined ? { replacement } : {}) };
  }

  /** Before a compaction; `stop`: a hook said not to go on (the turn ends, nothing is compacted). */
  async preCompact(turn: HookTurn, trigger: CompactionTrigger): Promise<{ stop: boolean }> {
    const runs = await this.run("PreCompact", [trigger], compactPayload(this.session, turn, "PreCompact", trigger), turn);
    return { stop: runs.some((r) => r.parsed.stop !== null) };
  }

  async postCompact(turn: HookTurn, trigger: CompactionTrigger): Promise<void> {
    await this.run("PostCompact", [trigger], compactPayload(this.session, turn, "PostCompact", trigger), turn);
  }

  async stop(turn: HookTurn, facts: StopFacts): Promise<StopOutcome> {
    return stopOutcome(await this.run("Stop", [], stopPayload(this.session, turn, facts), turn));
  }

  /**
   * A sub-agent was created: its hooks' context goes into the sub-agent's history. Call it on
   * the sub-agent's own hooks (session id: the root thread's), with the sub-agent's first turn.
   */
  async subagentStart(turn: HookTurn, agent: SubagentIdentity): Promise<ContextOutcome> {
    const runs = await this.run("SubagentStart", [agent.agentType], subagentStartPayload(this.session, turn, agent), turn);
    return { stop: runs.some((r) => r.parsed.stop !== null), contexts: contexts(runs) };
  }

  /** A sub-agent's turn is about to end (in place of Stop): like Stop, a hook may keep it working. */
  async subagentStop(turn: HookTurn, facts: SubagentStopFacts): Promise<StopOutcome> {
    return stopOutcome(await this.run("SubagentStop", [facts.agent.agentType], subagentStopPayload(this.session, turn, facts), turn));
  }

  async interrupt(turn: HookTurn): Promise<void> {
    await this.run("Interrupt", [], interruptPayload(this.session, turn), turn);
  }

  /** The session is closing; `emit` carries the runs' events (there is no turn). */
  async sessionEnd(cwd: string, emit: (msg: EventMsg) => void): Promise<void> {
    const hooks = this.registry.runnable("SessionEnd");
    await dispatchHooks("SessionEnd", hooks, sessionEndPayload(this.session, cwd), { turnId: null, cwd, emit }, this.processes);
  }

  private run(
    event: HookEventName,
    inputs: readonly string[],
    payload: Record<string, unknown>,
    turn: HookTurn,
    runSuffix?: string,
    options?: ParseOptions,
  ): Promise<CompletedRun[]> {
    const hooks = selected(this.registry.runnable(event), inputs);
    const scope = { turnId: turn.turnId, cwd: turn.cwd, emit: turn.emit, ...(runSuffix !== undefined ? { runSuffix } : {}) };
    return dispatchHooks(event, hooks, payload, scope, this.processes, options);
  }
}

/** Hooks whose matcher fits; with no inputs (events without matchers) every one. */
function selected(hooks: ConfiguredHook[], inputs: readonly string[]): ConfiguredHook[] {
  return inputs.length === 0 ? hooks : hooks.filter((h) => matcherSelects(h.matcher, inputs));
}

function matcherInputs(call: HookToolCall): string[] {
  return [call.toolName, ...(call.matcherAliases ?? [])];
}

function contexts(runs: readonly CompletedRun[]): string[] {
  return runs.flatMap((r) => r.parsed.contexts);
}

function stopOutcome(runs: readonly CompletedRun[]): StopOutcome {
  if (runs.some((r) => r.parsed.stop !== null)) return { stop: true, continuation: [] };
  const continuation = runs.flatMap((r) => (r.parsed.block !== null ? [{ text: r.parsed.block, runId: r.runId }] : []));
  return { stop: false, continuation };
}

/** The reference's wording: commands and patches are quoted, other tools named. */
function blockedMessage(call: HookToolCall, reason: string): string {
  const input = call.toolInput as { command?: unknown } | null;
  const command = typeof input === "object" && input !== null && typeof input.command === "string" ? input.command : null;
  if ((call.toolName === "Bash" || call.toolName === "apply_patch") && command !== null) {
    return `Command blocked by PreToolUse hook: ${reason}. Command: ${command}`;
  }
  return `Tool call blocked by PreToolUse hook: ${reason}. Tool: ${call.toolName}`;
}
