/**
 * A session's hooks as the kernel and the tool router call them. An event with no runnable hook
 * answers at once with the outcome of no runs (one filter over the registry); only an event that
 * has hooks to run loads the engine (engine.ts: payloads, matchers, processes, output parsing),
 * so a session without hooks never loads it. The registry is asked at each call, so hooks
 * trusted or enabled during the session run from then on.
 */
import type { EventMsg } from "../protocol/events.js";
import type { HookEventName } from "../protocol/hook-events.js";
import type { HookProcessSettings } from "./dispatch.js";
import type { ContextOutcome, HookEngine, HookTurn, PermissionVerdict, PostToolUseOutcome, PreToolUseOutcome, PromptOutcome, StopOutcome } from "./engine.js";
import type { ParseOptions } from "./output.js";
import type { CompactionTrigger, HookSession, HookToolCall, SessionStartSource, StopFacts, SubagentIdentity, SubagentStopFacts } from "./payloads.js";
import type { HookRegistry } from "./registry.js";

export type { ContextOutcome, ContinuationFragment, HookTurn, PermissionVerdict, PostToolUseOutcome, PreToolUseOutcome, PromptOutcome, StopOutcome } from "./engine.js";

export class SessionHooks {
  private engine: Promise<HookEngine> | null = null;

  constructor(
    private readonly registry: HookRegistry,
    private readonly session: HookSession,
    private readonly processes: HookProcessSettings,
  ) {}

  /** Whether any hook of `event` may run (callers skip building payloads otherwise). */
  has(event: HookEventName): boolean {
    return this.registry.runnable(event).length > 0;
  }

  async sessionStart(turn: HookTurn, source: SessionStartSource): Promise<ContextOutcome> {
    return this.has("SessionStart") ? (await this.load()).sessionStart(turn, source) : { stop: false, contexts: [] };
  }

  async userPromptSubmit(turn: HookTurn, prompt: string): Promise<PromptOutcome> {
    return this.has("UserPromptSubmit") ? (await this.load()).userPromptSubmit(turn, prompt) : { stop: false, blocked: false, contexts: [] };
  }

  async preToolUse(turn: HookTurn, call: HookToolCall): Promise<PreToolUseOutcome> {
    return this.has("PreToolUse") ? (await this.load()).preToolUse(turn, call) : { blockedMessage: null, contexts: [] };
  }

  async permissionRequest(turn: HookTurn, call: HookToolCall): Promise<PermissionVerdict> {
    return this.has("PermissionRequest") ? (await this.load()).permissionRequest(turn, call) : null;
  }

  async postToolUse(turn: HookTurn, call: HookToolCall, response: unknown, options: ParseOptions = {}): Promise<PostToolUseOutcome> {
    return this.has("PostToolUse") ? (await this.load()).postToolUse(turn, call, response, options) : { contexts: [] };
  }

  /** Before a compaction; `stop`: a hook said not to go on (the turn ends, nothing is compacted). */
  async preCompact(turn: HookTurn, trigger: CompactionTrigger): Promise<{ stop: boolean }> {
    return this.has("PreCompact") ? (await this.load()).preCompact(turn, trigger) : { stop: false };
  }

  async postCompact(turn: HookTurn, trigger: CompactionTrigger): Promise<void> {
    if (this.has("PostCompact")) await (await this.load()).postCompact(turn, trigger);
  }

  async stop(turn: HookTurn, facts: StopFacts): Promise<StopOutcome> {
    return this.has("Stop") ? (await this.load()).stop(turn, facts) : { stop: false, continuation: [] };
  }

  /**
   * A sub-agent was created: its hooks' context goes into the sub-agent's history. Call it on
   * the sub-agent's own hooks (session id: the root thread's), with the sub-agent's first turn.
   */
  async subagentStart(turn: HookTurn, agent: SubagentIdentity): Promise<ContextOutcome> {
    return this.has("SubagentStart") ? (await this.load()).subagentStart(turn, agent) : { stop: false, contexts: [] };
  }

  /** A sub-agent's turn is about to end (in place of Stop): like Stop, a hook may keep it working. */
  async subagentStop(turn: HookTurn, facts: SubagentStopFacts): Promise<StopOutcome> {
    return this.has("SubagentStop") ? (await this.load()).subagentStop(turn, facts) : { stop: false, continuation: [] };
  }

  async interrupt(turn: HookTurn): Promise<void> {
    if (this.has("Interrupt")) await (await this.load()).interrupt(turn);
  }

  /** The session is closing; `emit` carries the runs' events (there is no turn). */
  async sessionEnd(cwd: string, emit: (msg: EventMsg) => void): Promise<void> {
    if (this.has("SessionEnd")) await (await this.load()).sessionEnd(cwd, emit);
  }

  private load(): Promise<HookEngine> {
    this.engine ??= import("./engine.js").then(({ HookEngine }) => new HookEngine(this.registry, this.session, this.processes));
    return this.engine;
  }
}
