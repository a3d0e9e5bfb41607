/**
 * A thread's sub-agents: the AgentControl the collab tools use (tools/agent-control.ts). It
 * starts children (each a thread of its own, opened through the tree), gives them input, waits
 * for them, closes and reopens them, and keeps each one's status from its events. Every status
 * change is told to the parent's front ends (`sub_agent_status`); a child that completes or
 * fails leaves a `<subagent_notification>` in the parent's history. Interrupting the parent
 * interrupts its children; shutting it down closes them. A resumed parent knows its children
 * again from its rollout, and reopens one from the child's own rollout when it is given work.
 */
import type { AgentRole } from "../../config/agent-roles.js";
import {
  isFinalStatus,
  subagentNotificationText,
  type AgentRef,
  type AgentStatus,
  type ThreadLineage,
} from "../../protocol/collab.js";
import type { EventMsg } from "../../protocol/events.js";
import { userText } from "../../protocol/items.js";
import type { UserInput } from "../../protocol/ops.js";
import { REASONING_EFFORTS, type ReasoningEffort } from "../../protocol/policy.js";
import type { RecordedSubAgent } from "../../rollout/sub-agent-ledger.js";
import { AgentNotFoundError, type AgentControl, type SpawnRequest, type SpawnedAgent } from "../../tools/agent-control.js";
import type { MultiAgentOffer } from "../../tools/multi-agent-specs.js";
import { uuidv7 } from "../../util/ids.js";
import { modelInfoFor } from "../../model/catalog.js";
import { availableModels } from "../model-listing.js";
import type { AgentParent, QuestionUpstream } from "./agent-parent.js";
import type { AgentTree } from "./agent-tree.js";
import { ChildAgent } from "./child-agent.js";
import { childSessionOptions, forkedHistory, narrowedSandbox } from "./child-options.js";
import type { Session } from "../session.js";
import type { McpRuntime } from "../mcp-runtime.js";

export const THREAD_LIMIT_REACHED = "collab spawn failed: agent thread limit reached";

interface ResolvedSpawn {
  model: string;
  /** The effort the child runs with (null: its model's default). */
  effort: ReasoningEffort | null;
  role: AgentRole | null;
}

export class SubAgents implements AgentControl {
  private readonly children = new Map<string, ChildAgent>();
  private offerCache: { key: string; offer: MultiAgentOffer } | null = null;

  constructor(
    private readonly parent: AgentParent,
    private readonly tree: AgentTree,
    /** This thread's depth: 0 for a user's thread. */
    private readonly depth: number,
  ) {}

  get threadId(): string {
    return this.parent.threadId;
  }

  /** The collab tools this thread is offered, or null at the maximum depth. */
  offer(): MultiAgentOffer | null {
    if (!this.tree.mayDelegate(this.depth)) return null;
    const listed = availableModels(this.parent.options.accountModels, this.parent.settings.model, this.parent.options.settings.model);
    const key = listed.models.map((m) => m.slug).join(",");
    if (this.offerCache?.key !== key) {
      const roles = this.tree.settings.roles.map((role) => ({
        name: role.name,
        description: role.description,
        user: !role.builtin,
        locked: [
          ...(role.settings.model ? [{ setting: "model" as const, value: role.settings.model }] : []),
          ...(role.settings.reasoningEffort ? [{ setting: "reasoning effort" as const, value: role.settings.reasoningEffort }] : []),
        ],
      }));
      const models = listed.models.map((m) => ({ slug: m.slug, defaultReasoningEffort: modelInfoFor(m.slug).defaultReasoningEffort }));
      this.offerCache = { key, offer: { roles, models } };
    }
    return this.offerCache.offer;
  }

  /** The children, open or closed, in the order they were started (for front ends). */
  list(): readonly ChildAgent[] {
    return [...this.children.values()];
  }

  /** Children a resumed thread had, as its rollout recorded them: known again, reopened when used. */
  restore(recorded: readonly RecordedSubAgent[]): void {
    for (const r of recorded) {
      const child = new ChildAgent({ threadId: r.threadId, nickname: r.nickname, role: r.role, depth: this.depth + 1 }, r.status, (c, s) => this.onStatus(c, s));
      child.closed = r.closed;
      child.redrawFromRecord(() => this.recordedRedraw(child));
      this.children.set(r.threadId, child);
      this.tree.nicknames.claim(r.nickname);
      if (!r.closed) this.tree.restoreOpen();
    }
  }

