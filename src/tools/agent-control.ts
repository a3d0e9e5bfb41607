/**
 * What the collab tools (handlers/multi-agent.ts) may ask of the thread's sub-agents. The core
 * implements it (core/agents/); tools only see this contract, so they never hold a session.
 * Every method names agents by thread id; a method given an id this thread cannot reach throws
 * an AgentNotFoundError, whose message is the model-facing text.
 */
import type { AgentRef, AgentStatus } from "../protocol/collab.js";
import type { UserInput } from "../protocol/ops.js";

export interface SpawnRequest {
  /** The child's first turn. */
  input: UserInput[];
  /** Start the child from this thread's history instead of a fresh context. */
  forkContext: boolean;
  model: string | null;
  /** As the model wrote it: checked against the efforts the model takes when the agent starts. */
  reasoningEffort: string | null;
  /** A role (`agent_type`) by name; null for none. */
  role: string | null;
}

export interface SpawnedAgent extends AgentRef {
  model: string;
  reasoningEffort: string;
}

export interface AgentControl {
  /** The thread the tools run in: the sender every collab event names. */
  readonly threadId: string;
  /** What a spawn would run with (model and effort), as the begin event announces it; the role is not checked yet. */
  spawnSettings(request: SpawnRequest): { model: string; reasoningEffort: string };
  /** Starts a child on its first turn; throws (a message for the model) when it cannot. */
  spawn(request: SpawnRequest): Promise<SpawnedAgent>;
  /**
   * Gives a child more input (after interrupting its running turn when `interrupt`); returns the
   * submission's id and the child's status right after it went in.
   */
  send(target: string, input: UserInput[], interrupt: boolean): Promise<{ submissionId: string; status: AgentStatus }>;
  /** Reopens a closed child from its rollout (pending_init), or reports an open one's status. */
  resume(target: string): Promise<AgentStatus>;
  /**
   * Waits until at least one target reaches a final status, then returns every target's final
   * status by then (unknown targets count as not_found at once); null when `timeoutMs` passed
   * first. An aborted signal ends the wait with null too.
   */
  wait(targets: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<Map<string, AgentStatus> | null>;
  /** Closes a child and its descendants; returns the status it had before. */
  close(target: string): Promise<AgentStatus>;
  /** How events name an agent (nickname and role when this thread knows them). */
  ref(threadId: string): AgentRef;
}

/** An agent id this thread cannot reach (never spawned here, or closed). */
export class AgentNotFoundError extends Error {
  constructor(readonly threadId: string) {
    super(`agent with id ${threadId} not found`);
    this.name = "AgentNotFoundError";
  }
}