  /**
   * A child's session_configured built from its rollout: its conversation under its last
   * recorded turn's settings (the parent's where none is recorded); null without a readable file.
   */
  private recordedRedraw(child: ChildAgent): EventMsg | null {
    const recorded = this.tree.opener.recorded(child.threadId);
    if (!recorded) return null;
    const settings = this.parent.settings;
    return {
      type: "session_configured",
      session_id: child.threadId,
      model: recorded.lastModel ?? settings.model,
      model_provider_id: settings.modelProviderId,
      approval_policy: recorded.lastTurn?.approvalPolicy ?? settings.approvalPolicy,
      sandbox_policy: recorded.lastTurn?.sandboxPolicy ?? settings.sandboxPolicy,
      cwd: recorded.lastTurn?.cwd ?? settings.cwd,
      reasoning_effort: null,
      history_log_id: 0,
      history_entry_count: 0,
      rollout_path: recorded.path,
      initial_messages: recorded.initialMessages,
      parent_thread_id: this.parent.threadId,
      agent_nickname: child.nickname,
      agent_role: child.role,
    };
  }

  spawnSettings(request: SpawnRequest): { model: string; reasoningEffort: string } {
    const role = request.role === null ? undefined : this.tree.role(request.role);
    const model = role?.settings.model ?? request.model ?? this.parent.settings.model;
    const effort = role?.settings.reasoningEffort ?? request.reasoningEffort ?? this.parent.settings.reasoningEffort ?? this.parent.modelInfo(model).defaultReasoningEffort;
    return { model, reasoningEffort: effort ?? "" };
  }

  async spawn(request: SpawnRequest): Promise<SpawnedAgent> {
    const { model, effort, role } = this.resolve(request);
    if (!this.tree.reserve()) throw new Error(THREAD_LIMIT_REACHED);
    const threadId = uuidv7();
    const nickname = this.tree.nicknames.take(role?.nicknameCandidates ?? []);
    const child = new ChildAgent({ threadId, nickname, role: request.role, depth: this.depth + 1 }, "pending_init", (c, s) => this.onStatus(c, s));
    let session: Session;
    try {
      const plan = {
        threadId,
        lineage: this.lineageOf(child),
        model,
        reasoningEffort: effort,
        role,
        forkHistory: request.forkContext ? forkedHistory(this.parent.history.snapshot()) : null,
      };
      session = await this.tree.opener.open(childSessionOptions(this.parent, plan, this.tree, this.upstream(child)), plan.lineage);
    } catch (err) {
      this.tree.release();
      throw new Error(`collab spawn failed: ${(err as Error).message}`);
    }
    this.children.set(threadId, child);
    child.attach(session, "pending_init");
    this.onStatus(child, "pending_init");
    this.submitInput(child, session, request.input);
    const settings = this.spawnSettings(request);
    return { ...child.ref, model: settings.model, reasoningEffort: settings.reasoningEffort };
  }

  async send(target: string, input: UserInput[], interrupt: boolean): Promise<{ submissionId: string; status: AgentStatus }> {
    const child = this.reachable(target);
    const session = await this.ensureOpen(child);
    if (interrupt && child.busy) {
      session.submit({ type: "interrupt" });
      // Its current turn ends (interrupted, or finished first) before the message goes in.
      await child.until(() => !child.busy);
    }
    const submissionId = this.submitInput(child, session, input);
    return { submissionId, status: child.status };
  }

  async resume(target: string): Promise<AgentStatus> {
    const child = this.children.get(target);
    if (!child) throw new AgentNotFoundError(target);
    if (!child.closed && child.session) return child.status;
    if (child.closed && !this.tree.reserve()) throw new Error(THREAD_LIMIT_REACHED);
    try {
      await this.reopen(child);
    } catch (err) {
      if (child.closed) this.tree.release();
      throw err;
    }
    return child.status;
  }

  async wait(targets: readonly string[], timeoutMs: number, signal: AbortSignal): Promise<Map<string, AgentStatus> | null> {
    const statuses = (): Map<string, AgentStatus> => new Map(targets.map((id) => [id, this.statusOf(id)]));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = statuses();
      if ([...now.values()].some(isFinalStatus)) return now;
      const remaining = deadline - Date.now();
      if (remaining <= 0 || signal.aborted) return null;
      // One round: the first status change of any target, the deadline or the turn's abort.
      const round = new AbortController();
      const stop = (): void => round.abort();
      signal.addEventListener("abort", stop, { once: true });
      const timer = setTimeout(stop, remaining);
      const watched = targets.flatMap((id) => {
        const child = this.children.get(id);
        return child && !child.closed ? [child.nextChange(round.signal)] : [];
      });
      await Promise.race([...watched, new Promise<void>((resolve) => round.signal.addEventListener("abort", () => resolve(), { once: true }))]);
      round.abort();
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    }
  }

  async close(target: string): Promise<AgentStatus> {
    const child = this.reachable(target);
    const previous = child.status;
    await this.shutdownChild(child);
    return previous;
  }

  ref(threadId: string): AgentRef {
    return this.children.get(threadId)?.ref ?? { thread_id: threadId, agent_nickname: null, agent_role: null };
  }

  /**
   * The parent's sandbox or approval policy changed: every open child takes them from its next
   * turn on (a role's narrower sandbox kept), so no child is ever allowed more than its parent.
   */
  followPolicies(): void {
    const { sandboxPolicy, approvalPolicy } = this.parent.settings;
    for (const child of this.children.values()) {
      if (child.closed || !child.session) continue;
      const role = child.role === null ? undefined : this.tree.role(child.role);
      child.session.submit({ type: "override_turn_context", approval_policy: approvalPolicy, sandbox_policy: narrowedSandbox(sandboxPolicy, role?.settings.sandboxMode ?? null) });
    }
  }

  /** The parent reloaded its MCP servers: open children call the new ones (they share the parent's). */
  shareMcp(mcp: McpRuntime | null): void {
    for (const child of this.children.values()) child.session?.useSharedMcp(mcp);
  }

  /** The parent was interrupted: so is every child still working (each passes it on to its own). */
  interruptAll(): void {
    for (const child of this.children.values()) if (!child.closed && child.busy) child.session?.submit({ type: "interrupt" });
  }

  /** The parent shuts down: every open child is closed first (and closes its own). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.children.values()].filter((c) => !c.closed).map((c) => this.shutdownChild(c)));
  }

  private async shutdownChild(child: ChildAgent): Promise<void> {
    await child.shutdown();
    this.tree.release();
    this.tree.opener.closed(child.threadId);
  }

  private submitInput(child: ChildAgent, session: Session, input: UserInput[]): string {
    child.inputSent();
    return session.submit({ type: "user_input", items: input });
  }

  /** The child's model, effort and role, or why the spawn cannot happen (worded as the reference words it). */
  private resolve(request: SpawnRequest): ResolvedSpawn {
    let role: AgentRole | null = null;
    if (request.role !== null) {
      role = this.tree.role(request.role) ?? null;
      if (!role) throw new Error(`unknown agent_type '${request.role}'`);
    }
    const model = role?.settings.model ?? request.model ?? this.parent.settings.model;
    if (request.model !== null && !role?.settings.model) {
      const known = availableModels(this.parent.options.accountModels, this.parent.settings.model, this.parent.options.settings.model).models.map((m) => m.slug);
      if (!known.includes(request.model)) throw new Error(`Unknown model \`${request.model}\` for spawn_agent. Available models: ${known.join(", ")}`);
    }
    let effort: ReasoningEffort | null = role?.settings.reasoningEffort ?? this.parent.settings.reasoningEffort;
    if (request.reasoningEffort !== null && !role?.settings.reasoningEffort) {
      const requested = REASONING_EFFORTS.find((e) => e === request.reasoningEffort);
      if (!requested) {
        throw new Error(`Reasoning effort \`${request.reasoningEffort}\` is not supported for model \`${model}\`. Supported reasoning efforts: ${REASONING_EFFORTS.join(", ")}`);
      }
      effort = requested;
    }
    return { model, effort, role };
  }

  private statusOf(threadId: string): AgentStatus {
    const child = this.children.get(threadId);
    return child && !child.closed ? child.status : "not_found";
  }

  private reachable(threadId: string): ChildAgent {
    const child = this.children.get(threadId);
    if (!child || child.closed) throw new AgentNotFoundError(threadId);
    return child;
  }

  private async ensureOpen(child: ChildAgent): Promise<Session> {
    return child.session ?? (await this.reopen(child));
  }

  /** Continues a child from its rollout (after close_agent, or after the parent was resumed). */
  private async reopen(child: ChildAgent): Promise<Session> {
    const role = child.role === null ? null : (this.tree.role(child.role) ?? null);
    const session = await this.tree.opener.reopen(child.threadId, (recorded) =>
      childSessionOptions(
        this.parent,
        {
          threadId: child.threadId,
          lineage: this.lineageOf(child),
          model: role?.settings.model ?? recorded.lastModel ?? this.parent.settings.model,
          reasoningEffort: role?.settings.reasoningEffort ?? this.parent.settings.reasoningEffort,
          role,
          forkHistory: null,
          resume: { thread: recorded, warnOnModelChange: false },
        },
        this.tree,
        this.upstream(child),
      ),
    );
    if (!session) throw new AgentNotFoundError(child.threadId);
    child.attach(session, "pending_init");
    return session;
  }

  private lineageOf(child: ChildAgent): ThreadLineage {
    return { rootThreadId: this.tree.rootThreadId, parentThreadId: this.parent.threadId, depth: child.depth, nickname: child.nickname, role: child.role };
  }

  private upstream(child: ChildAgent): QuestionUpstream {
    return { agent: child.ref, questions: this.parent.questions, emit: (msg) => this.parent.send(this.parent.activeSubId, msg) };
  }

  private onStatus(child: ChildAgent, status: AgentStatus): void {
    const parent = this.parent;
    if (parent.closed) return;
    parent.send(parent.activeSubId, { type: "sub_agent_status", parent_thread_id: parent.threadId, depth: child.depth, ...child.ref, status });
    // A finished turn is news for the parent's model; a close it asked for is not.
    if (typeof status === "object") parent.deliver(userText(subagentNotificationText(child.threadId, status)));
  }
}
